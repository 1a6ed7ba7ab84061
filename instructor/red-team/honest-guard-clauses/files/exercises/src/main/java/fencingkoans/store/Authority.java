package fencingkoans.store;

import fencingkoans.contract.InstallResult;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;
import java.util.OptionalLong;

/**
 * The trusted issuer of generations. Its trust is an assumption of the course, not something the code
 * proves: whoever holds this object can install. It only ever moves a resource to a strictly higher generation.
 */
public final class Authority implements AutoCloseable {

    private final Ledger ledger;

    public Authority(Ledger ledger) {
        this.ledger = ledger;
    }

    public InstallResult install(String resource, long generation) {
        return ImmediateTransaction.run(ledger, () -> moveUp(resource, generation),
                () -> new InstallResult.Contended(resource));
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }

    private InstallResult moveUp(String resource, long generation) {
        OptionalLong installed = ledger.installedGeneration(resource);
        if (installed.isEmpty()) {
            return new InstallResult.UnknownResource(resource);
        }
        long current = installed.getAsLong();
        if (generation > current) {
            ledger.setGeneration(resource, generation);
            return new InstallResult.Installed(resource, generation);
        }
        return new InstallResult.NotHigher(resource, current, generation);
    }
}
