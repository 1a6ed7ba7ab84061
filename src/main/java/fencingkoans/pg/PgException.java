package fencingkoans.pg;

import java.sql.SQLException;

/** A PostgreSQL error, unchecked, that keeps the SQLSTATE so callers can tell its causes apart. */
public final class PgException extends RuntimeException {

    public PgException(String doing, SQLException cause) {
        super(doing + " failed with SQLSTATE " + cause.getSQLState() + ": " + cause.getMessage(), cause);
    }

    /** The server's own message: its first line, without the severity ("ERROR:") in front of it. */
    static String serverMessage(SQLException e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse("").replaceFirst("^\\p{Lu}+:\\s*", "");
    }

    /**
     * Where in the statement PostgreSQL noticed the error: a character position from 1, or 0 when it gave none.
     * Read through reflection, since the driver is only on the runtime class path.
     */
    static int position(SQLException e) {
        try {
            Object details = e.getClass().getMethod("getServerErrorMessage").invoke(e);
            return details == null ? 0 : (Integer) details.getClass().getMethod("getPosition").invoke(details);
        } catch (ReflectiveOperationException | ClassCastException notTheDriversError) {
            return 0;
        }
    }
}
