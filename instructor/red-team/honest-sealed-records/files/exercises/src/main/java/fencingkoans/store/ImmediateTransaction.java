package fencingkoans.store;

import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.StoreException;
import java.util.function.Supplier;

/** Runs a piece of work inside one {@code BEGIN IMMEDIATE} transaction: all of it commits, or none of it. */
final class ImmediateTransaction {

    /** One transaction on one ledger, from the write lock to its end. */
    private record Transaction(Ledger ledger) {

        void begin() {
            ledger.execute("BEGIN IMMEDIATE");
        }

        void commit() {
            ledger.execute("COMMIT");
        }

        /** Ends the transaction after {@code failure}; a failing ROLLBACK is kept on it, not thrown over it. */
        void abandonAfter(Throwable failure) {
            try {
                ledger.execute("ROLLBACK");
            } catch (StoreException rollback) {
                failure.addSuppressed(rollback);
            }
        }
    }

    private ImmediateTransaction() {
    }

    static <T> T run(Ledger ledger, Supplier<T> work, Supplier<T> whenContended) {
        Transaction transaction = new Transaction(ledger);
        boolean holdsLock = false;
        try {
            transaction.begin();
            holdsLock = true;
            T result = work.get();
            transaction.commit();
            return result;
        } catch (RuntimeException | Error failure) {
            if (holdsLock) {
                transaction.abandonAfter(failure);
            }
            // Contention at BEGIN or at COMMIT decided nothing: a retry may succeed. Anything else is real.
            if (failure instanceof StoreException store && store.isContention()) {
                return whenContended.get();
            }
            throw failure;
        }
    }
}
