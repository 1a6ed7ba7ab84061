package fencingkoans.pg;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server and a superuser's way in. The course never works in the superuser's own database: it
 * only creates (and later drops) databases and roles of its own there.
 *
 * @param serverUrl  the JDBC URL up to and including the slash before the database name
 * @param database   the database the superuser connects to
 * @param options    driver options from the URL, applied to every connection
 */
public record PgServer(String serverUrl, String database, String user, String password, Properties options) {

    /** The environment variable that names a superuser's JDBC URL for the course's PostgreSQL parts. */
    public static final String URL_VARIABLE = "FENCING_PG_URL";

    /**
     * What every database and role of this JVM's lesson 6 is named from ({@code fencing} unless set). The grader
     * gives each graded JVM a name of its own, so that what a killed JVM could not drop is found and dropped after
     * it ({@link #dropWhatIsLeft}).
     */
    public static final String NAMES_PROPERTY = "fencing.pg.names";

    private static final String PREFIX = "jdbc:postgresql://";
    /** How long dropWhatIsLeft waits for the sessions it ended to be gone, and how often it looks. */
    private static final long SESSIONS_END_SECONDS = 10;
    private static final long SESSIONS_POLL_MILLIS = 20;
    /** SQLSTATE classes of a failed login: connection exception, invalid authorization, no such database. */
    private static final List<String> NO_LOGIN_CLASSES = List.of("08", "28", "3D");

    /**
     * Reads a URL such as {@code jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres&password=secret}.
     * {@code user} and {@code password} given here win over the ones in the URL, when not null.
     */
    public static PgServer fromJdbcUrl(String url, String user, String password) {
        if (url == null || !url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a PostgreSQL JDBC URL must start with " + PREFIX + ", was: " + url);
        }
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        int slash = path.indexOf('/', PREFIX.length());
        String serverUrl = slash < 0 ? path + "/" : path.substring(0, slash + 1);
        String database = slash < 0 || slash == path.length() - 1 ? "postgres" : path.substring(slash + 1);
        Properties options = new Properties();
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    options.setProperty(pair.substring(0, equals),
                            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
                }
            }
        }
        String urlUser = (String) options.remove("user");
        String urlPassword = (String) options.remove("password");
        return new PgServer(serverUrl, database, user != null ? user : urlUser,
                password != null ? password : urlPassword, options);
    }

    /**
     * Why no one can log in to this server as the URL says (nobody listening, a wrong password, no such
     * database), as one or more sentences, or empty when a login works. Any other failure is left to the first
     * koan that meets it.
     */
    public Optional<String> whyNoLogin() {
        try (Connection probe = DriverManager.getConnection(serverUrl + database, loginProperties(user, password))) {
            return Optional.empty();
        } catch (SQLException e) {
            String state = e.getSQLState() == null ? "" : e.getSQLState();
            return NO_LOGIN_CLASSES.stream().anyMatch(state::startsWith)
                    ? Optional.of("SQLSTATE " + state + ": " + e.getMessage().strip().replaceFirst("([^.])$", "$1."))
                    : Optional.empty();
        }
    }

    /**
     * Ends every session of, and drops every database and role whose name starts with, {@code prefix}: what a run
     * that was killed before it could drop them left behind (see {@link #NAMES_PROPERTY}). Answers what was dropped.
     */
    public List<String> dropWhatIsLeft(String prefix) {
        if (!prefix.matches("[a-z][a-z0-9_]{5,40}")) {
            throw new IllegalArgumentException("not a prefix of the course's names: " + prefix);
        }
        // Also a session that is creating one of them (a superuser's CREATE DATABASE, say): sent before the kill,
        // the statement would otherwise finish after the names below were read, and its database would stay.
        String sessions = " FROM pg_catalog.pg_stat_activity WHERE pid <> pg_catalog.pg_backend_pid() AND "
                + "(pg_catalog.starts_with(usename::text, ?) OR pg_catalog.starts_with(datname::text, ?) "
                + "OR pg_catalog.strpos(query, ?) > 0)";
        try (Connection superuser = connectAsSuperuser(); Statement drop = superuser.createStatement()) {
            namesStartingWith(superuser, "SELECT pg_catalog.pg_terminate_backend(pid)::text" + sessions, prefix);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SESSIONS_END_SECONDS);
            while (!namesStartingWith(superuser, "SELECT pid::text" + sessions, prefix).isEmpty()
                    && System.nanoTime() < deadline) {
                Thread.sleep(SESSIONS_POLL_MILLIS);
            }
            List<String> dropped = new ArrayList<>();
            for (String database : namesStartingWith(superuser, "SELECT datname::text FROM pg_catalog.pg_database "
                    + "WHERE pg_catalog.starts_with(datname::text, ?)", prefix)) {
                drop.execute("DROP DATABASE IF EXISTS \"" + database + "\" WITH (FORCE)");
                dropped.add(database);
            }
            for (String role : namesStartingWith(superuser, "SELECT rolname::text FROM pg_catalog.pg_roles "
                    + "WHERE pg_catalog.starts_with(rolname::text, ?)", prefix)) {
                drop.execute("DROP ROLE IF EXISTS \"" + role + "\"");
                dropped.add(role);
            }
            return dropped;
        } catch (SQLException e) {
            throw new PgException("dropping what was left with names starting " + prefix, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dropping what was left with names starting " + prefix,
                    e);
        }
    }

    /** The first column of {@code query}'s rows, every {@code ?} in it being {@code prefix}. */
    private static List<String> namesStartingWith(Connection session, String query, String prefix)
            throws SQLException {
        try (PreparedStatement statement = session.prepareStatement(query)) {
            for (int i = 1; i <= query.chars().filter(c -> c == '?').count(); i++) {
                statement.setString(i, prefix);
            }
            List<String> names = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            return names;
        }
    }

    /** A real connection as the superuser, to the database named in the URL. */
    public Connection connectAsSuperuser() {
        return connect(database, user, password);
    }

    /** A real connection to {@code databaseName} as {@code role}, in autocommit mode. */
    Connection connect(String databaseName, String role, String rolePassword) {
        try {
            return DriverManager.getConnection(serverUrl + databaseName, loginProperties(role, rolePassword));
        } catch (SQLException e) {
            throw new PgException("connecting to " + serverUrl + databaseName + " as " + role, e);
        }
    }

    private Properties loginProperties(String role, String rolePassword) {
        Properties properties = new Properties();
        properties.putAll(options);
        if (role != null) {
            properties.setProperty("user", role);
        }
        if (rolePassword != null) {
            properties.setProperty("password", rolePassword);
        }
        return properties;
    }
}
