package fencingkoans.sqlite;

import java.sql.SQLException;

/** An SQLite error, unchecked so that store code reads as the lesson and not as JDBC ceremony. */
public final class StoreException extends RuntimeException {

    public StoreException(String doing, SQLException cause) {
        super(doing + " failed: " + cause.getMessage(), cause);
    }

    /**
     * True when the statement failed only because another connection held the lock it needed: SQLITE_BUSY or
     * SQLITE_LOCKED, including their extended codes.
     */
    public boolean isContention() {
        if (getCause() instanceof SQLException sql) {
            int primary = sql.getErrorCode() & 0xff;
            return primary == 5 || primary == 6;
        }
        return false;
    }
}
