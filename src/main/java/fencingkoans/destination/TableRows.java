package fencingkoans.destination;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Every row of the destination's two tables as one line each, in a fixed order, the same on SQLite and on
 * PostgreSQL: compare two of these to see any change at all.
 */
final class TableRows {

    private TableRows() {
    }

    /** {@code schema} is the prefix before the table names: "" on SQLite, "fencing." on PostgreSQL. */
    static List<String> of(Connection connection, String schema) {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            dump(statement, "SELECT 'resource', name, generation, value FROM " + schema + "resources ORDER BY name",
                    rows);
            dump(statement, "SELECT 'record', resource, request_id, delta, generation, result_value FROM " + schema
                    + "request_records ORDER BY resource, request_id", rows);
        } catch (SQLException e) {
            throw new IllegalStateException("reading the destination's tables", e);
        }
        return rows;
    }

    /** The request records among {@code rows}, as "resource/requestId" lines. */
    static List<String> records(List<String> rows) {
        return rows.stream().filter(row -> row.startsWith("record"))
                .map(row -> row.split("\\|")[1] + "/" + row.split("\\|")[2]).toList();
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
