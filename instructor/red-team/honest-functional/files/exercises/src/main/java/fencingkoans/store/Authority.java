package fencingkoans.store;

import fencingkoans.contract.InstallResult;
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

    public InstallResult install(String resource, long generation) {
        return ImmediateTransaction.run(ledger,
                () -> ledger.installedGeneration(resource).stream()
                        .mapToObj(installed -> generation > installed ? raise(resource, generation)
                                : new InstallResult.NotHigher(resource, installed, generation))
                        .findFirst()
                        .orElseGet(() -> new InstallResult.UnknownResource(resource)),
                () -> new InstallResult.Contended(resource));
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }

    private InstallResult raise(String resource, long generation) {
        ledger.setGeneration(resource, generation);
        return new InstallResult.Installed(resource, generation);
    }
}
