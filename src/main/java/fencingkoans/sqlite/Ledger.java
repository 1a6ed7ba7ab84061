package fencingkoans.sqlite;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ResourceState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The destination's tables, reached through one real SQLite connection. Every operation is a single
 * statement in whatever transaction the caller has open (or its own, in autocommit mode): deciding where a
 * transaction begins and ends is the lesson, so it is left to the caller. Given code: not an exercise.
 */
public final class Ledger implements AutoCloseable {

    private static final Pattern TRANSACTION_CONTROL = Pattern.compile("\\s*(?:"
            + "BEGIN(?:\\s+(?:DEFERRED|IMMEDIATE|EXCLUSIVE))?(?:\\s+TRANSACTION)?"
            + "|(?:COMMIT|END)(?:\\s+TRANSACTION)?"
            + "|ROLLBACK(?:\\s+TRANSACTION)?(?:\\s+TO(?:\\s+SAVEPOINT)?\\s+[A-Za-z_][A-Za-z0-9_]*)?"
            + "|SAVEPOINT\\s+[A-Za-z_][A-Za-z0-9_]*|RELEASE(?:\\s+SAVEPOINT)?\\s+[A-Za-z_][A-Za-z0-9_]*"
            + "|PRAGMA\\s+busy_timeout(?:\\s*=\\s*\\d{1,9})?"
            + ")\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private final Connection connection;
    private final Checkpoints checkpoints = new Checkpoints();

    private Ledger(Connection connection) {
        this.connection = connection;
    }

    /** Opens a new connection to {@code file} with an explicit busy timeout. */
    public static Ledger open(Path file, Duration busyTimeout) {
        return open(file, busyTimeout, Database.FileUse.KEPT);
    }

    public static Ledger open(Path file, Duration busyTimeout, Database.FileUse use) {
        return new Ledger(Database.connect(file, busyTimeout, use));
    }

    public Checkpoints checkpoints() {
        return checkpoints;
    }

    /**
     * Runs one statement of transaction control as written: {@code BEGIN} (plain, {@code DEFERRED}, {@code IMMEDIATE}
     * or {@code EXCLUSIVE}), {@code COMMIT}, {@code END}, {@code ROLLBACK}, a savepoint, or {@code PRAGMA busy_timeout}.
     * Anything else is refused before it runs: the tables change through this class's own operations, and a store
     * has no reason to mark the file (a {@code PRAGMA user_version}, a table of its own) for later calls to find.
     */
    public void execute(String sql) {
        if (sql == null || !TRANSACTION_CONTROL.matcher(sql).matches()) {
            throw new IllegalArgumentException("Ledger.execute runs transaction control only (BEGIN, BEGIN IMMEDIATE, "
                    + "COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE, PRAGMA busy_timeout), was: " + sql
                    + "; read and write the tables through the Ledger's other methods");
        }
        String keyword = firstKeyword(sql);
        boolean commit = keyword.equals("COMMIT") || keyword.equals("END");
        if (keyword.equals("BEGIN")) {
            checkpoints.reach(Checkpoint.BEFORE_BEGIN);
        } else if (commit) {
            checkpoints.reach(Checkpoint.BEFORE_COMMIT);
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new StoreException(sql, e);
        }
        if (commit) {
            checkpoints.reach(Checkpoint.AFTER_COMMIT);
        }
    }

    /** The resource's installed generation, or empty when there is no such resource. */
    public OptionalLong installedGeneration(String resource) {
        OptionalLong generation = read(resource).map(state -> OptionalLong.of(state.generation()))
                .orElse(OptionalLong.empty());
        checkpoints.reach(Checkpoint.AFTER_GENERATION_READ);
        return generation;
    }

    /** Adds {@code delta} to the resource's value and returns the new value. */
    public long addToValue(String resource, long delta) {
        ResourceState state = read(resource)
                .orElseThrow(() -> new IllegalStateException("no resource named '" + resource + "'"));
        long newValue;
        try {
            newValue = Math.addExact(state.value(), delta);
        } catch (ArithmeticException overflow) {
            throw new IllegalArgumentException("delta " + delta + " would overflow the value " + state.value()
                    + " of " + resource);
        }
        update("UPDATE resources SET value = ? WHERE name = ?", newValue, resource);
        checkpoints.reach(Checkpoint.AFTER_VALUE_UPDATE);
        return newValue;
    }

    /** Sets the resource's installed generation, with no check of any kind. */
    public void setGeneration(String resource, long generation) {
        update("UPDATE resources SET generation = ? WHERE name = ?", generation, resource);
    }

    /** The record stored for this request id on this resource, if any. */
    public Optional<RequestRecord> findRecord(String resource, String requestId) {
        String sql = "SELECT delta, generation, result_value FROM request_records"
                + " WHERE resource = ? AND request_id = ?";
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, resource);
            query.setString(2, requestId);
            Optional<RequestRecord> found;
            try (ResultSet row = query.executeQuery()) {
                found = row.next()
                        ? Optional.of(new RequestRecord(resource, requestId, row.getLong(1), row.getLong(2),
                                row.getLong(3)))
                        : Optional.empty();
            }
            checkpoints.reach(Checkpoint.AFTER_RECORD_LOOKUP);
            return found;
        } catch (SQLException e) {
            throw new StoreException("looking up request " + requestId + " on " + resource, e);
        }
    }

    /** Stores the request and the value it was answered with. */
    public void storeRecord(ApplyRequest request, long resultValue) {
        String sql = "INSERT INTO request_records (resource, request_id, delta, generation, result_value)"
                + " VALUES (?, ?, ?, ?, ?)";
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, request.resource());
            insert.setString(2, request.requestId());
            insert.setLong(3, request.delta());
            insert.setLong(4, request.generation());
            insert.setLong(5, resultValue);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("storing request " + request.requestId(), e);
        }
        checkpoints.reach(Checkpoint.AFTER_RECORD_STORED);
    }

    /** How long this connection waits for a lock held elsewhere before a statement fails (PRAGMA busy_timeout). */
    public Duration busyTimeout() {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("PRAGMA busy_timeout")) {
            row.next();
            return Duration.ofMillis(row.getLong(1));
        } catch (SQLException e) {
            throw new StoreException("reading the busy timeout", e);
        }
    }

    /** The resource's committed state as this connection sees it now. */
    public Optional<ResourceState> read(String resource) {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT generation, value FROM resources WHERE name = ?")) {
            query.setString(1, resource);
            try (ResultSet row = query.executeQuery()) {
                return row.next()
                        ? Optional.of(new ResourceState(resource, row.getLong(1), row.getLong(2)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("reading " + resource, e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreException("closing the connection", e);
        }
    }

    private static String firstKeyword(String sql) {
        String trimmed = sql == null ? "" : sql.strip();
        int end = 0;
        while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
            end++;
        }
        return trimmed.substring(0, end).toUpperCase(Locale.ROOT);
    }

    private void update(String sql, long number, String resource) {
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, number);
            update.setString(2, resource);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException(sql, e);
        }
    }
}
