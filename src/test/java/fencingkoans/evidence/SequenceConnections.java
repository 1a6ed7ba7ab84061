package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.Destination;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.FencedStore;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a random sequence holds open on its destination, all of it opened through the façade and closed with it
 * on a reopen: a worker, the authority, and the looks that compare every step. The SQLite worker is the store
 * itself, whose seams stop an apply at a checkpoint; the PostgreSQL function runs inside the server and has none.
 */
record SequenceConnections(Destination.Worker worker, Optional<Checkpoints> seams, Authority authority,
        Function<String, Optional<ResourceState>> read, Supplier<List<String>> contents) {

    @FunctionalInterface
    interface Authority {
        InstallResult install(String resource, long generation);
    }

    /**
     * On SQLite, each on a connection kept for the whole sequence: a connection per look would cost more than the
     * steps. The store is reached through {@code applyPath}, so that the checker can be shown one that breaks the
     * contract.
     */
    static SequenceConnections on(SqliteDestination course,
            BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath) {
        FencedStore store = course.store();
        Connection look = course.connection();
        return new SequenceConnections(request -> applyPath.apply(store, request), Optional.of(store.checkpoints()),
                course.authority()::install, store::read, () -> SqliteDestination.contentsOf(look));
    }

    /** On PostgreSQL, the destination's own worker, authority and owner session. */
    static SequenceConnections on(Destination destination) {
        return new SequenceConnections(destination.worker(), Optional.empty(), destination::install,
                destination::read, destination::contents);
    }

    /** An apply that fails at {@code where}, when it gets that far. */
    ApplyResult applyFailingAt(ApplyRequest request, Checkpoint where) {
        Checkpoints checkpoints = seams.orElseThrow(() -> new UnsupportedOperationException(
                "this worker has no checkpoint to fail at"));
        checkpoints.once(where, () -> {
            throw new InjectedFault(where);
        });
        try {
            return worker.apply(request);
        } finally {
            // An apply answered from the record never reaches the checkpoint: the fault must not linger.
            checkpoints.clear();
        }
    }
}
