package fencingkoans.sqlite;

import java.sql.SQLException;

/** An SQLite error, unchecked so that store code reads as the lesson and not as JDBC ceremony. */
public final class StoreException extends RuntimeException {

    public StoreException(String doing, SQLException cause) {
        super(doing + " failed: " + cause.getMessage(), cause);
    }

    /** True when the statement failed only because another connection held the lock it needed. */
    public boolean isContention() {
        return getCause() instanceof SQLException sql && Database.isContention(sql);
    }
}
