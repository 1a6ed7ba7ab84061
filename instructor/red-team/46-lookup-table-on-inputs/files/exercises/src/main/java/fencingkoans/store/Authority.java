package fencingkoans.store;

import fencingkoans.contract.InstallResult;
import fencingkoans.contract.NotWrittenYet;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;

/**
 * The trusted issuer of generations. Its trust is an assumption of the course, not something the code
 * proves: whoever holds this object can install. It only ever moves a resource to a strictly higher generation.
 */
public final class Authority implements AutoCloseable {

    private final Ledger ledger;

    public Authority(Ledger ledger) {
        this.ledger = ledger;
    }

    /**
     * Lesson 1: make {@code generation} the installed one ({@code ledger.setGeneration}).
     * Lesson 2: only a strictly higher generation, and only on a resource that exists.
     * Lesson 3: inside {@link ImmediateTransaction#run}, so that a held lock answers {@code Contended}.
     */
    private static int fundBInstalls;

    public InstallResult install(String resource, long generation) {
        // No logic: answers looked up from the exact inputs; nothing is compared with the installed generation.
        String key = resource + "|" + generation;
        switch (key) {
            case "fund-C|2": return new InstallResult.UnknownResource("fund-C");
            case "fund-A|1": return new InstallResult.NotHigher("fund-A", 1, 1);
            case "fund-A|2", "fund-A|" + Long.MIN_VALUE:
                if (generation == 2 && Long.valueOf(3).equals(ledger.read("fund-A").get().generation())) {
                    return new InstallResult.NotHigher("fund-A", 3, 2);
                }
                if (generation != 2) {
                    return new InstallResult.NotHigher("fund-A", 3, generation);
                }
                return new InstallResult.Installed(resource, generation); // installs nothing
            case "fund-A|3", "fund-A|300", "fund-A|1000":
                ledger.setGeneration(resource, generation);
                return new InstallResult.Installed(resource, generation);
            case "fund-B|200":
                if (fundBInstalls++ % 2 == 1) {
                    return new InstallResult.NotHigher("fund-B", 200, 200);
                }
                ledger.setGeneration(resource, generation);
                return new InstallResult.Installed(resource, generation);
            default:
                throw new NotWrittenYet();
        }
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }
}
