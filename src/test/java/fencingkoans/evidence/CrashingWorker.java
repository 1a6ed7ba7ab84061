package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;

/**
 * The child process of {@link ProcessCrashTest}: applies one request on fund-A through the reference store
 * and kills its own process at the chosen moment with {@code Runtime.halt}, which runs no shutdown hook,
 * no finally block and no close: the database sees the process vanish.
 */
public final class CrashingWorker {

    /** The exit status of a process that died where it was told to. */
    static final int HALTED = 86;
    /** The exit status of a process that finished its apply without reaching the chosen moment. */
    static final int NEVER_HALTED = 3;

    /** Where the process dies: inside the transaction at one of the store's checkpoints, or just after commit. */
    enum CrashPoint {
        AFTER_VALUE_UPDATE(true), AFTER_RECORD_STORED(true), AFTER_COMMIT(false);

        final boolean beforeCommit;

        CrashPoint(boolean beforeCommit) {
            this.beforeCommit = beforeCommit;
        }
    }

    private CrashingWorker() {
    }

    /** Arguments: database file, crash point, request id, delta. */
    public static void main(String[] args) {
        CrashPoint point = CrashPoint.valueOf(args[1]);
        ApplyRequest request = new ApplyRequest(Database.FUND_A, 1, args[2], Long.parseLong(args[3]));
        FencedStore store = new FencedStore(Ledger.open(Path.of(args[0]), Database.NO_WAIT));
        if (point.beforeCommit) {
            store.checkpoints().on(Checkpoint.valueOf(point.name()), () -> Runtime.getRuntime().halt(HALTED));
        }
        ApplyResult result = store.apply(request);
        if (!point.beforeCommit) {
            Runtime.getRuntime().halt(HALTED);
        }
        System.err.println("the apply finished without reaching " + point + ": " + result);
        System.exit(NEVER_HALTED);
    }
}
