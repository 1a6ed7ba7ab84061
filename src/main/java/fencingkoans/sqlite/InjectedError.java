package fencingkoans.sqlite;

/**
 * An {@link Error} thrown on purpose at a {@link Checkpoint}: what an {@code OutOfMemoryError} or a
 * {@code StackOverflowError} in the middle of a transaction would be. It is no {@link RuntimeException}.
 */
public final class InjectedError extends Error {

    public InjectedError(Checkpoint where) {
        super("error injected at " + where);
    }
}
