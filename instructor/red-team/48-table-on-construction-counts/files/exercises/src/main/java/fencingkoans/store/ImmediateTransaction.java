package fencingkoans.store;

import fencingkoans.contract.NotWrittenYet;
import fencingkoans.sqlite.Ledger;
import java.util.function.Supplier;

/** Runs a piece of work inside one {@code BEGIN IMMEDIATE} transaction: all of it commits, or none of it. */
final class ImmediateTransaction {

    private ImmediateTransaction() {
    }

    /**
     * Lesson 3: take the write lock first ({@code ledger.execute("BEGIN IMMEDIATE")}), then run {@code work}
     * and {@code COMMIT}. If the lock is held elsewhere, run nothing and answer {@code whenContended.get()}
     * ({@code StoreException.isContention()} tells you). If anything fails after the lock was taken, an
     * exception or an {@code Error}, {@code ROLLBACK} and let the failure go on to the caller, with one exception:
     * a {@code COMMIT} that meets a lock held elsewhere (an open reader, say) is contention too, so roll back and answer
     * {@code whenContended.get()}.
     */
    static <T> T run(Ledger ledger, Supplier<T> work, Supplier<T> whenContended) {
        throw new NotWrittenYet();
    }
}
