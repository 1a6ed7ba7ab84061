package fencingkoans.pg;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_A_START_VALUE;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One course database on a PostgreSQL server, with three login roles of its own: names are unique to the run,
 * and {@link #close()} drops the database and the roles again. Given code: not an exercise, except for the
 * two SQL files of the track it loads (see {@link #TRACK_SCRIPTS}).
 */
public final class PgDatabase implements AutoCloseable {

    /** The learner's SQL, read from the track's resources and run as the owner, in this order: the function first. */
    private static final String[] TRACK_SCRIPTS = {"fencingkoans/pg/apply_request.sql", "fencingkoans/pg/grants.sql"};

    /** How long a statement may wait before the server cancels it (see {@link #giveTheSettingsAsCreated}). */
    private static final String HANG_GUARD = "10s";

    /**
     * The search_path of every session the course's own code and the koans open: the catalog, and temporary tables
     * last. The learner's SQL runs as the owner, who may create in public, in a schema named after its role and in
     * fencing; an operator or function there whose argument types match the course's SQL exactly (a text = varchar,
     * say) would be chosen over the catalog's wherever the path listed it, and would run inside the course's reads
     * and checks. Only the learner's own scripts run on the server's usual path (see {@link #LEARNER_PATH}).
     */
    private static final String COURSE_PATH = "pg_catalog, pg_temp";
    /** The path of a new session on a server as installed: where the learner's unqualified names go and are found. */
    private static final String LEARNER_PATH = "\"$user\", public";

    /** Set in a JVM that runs the koans again and again (watch mode): lesson 6 then uses {@link #kept}. */
    public static final String KEEP_BETWEEN_RUNS = "fencing.pg.keep";

    private static PgDatabase kept;

    private static final String SCHEMA = """
            CREATE SCHEMA fencing;
            CREATE TABLE fencing.resources (
                name       text   PRIMARY KEY,
                generation bigint NOT NULL CHECK (generation > 0),
                value      bigint NOT NULL
            );
            CREATE TABLE fencing.request_records (
                resource     text   NOT NULL REFERENCES fencing.resources (name),
                request_id   text   NOT NULL,
                delta        bigint NOT NULL,
                generation   bigint NOT NULL,
                result_value bigint NOT NULL,
                PRIMARY KEY (resource, request_id)
            );
            """;

    private final PgServer server;
    private final String name;
    private final Map<PgRole, String> roles = new EnumMap<>(PgRole.class);
    private final Map<PgRole, String> passwords = new EnumMap<>(PgRole.class);
    private final PgSessions sessions = new PgSessions();
    /** Whether this is the database {@link #kept} for later runs, which {@link #close()} leaves in place. */
    private boolean keptForTheJvm;

    private PgDatabase(PgServer server, String run) {
        this.server = server;
        this.name = System.getProperty(PgServer.NAMES_PROPERTY, "fencing") + "_" + run;
        for (PgRole role : PgRole.values()) {
            roles.put(role, name + "_" + role.name().toLowerCase());
            passwords.put(role, UUID.randomUUID().toString());
        }
    }

    /**
     * Creates the roles and the database, the schema owned by the owner role, and the state as found: every
     * role may look into the schema and read both tables (PUBLIC holds SELECT), and the worker may also write them
     * directly, as every program holding the SQLite file could. Then runs the track's SQL, which is where that changes. The tables stay
     * empty until {@link #reset()}, which every user of the database calls before it starts.
     */
    public static PgDatabase create(PgServer server) {
        PgDatabase database = new PgDatabase(server, UUID.randomUUID().toString().replace("-", "").substring(0, 12));
        try {
            database.createRolesAndDatabase();
            database.createSchema();
            database.runTrackScripts();
            return database;
        } catch (RuntimeException failure) {
            database.dropQuietly(failure);
            throw failure;
        }
    }

    /**
     * The database watch mode keeps between its runs, built again from the track's SQL as it is now: its objects
     * and grants are dropped ({@code DROP OWNED}) and the schema and the learner's SQL run anew, which costs a
     * fraction of creating a database. Its roles, its settings and its idle sessions stay; it is dropped when the
     * JVM exits. A set-up failure leaves it in place, for the next run to build again.
     */
    public static synchronized PgDatabase kept(PgServer server) {
        if (kept == null || !kept.server.equals(server)) {
            PgDatabase database = new PgDatabase(server, "kept_" + UUID.randomUUID().toString().replace("-", "")
                    .substring(0, 12));
            try {
                database.createRolesAndDatabase();
            } catch (RuntimeException failure) {
                database.dropQuietly(failure);
                throw failure;
            }
            database.keptForTheJvm = true;
            Runtime.getRuntime().addShutdownHook(new Thread(database::dropAtExit, database.name + " dropped at exit"));
            kept = database;
        } else {
            kept.dropEverythingBuilt();
        }
        kept.createSchema();
        kept.runTrackScripts();
        return kept;
    }

    /** This run's name for the role, as it appears in the catalog and in error messages. */
    public String roleName(PgRole role) {
        return roles.get(role);
    }

    /**
     * A real connection to this database as {@code role}, in autocommit mode, with nothing left of any earlier
     * use (see {@link PgSessions}): closing it keeps it for the next caller. Its statements carry the database's
     * hang guard (see {@link #giveTheSettingsAsCreated}).
     */
    public Connection connect(PgRole role) {
        return sessions.take(role, () -> server.connect(name, roles.get(role), passwords.get(role)));
    }

    /** Runs one statement on {@code session}; a failure is an error of the set-up, not an answer. */
    public static void execute(Connection session, String sql) {
        try (Statement statement = session.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new PgException(sql, e);
        }
    }

    /** Puts both resources back to generation 1 and their start values and forgets every request record. */
    public void reset() {
        try (Connection owner = connect(PgRole.OWNER); Statement statement = owner.createStatement()) {
            // DELETE rather than TRUNCATE: for a handful of rows it is several times cheaper, once per koan.
            statement.execute("DELETE FROM fencing.request_records");
            statement.execute("DELETE FROM fencing.resources");
            statement.execute("INSERT INTO fencing.resources (name, generation, value) VALUES ('" + FUND_A
                    + "', 1, " + FUND_A_START_VALUE + "), ('" + FUND_B + "', 1, " + FUND_B_START_VALUE + ")");
        } catch (SQLException e) {
            throw new PgException("resetting " + name, e);
        }
    }

    /** Drops the database, closing any session still in it, and the roles; a {@link #kept} one stays till exit. */
    @Override
    public void close() {
        if (!keptForTheJvm) {
            drop();
        }
    }

    /** At exit the server may be gone before this runs (a container stopped by its own hook): nothing to drop then. */
    private void dropAtExit() {
        try {
            drop();
        } catch (RuntimeException serverGone) {
            System.err.println("Lesson 6: " + name + " was not dropped at exit (" + serverGone.getMessage() + ")");
        }
    }

    private void drop() {
        sessions.close();
        try (Connection superuser = server.connectAsSuperuser(); Statement statement = superuser.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            for (String role : roles.values()) {
                statement.execute("DROP ROLE IF EXISTS " + role);
            }
        } catch (SQLException e) {
            throw new PgException("dropping " + name + " and its roles", e);
        }
    }

    private void createRolesAndDatabase() {
        try (Connection superuser = server.connectAsSuperuser(); Statement statement = superuser.createStatement()) {
            for (PgRole role : PgRole.values()) {
                statement.execute("CREATE ROLE " + roles.get(role) + " LOGIN PASSWORD '" + passwords.get(role) + "'");
            }
            statement.execute("CREATE DATABASE " + name + " OWNER " + roles.get(PgRole.OWNER));
            giveTheSettingsAsCreated(statement);
        } catch (SQLException e) {
            throw new PgException("creating " + name + " and its roles", e);
        }
    }

    /**
     * The database's and its roles' own settings, which every new session starts with: the hang guard and the
     * course's search_path. A statement that waits for a lock (PostgreSQL's lock_timeout 0 means wait for ever) is
     * cancelled after a while with SQLSTATE 57014: the guard only turns a hang into an error; nothing sleeps on it.
     */
    private void giveTheSettingsAsCreated(Statement superuser) throws SQLException {
        superuser.execute("ALTER DATABASE " + name + " RESET ALL");
        superuser.execute("ALTER DATABASE " + name + " SET statement_timeout = '" + HANG_GUARD + "'");
        superuser.execute("ALTER DATABASE " + name + " SET search_path = " + COURSE_PATH);
        for (String role : roles.values()) {
            superuser.execute("ALTER ROLE " + role + " RESET ALL");
            superuser.execute("ALTER ROLE " + role + " IN DATABASE " + name + " RESET ALL");
        }
    }

    /**
     * The learner's SQL runs as the owner, and an owner may give its database and its own role settings that every
     * later session starts with: a search_path that puts a schema of its own before pg_catalog would answer the
     * koans' questions to the server with the learner's functions. Whatever the scripts set there is undone.
     */
    private void undoTheSettingsOfTheScripts() {
        try (Connection superuser = server.connectAsSuperuser(); Statement statement = superuser.createStatement()) {
            giveTheSettingsAsCreated(statement);
        } catch (SQLException e) {
            throw new PgException("undoing the settings the track's SQL gave " + name + " and its roles", e);
        }
    }

    /**
     * Back to a database with nothing in it, as created: every object the roles own and every privilege granted to
     * them goes, and the database's own privileges are those {@link #createRolesAndDatabase()} gave (its settings
     * are given back after every run of the track's SQL).
     */
    private void dropEverythingBuilt() {
        try (Connection superuser = server.connect(name, server.user(), server.password());
                Statement statement = superuser.createStatement()) {
            statement.execute("DROP OWNED BY " + String.join(", ", roles.values()));
            statement.execute("REVOKE ALL ON DATABASE " + name + " FROM PUBLIC");
            statement.execute("GRANT CONNECT, TEMPORARY ON DATABASE " + name + " TO PUBLIC");
        } catch (SQLException e) {
            throw new PgException("emptying " + name + " for the next run", e);
        }
    }

    private void createSchema() {
        String worker = roles.get(PgRole.WORKER);
        runAsOwner("the course schema", SCHEMA
                + "GRANT USAGE ON SCHEMA fencing TO PUBLIC;\n"
                + "GRANT SELECT ON ALL TABLES IN SCHEMA fencing TO PUBLIC;\n"
                + "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA fencing TO " + worker + ";\n");
    }

    private void runAsOwner(String what, String sql) {
        try (Connection owner = connect(PgRole.OWNER); Statement statement = owner.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new PgException("running " + what + " as the owner", e);
        }
    }

    /**
     * Runs the track's SQL as the owner, one statement at a time, so that a refused statement is known together
     * with its place in the learner's file; then checks that the worker can reach the tables through the function,
     * and that every statement of the function's body names things that exist.
     * A failure of either is a {@link PgSetupFailure} that says which file to edit, where, and why.
     */
    private void runTrackScripts() {
        List<TrackScript> scripts = Arrays.stream(TRACK_SCRIPTS)
                .map(resource -> new TrackScript(resource, trackScript(resource), roles.get(PgRole.WORKER))).toList();
        try (Connection owner = connect(PgRole.OWNER); Statement statement = owner.createStatement()) {
            // The learner's text goes to the server as written: no JDBC escape may rewrite it and move positions.
            statement.setEscapeProcessing(false);
            statement.execute("SET search_path = " + LEARNER_PATH);
            try {
                for (TrackScript script : scripts) {
                    for (TrackScript.Statement sql : script.statements()) {
                        try {
                            statement.execute(sql.sql());
                        } catch (SQLException refusal) {
                            throw SetupDiagnosis.refused(script, sql, refusal, scripts.get(0), owner);
                        }
                    }
                }
            } finally {
                undoTheSettingsOfTheScripts();
            }
        } catch (SQLException e) {
            throw new PgException("running the track's SQL as the owner", e);
        }
        // A session of its own, as the course's code gets one: what the scripts SET in theirs went with it.
        try (Connection owner = connect(PgRole.OWNER)) {
            Optional<PgSetupFailure> noWayIn = SetupDiagnosis.wayIn(scripts.get(0), scripts.get(1), owner,
                    roles.get(PgRole.WORKER));
            if (noWayIn.isPresent()) {
                throw noWayIn.get();
            }
            Optional<PgSetupFailure> cannotRun = SetupDiagnosis.body(scripts.get(0), owner);
            if (cannotRun.isPresent()) {
                throw cannotRun.get();
            }
            FunctionLines.installed(scripts.get(0));
        } catch (SQLException e) {
            throw new PgException("checking what the track's SQL built", e);
        }
    }

    private static String trackScript(String resource) {
        try (InputStream in = PgDatabase.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath: is the track's "
                        + "src/main/resources a resource folder of the build?");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource, e);
        }
    }

    private void dropQuietly(RuntimeException cause) {
        try {
            close();
        } catch (RuntimeException dropFailure) {
            cause.addSuppressed(dropFailure);
        }
    }
}
