package fencingkoans.koans.support;

import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * One fresh course database in a temporary file, and every connection a koan opens to it. Each store,
 * authority or raw connection is its own real SQLite connection; all of them are closed after the koan.
 */
public final class CourseDatabase implements AutoCloseable {

    private final Path file;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    private CourseDatabase(Path file) {
        this.file = file;
    }

    public static CourseDatabase createIn(Path directory) {
        Path file = directory.resolve("course.db");
        Database.create(file);
        return new CourseDatabase(file);
    }

    public Path file() {
        return file;
    }

    /** A worker's view of the destination, on a connection of its own. */
    public FencedStore store() {
        return track(new FencedStore(ledger()));
    }

    /** The trusted issuer, on a connection of its own. */
    public Authority authority() {
        return track(new Authority(ledger()));
    }

    /** The destination's tables with no protection at all, on a connection of its own. */
    public Ledger ledger() {
        return track(Ledger.open(file, Database.NO_WAIT));
    }

    /** A plain JDBC connection, as any program that can open the file has. */
    public Connection connection() {
        return track(Database.connect(file, Database.NO_WAIT));
    }

    public long value(String resource) {
        return state(resource).value();
    }

    public long generation(String resource) {
        return state(resource).generation();
    }

    public ResourceState state(String resource) {
        try (Ledger inspector = Ledger.open(file, Database.NO_WAIT)) {
            return inspector.read(resource).orElseThrow(() -> new AssertionError("no resource " + resource));
        }
    }

    /** Every row of both tables, one line each, in a fixed order: compare two of these to see any change. */
    public List<String> contents() {
        try (Connection inspector = Database.connect(file, Database.NO_WAIT)) {
            return contentsOf(inspector);
        } catch (SQLException e) {
            throw new AssertionError("could not read the course database", e);
        }
    }

    /** The same rows as {@link #contents()}, read through a connection the caller keeps open. */
    public static List<String> contentsOf(Connection inspector) {
        List<String> rows = new ArrayList<>();
        try (Statement statement = inspector.createStatement()) {
            dump(statement, "SELECT 'resource', name, generation, value FROM resources ORDER BY name", rows);
            dump(statement, "SELECT 'record', resource, request_id, delta, generation, result_value"
                    + " FROM request_records ORDER BY resource, request_id", rows);
        } catch (SQLException e) {
            throw new AssertionError("could not read the course database", e);
        }
        return rows;
    }

    /** The request records as "resource/requestId" lines. */
    public List<String> records() {
        return contents().stream().filter(row -> row.startsWith("record"))
                .map(row -> row.split("\\|")[1] + "/" + row.split("\\|")[2]).toList();
    }

    @Override
    public void close() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.push(closeable);
        return closeable;
    }

    private static void dump(Statement statement, String sql, List<String> rows) throws SQLException {
        try (ResultSet row = statement.executeQuery(sql)) {
            int columns = row.getMetaData().getColumnCount();
            while (row.next()) {
                StringBuilder line = new StringBuilder();
                for (int column = 1; column <= columns; column++) {
                    line.append(column > 1 ? "|" : "").append(row.getString(column));
                }
                rows.add(line.toString());
            }
        }
    }
}
