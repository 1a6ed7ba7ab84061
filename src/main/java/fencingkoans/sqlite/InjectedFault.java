package fencingkoans.sqlite;

/** A failure thrown on purpose at a {@link Checkpoint}, to see what a crash in the middle leaves behind. */
public final class InjectedFault extends RuntimeException {

    public InjectedFault(Checkpoint where) {
        super("fault injected at " + where);
    }
}
