package fencingkoans.bench;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyResult;
import fencingkoans.sqlite.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Does remembering requests slow the destination down? Apply latency with 1,000 and with 1,000,000 request
 * records already stored: the record lookup is a primary-key search, so the ratio should stay near 1.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class RecordCountBenchmark extends OneStoreState {

    @Param({"1000", "1000000"})
    public int storedRecords;

    @Setup
    public void fill() throws SQLException {
        createFile("DELETE");
        try (Connection connection = Database.connect(file, Database.NO_WAIT);
                Statement transaction = connection.createStatement();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO request_records"
                        + " (resource, request_id, delta, generation, result_value) VALUES (?, ?, 0, 1, 0)")) {
            transaction.execute("BEGIN IMMEDIATE");
            for (int i = 0; i < storedRecords; i++) {
                insert.setString(1, FUND_A);
                insert.setString(2, "stored-" + i);
                insert.addBatch();
            }
            insert.executeBatch();
            transaction.execute("COMMIT");
        }
        openStore();
    }

    @TearDown
    public void close() {
        closeAndDelete();
    }

    @Benchmark
    public ApplyResult applyAFreshRequest() {
        return applyFresh("fresh-");
    }
}
