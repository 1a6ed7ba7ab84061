package fencingkoans.bench;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One fresh database file and one store on it, applying requests with ids never used before. Also the run
 * settings of the benchmarks built on it.
 */
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public abstract class OneStoreState {

    @Param({BenchDatabase.DISK, BenchDatabase.MEMORY})
    public String location;

    Path file;
    FencedStore store;
    private long next;

    void createFile(String journalMode) {
        file = BenchDatabase.create(location, journalMode);
    }

    void openStore() {
        store = new FencedStore(Ledger.open(file, Database.NO_WAIT));
    }

    ApplyResult applyFresh(String prefix) {
        return store.apply(new ApplyRequest(FUND_A, 1, prefix + next++, 1));
    }

    String freshId(String prefix) {
        return prefix + next++;
    }

    void closeAndDelete() {
        store.close();
        BenchDatabase.delete(file);
    }
}
