package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.destination.SqliteDestination;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Ledger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Ledger.execute} runs transaction control and nothing else: a store that could write any statement could
 * leave a mark in the koan's file (a user version, a table of its own) and answer later calls from it.
 */
class LedgerStatementsTest {

    @TempDir
    Path folder;

    @ParameterizedTest
    @ValueSource(strings = {"PRAGMA user_version = 4242", "PRAGMA application_id = 7", "CREATE TABLE mark (x)",
            "CREATE TEMP TABLE mark (x)", "ATTACH DATABASE 'other.db' AS other", "UPDATE resources SET value = 1",
            "SELECT CASE WHEN (SELECT user_version FROM pragma_user_version) = 0 THEN 1 END", "VACUUM INTO 'copy.db'",
            "BEGIN; PRAGMA user_version = 1", "COMMIT; DROP TABLE resources",
            "PRAGMA busy_timeout = 5; PRAGMA user_version = 1", "BEGIN IMMEDIATE -- a comment", ""})
    void anythingButTransactionControlIsRefusedAndChangesNothing(String sql) throws SQLException {
        Path file = folder.resolve("course.db");
        Database.create(file);
        List<String> before = rows(file);

        try (Ledger ledger = Ledger.open(file, Database.NO_WAIT)) {
            assertThat(catchThrowable(() -> ledger.execute(sql))).as("Ledger.execute(\"%s\")", sql)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("transaction control only");
        }
        assertThat(rows(file)).as("the file after the refused statement \"%s\"", sql).isEqualTo(before);
        try (Connection inspector = Database.connect(file, Database.NO_WAIT);
                Statement statement = inspector.createStatement();
                ResultSet version = statement.executeQuery("PRAGMA user_version")) {
            assertThat(version.next()).isTrue();
            assertThat(version.getLong(1)).as("the file's user version").isZero();
        }
    }

    @Test
    void transactionControlAndTheBusyTimeoutRun() {
        Path file = folder.resolve("course.db");
        Database.create(file);

        try (Ledger ledger = Ledger.open(file, Database.NO_WAIT)) {
            for (String sql : List.of("BEGIN IMMEDIATE", "COMMIT", "begin deferred transaction;", "END",
                    "BEGIN EXCLUSIVE", "SAVEPOINT before_write", "ROLLBACK TO SAVEPOINT before_write",
                    "RELEASE before_write", "ROLLBACK", "PRAGMA busy_timeout = 2000", "PRAGMA busy_timeout")) {
                assertThatCode(() -> ledger.execute(sql)).as("Ledger.execute(\"%s\")", sql).doesNotThrowAnyException();
            }
        }
    }

    private static List<String> rows(Path file) throws SQLException {
        try (Connection inspector = Database.connect(file, Database.NO_WAIT)) {
            return SqliteDestination.contentsOf(inspector);
        }
    }
}
