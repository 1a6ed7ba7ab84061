package fencingkoans.bench;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Total apply throughput with 1, 2 and 4 writer threads on one file, each on its own connection with a busy
 * timeout, retrying on {@code Contended}. SQLite admits one writer at a time, so more threads add waiting,
 * not throughput: the figures show how much.
 */
@BenchmarkMode(Mode.Throughput)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WriterThreadsBenchmark {

    static final Duration BUSY_TIMEOUT = Duration.ofSeconds(5);

    /** The one file every writer thread shares. */
    @State(Scope.Benchmark)
    public static class SharedFile {
        @Param({BenchDatabase.DISK, BenchDatabase.MEMORY})
        public String location;

        Path file;
        final AtomicInteger writers = new AtomicInteger();

        @Setup
        public void create() {
            file = BenchDatabase.create(location, "DELETE");
        }

        @TearDown
        public void delete() {
            BenchDatabase.delete(file);
        }
    }

    /** One writer: its own connection, its own request ids, alternating between the two resources. */
    @State(Scope.Thread)
    public static class Writer {
        FencedStore store;
        String prefix;
        long next;

        @Setup
        public void open(SharedFile shared) {
            store = new FencedStore(Ledger.open(shared.file, BUSY_TIMEOUT));
            prefix = "w" + shared.writers.incrementAndGet() + "-";
        }

        @TearDown
        public void close() {
            store.close();
        }

        ApplyResult applyNext() {
            long n = next++;
            ApplyRequest request = new ApplyRequest(n % 2 == 0 ? FUND_A : FUND_B, 1, prefix + n, 1);
            ApplyResult result = store.apply(request);
            while (result instanceof Contended) {
                result = store.apply(request);
            }
            return result;
        }
    }

    @Benchmark
    @Threads(1)
    public ApplyResult oneWriter(Writer writer) {
        return writer.applyNext();
    }

    @Benchmark
    @Threads(2)
    public ApplyResult twoWriters(Writer writer) {
        return writer.applyNext();
    }

    @Benchmark
    @Threads(4)
    public ApplyResult fourWriters(Writer writer) {
        return writer.applyNext();
    }
}
