package fencingkoans.bench;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Does remembering requests slow the destination down? Apply latency with 1,000 and with 1,000,000 request
 * records already stored: the record lookup is a primary-key search, so the ratio should stay near 1.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class RecordCountBenchmark {

    @Param({BenchDatabase.DISK, BenchDatabase.MEMORY})
    public String location;

    @Param({"1000", "1000000"})
    public int storedRecords;

    private Path file;
    private FencedStore store;
    private long next;

    @Setup
    public void fill() throws SQLException {
        file = BenchDatabase.create(location, "DELETE");
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
        store = new FencedStore(Ledger.open(file, Database.NO_WAIT));
    }

    @TearDown
    public void close() {
        store.close();
        BenchDatabase.delete(file);
    }

    @Benchmark
    public ApplyResult applyAFreshRequest() {
        return store.apply(new ApplyRequest(FUND_A, 1, "fresh-" + next++, 1));
    }
}
