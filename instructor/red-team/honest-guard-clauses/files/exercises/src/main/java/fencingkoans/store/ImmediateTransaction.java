package fencingkoans.store;

import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.StoreException;
import java.util.function.Supplier;

/** Runs a piece of work inside one {@code BEGIN IMMEDIATE} transaction: all of it commits, or none of it. */
final class ImmediateTransaction {

    private ImmediateTransaction() {
    }

    static <T> T run(Ledger ledger, Supplier<T> work, Supplier<T> whenContended) {
        if (!tryBegin(ledger)) {
            return whenContended.get();
        }
        T result;
        try {
            result = work.get();
            ledger.execute("COMMIT");
        } catch (StoreException failure) {
            rollBackAfter(ledger, failure);
            if (failure.isContention()) {
                return whenContended.get();
            }
            throw failure;
        } catch (RuntimeException | Error failure) {
            rollBackAfter(ledger, failure);
            throw failure;
        }
        return result;
    }

    /** False when another connection holds the write lock; any other failure goes on to the caller. */
    private static boolean tryBegin(Ledger ledger) {
        try {
            ledger.execute("BEGIN IMMEDIATE");
            return true;
        } catch (StoreException e) {
            if (!e.isContention()) {
                throw e;
            }
            return false;
        }
    }

    private static void rollBackAfter(Ledger ledger, Throwable failure) {
        try {
            ledger.execute("ROLLBACK");
        } catch (StoreException alsoFailed) {
            failure.addSuppressed(alsoFailed);
        }
    }
}
