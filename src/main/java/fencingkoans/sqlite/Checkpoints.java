package fencingkoans.sqlite;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The actions registered at each {@link Checkpoint} of one {@link Ledger}. */
public final class Checkpoints {

    private record Registered(Runnable action, boolean once) {
    }

    /** One registered action. Closing it forgets the action: a once action not run by then never runs. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private final Map<Checkpoint, List<Registered>> actions = new EnumMap<>(Checkpoint.class);

    /** Runs {@code action} every time the checkpoint is reached, on the thread that reaches it. */
    public synchronized Registration on(Checkpoint checkpoint, Runnable action) {
        return register(checkpoint, new Registered(action, false));
    }

    /** Runs {@code action} the first time the checkpoint is reached, then forgets it. */
    public synchronized Registration once(Checkpoint checkpoint, Runnable action) {
        return register(checkpoint, new Registered(action, true));
    }

    public synchronized void clear() {
        actions.clear();
    }

    void reach(Checkpoint checkpoint) {
        List<Registered> due;
        synchronized (this) {
            List<Registered> registered = actions.get(checkpoint);
            if (registered == null) {
                return;
            }
            due = List.copyOf(registered);
            registered.removeIf(Registered::once);
        }
        // Run outside the lock: an action may block on a latch while another thread registers or reaches.
        due.forEach(registered -> registered.action().run());
    }

    private Registration register(Checkpoint checkpoint, Registered registered) {
        actions.computeIfAbsent(checkpoint, key -> new ArrayList<>()).add(registered);
        return () -> forget(checkpoint, registered);
    }

    private synchronized void forget(Checkpoint checkpoint, Registered registered) {
        List<Registered> registeredThere = actions.get(checkpoint);
        if (registeredThere != null) {
            registeredThere.removeIf(each -> each == registered);
        }
    }
}
