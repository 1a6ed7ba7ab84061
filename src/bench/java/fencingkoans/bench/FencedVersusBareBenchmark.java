package fencingkoans.bench;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyResult;
import fencingkoans.sqlite.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the fence costs: a fenced apply (record lookup, generation check, update, record, in one
 * {@code BEGIN IMMEDIATE}) against a bare transaction that runs only the same UPDATE and INSERT, on the same
 * SQLite settings, in one run. The ratio of the two throughputs is the figure.
 */
@BenchmarkMode(Mode.Throughput)
@State(Scope.Thread)
public class FencedVersusBareBenchmark extends OneStoreState {

    private static final String UPDATE = "UPDATE resources SET value = value + ? WHERE name = ?";
    private static final String INSERT = "INSERT INTO request_records (resource, request_id, delta, generation,"
            + " result_value) VALUES (?, ?, ?, 1, (SELECT value FROM resources WHERE name = ?))";

    @Param({"DELETE", "WAL"})
    public String journalMode;

    private Connection bare;

    @Setup
    public void open() {
        createFile(journalMode);
        openStore();
        bare = Database.connect(file, Database.NO_WAIT);
    }

    @TearDown
    public void close() throws SQLException {
        bare.close();
        closeAndDelete();
    }

    @Benchmark
    public ApplyResult fencedApply() {
        return applyFresh("fenced-");
    }

    /** The same two writes with no lookup and no check, prepared per call as the ledger does. */
    @Benchmark
    public int bareTransaction() throws SQLException {
        String requestId = freshId("bare-");
        try (Statement transaction = bare.createStatement()) {
            transaction.execute("BEGIN IMMEDIATE");
            int rows;
            try (PreparedStatement update = bare.prepareStatement(UPDATE);
                    PreparedStatement insert = bare.prepareStatement(INSERT)) {
                update.setLong(1, 1);
                update.setString(2, FUND_A);
                rows = update.executeUpdate();
                insert.setString(1, FUND_A);
                insert.setString(2, requestId);
                insert.setLong(3, 1);
                insert.setString(4, FUND_A);
                rows += insert.executeUpdate();
            }
            transaction.execute("COMMIT");
            return rows;
        }
    }
}
