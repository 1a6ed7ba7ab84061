package fencingkoans.pg;

import java.sql.SQLException;

/** A PostgreSQL error, unchecked, that keeps the SQLSTATE so callers can tell its causes apart. */
public final class PgException extends RuntimeException {

    public PgException(String doing, SQLException cause) {
        super(doing + " failed with SQLSTATE " + cause.getSQLState() + ": " + cause.getMessage(), cause);
    }
}
