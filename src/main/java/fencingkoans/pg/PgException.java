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

    /** Where in the statement PostgreSQL noticed the error: a character position from 1, or 0 when it gave none. */
    static int position(SQLException e) {
        Object position = detail(e, "getPosition");
        return position instanceof Integer given ? given : 0;
    }

    /** The server's context of the error ("PL/pgSQL function ... line 12 at ..."), or null when it gave none. */
    static String where(SQLException e) {
        Object where = detail(e, "getWhere");
        return where instanceof String given ? given : null;
    }

    /** One field of the driver's ServerErrorMessage, read through reflection: the driver is a runtime dependency. */
    private static Object detail(SQLException e, String getter) {
        try {
            Object details = e.getClass().getMethod("getServerErrorMessage").invoke(e);
            return details == null ? null : details.getClass().getMethod(getter).invoke(details);
        } catch (ReflectiveOperationException notTheDriversError) {
            return null;
        }
    }
}
