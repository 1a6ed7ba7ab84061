package fencingkoans.store;

import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.StoreException;
import java.util.function.Supplier;

/** Runs a piece of work inside one {@code BEGIN IMMEDIATE} transaction: all of it commits, or none of it. */
final class ImmediateTransaction {

    private ImmediateTransaction() {
    }

    static <T> T run(Ledger ledger, Supplier<T> work, Supplier<T> whenContended) {
        return contendedAs(whenContended, () -> {
            ledger.execute("BEGIN IMMEDIATE");
            return rolledBackOnFailure(ledger, () -> {
                T result = work.get();
                ledger.execute("COMMIT");
                return result;
            });
        });
    }

    /** Runs {@code action}; a failure caused only by a lock held elsewhere becomes {@code whenContended}'s answer. */
    private static <T> T contendedAs(Supplier<T> whenContended, Supplier<T> action) {
        try {
            return action.get();
        } catch (StoreException e) {
            if (e.isContention()) {
                return whenContended.get();
            }
            throw e;
        }
    }

    /** Runs {@code action} in the open transaction; on any failure, ROLLBACK first, then let the failure go on. */
    private static <T> T rolledBackOnFailure(Ledger ledger, Supplier<T> action) {
        try {
            return action.get();
        } catch (RuntimeException | Error failure) {
            try {
                ledger.execute("ROLLBACK");
            } catch (StoreException rollback) {
                failure.addSuppressed(rollback);
            }
            throw failure;
        }
    }
}
