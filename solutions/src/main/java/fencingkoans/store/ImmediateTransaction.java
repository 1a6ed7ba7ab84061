package fencingkoans.store;

import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.StoreException;
import java.util.function.Supplier;

/** Runs a piece of work inside one {@code BEGIN IMMEDIATE} transaction: all of it commits, or none of it. */
final class ImmediateTransaction {

    private ImmediateTransaction() {
    }

    /**
     * Takes the write lock first, then runs {@code work} and commits. If the lock is held elsewhere, nothing
     * runs and {@code whenContended} answers instead. If anything fails after the lock was taken (an exception or
     * an {@code Error}), the transaction is rolled back and the failure goes on to the caller; a {@code COMMIT} that
     * meets a lock held elsewhere is rolled back too, and answered by {@code whenContended}.
     */
    static <T> T run(Ledger ledger, Supplier<T> work, Supplier<T> whenContended) {
        try {
            ledger.execute("BEGIN IMMEDIATE");
        } catch (StoreException e) {
            if (e.isContention()) {
                return whenContended.get();
            }
            throw e;
        }
        try {
            T result = work.get();
            ledger.execute("COMMIT");
            return result;
        } catch (RuntimeException | Error failure) {
            rollBack(ledger, failure);
            if (failure instanceof StoreException store && store.isContention()) {
                return whenContended.get();
            }
            throw failure;
        }
    }

    private static void rollBack(Ledger ledger, Throwable cause) {
        try {
            ledger.execute("ROLLBACK");
        } catch (StoreException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }
}
