package fencingkoans.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.sqlite.SQLiteConfig;

/** Creates the course's SQLite file and opens real connections to it. Given code: not an exercise. */
public final class Database {

    public static final String FUND_A = "fund-A";
    public static final String FUND_B = "fund-B";
    public static final long FUND_A_START_VALUE = 0;
    public static final long FUND_B_START_VALUE = 100;

    /**
     * Fail at once when another connection holds the lock. A teaching choice, so that contention shows up
     * immediately and the same way every run; a production store would usually wait a little.
     */
    public static final Duration NO_WAIT = Duration.ZERO;

    /** How long the file lives, which decides what its commits must cost. */
    public enum FileUse {
        /** SQLite's defaults: every commit waits until the file is on disk, as a store that keeps data must. */
        KEPT,
        /**
         * A file that lives for one koan and is then deleted: no commit waits for the disk
         * ({@code synchronous=OFF}), and the rollback journal stays between transactions instead of being created
         * and deleted by each ({@code journal_mode=PERSIST}). Locks, transactions and rollback behave as with the
         * defaults; only a power loss would tell the two apart, and nothing here simulates one.
         */
        SCRATCH
    }

    private static final String SCHEMA = """
            CREATE TABLE resources (
                name       TEXT    PRIMARY KEY,
                generation INTEGER NOT NULL CHECK (generation > 0),
                value      INTEGER NOT NULL
            );
            CREATE TABLE request_records (
                resource     TEXT    NOT NULL REFERENCES resources (name),
                request_id   TEXT    NOT NULL,
                delta        INTEGER NOT NULL,
                generation   INTEGER NOT NULL,
                result_value INTEGER NOT NULL,
                PRIMARY KEY (resource, request_id)
            );
            """;

    /** The bytes of a freshly created course database, once one has been made in this JVM. */
    private static byte[] seeded;

    private Database() {
    }

    /** Creates the schema in a new file and seeds fund-A and fund-B at generation 1. */
    public static void create(Path file) {
        create(file, FileUse.KEPT);
    }

    /**
     * The same. The first file of a JVM is made with SQL, in one transaction (so at most one flush); every later one
     * is a copy of its bytes, as a fresh file would have them, which spares each koan a schema's worth of work.
     */
    public static synchronized void create(Path file, FileUse use) {
        try {
            if (seeded == null) {
                createWithSql(file, use);
                seeded = Files.readAllBytes(file);
            } else {
                Files.write(file, seeded, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                if (use == FileUse.KEPT) {
                    try (FileChannel written = FileChannel.open(file, StandardOpenOption.WRITE)) {
                        written.force(true);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + file, e);
        }
    }

    private static void createWithSql(Path file, FileUse use) {
        try (Connection connection = connect(file, NO_WAIT, use); Statement statement = connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            for (String ddl : SCHEMA.split(";")) {
                if (!ddl.isBlank()) {
                    statement.execute(ddl);
                }
            }
            statement.execute("INSERT INTO resources (name, generation, value) VALUES ('" + FUND_A + "', 1, "
                    + FUND_A_START_VALUE + "), ('" + FUND_B + "', 1, " + FUND_B_START_VALUE + ")");
            statement.execute("COMMIT");
        } catch (SQLException e) {
            throw new StoreException("creating " + file, e);
        }
    }

    /** Opens a real connection in autocommit mode; transactions are begun with explicit SQL. */
    public static Connection connect(Path file, Duration busyTimeout) {
        return connect(file, busyTimeout, FileUse.KEPT);
    }

    public static Connection connect(Path file, Duration busyTimeout, FileUse use) {
        String path = file.toAbsolutePath().toString();
        if (path.contains("?")) {
            // The driver would read what follows as settings of the connection (load_extension among them).
            throw new IllegalArgumentException("a database file's path may not contain '?': " + path);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.enableLoadExtension(false);
        config.setBusyTimeout(Math.toIntExact(busyTimeout.toMillis()));
        config.enforceForeignKeys(true);
        if (use == FileUse.SCRATCH) {
            config.setSynchronous(SQLiteConfig.SynchronousMode.OFF);
            config.setJournalMode(SQLiteConfig.JournalMode.PERSIST);
        }
        try {
            return DriverManager.getConnection("jdbc:sqlite:" + path, config.toProperties());
        } catch (SQLException e) {
            throw new StoreException("opening " + file, e);
        }
    }

    /** Writes a consistent copy of the whole database to {@code copy}, as a backup tool would. */
    public static void snapshot(Connection connection, Path copy) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("VACUUM INTO '" + copy.toAbsolutePath().toString().replace("'", "''") + "'");
        } catch (SQLException e) {
            throw new StoreException("copying the database to " + copy, e);
        }
    }
}
