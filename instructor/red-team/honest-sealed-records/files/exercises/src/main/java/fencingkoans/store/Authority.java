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

    /** A generation offered for a resource; it is accepted only above what is installed there. */
    private record Offer(String resource, long generation) {

        InstallResult judgedAgainst(OptionalLong installed) {
            if (installed.isEmpty()) {
                return new InstallResult.UnknownResource(resource);
            }
            return generation > installed.getAsLong() ? new InstallResult.Installed(resource, generation)
                    : new InstallResult.NotHigher(resource, installed.getAsLong(), generation);
        }
    }

    private final Ledger ledger;

    public Authority(Ledger ledger) {
        this.ledger = ledger;
    }

    public InstallResult install(String resource, long generation) {
        Offer offer = new Offer(resource, generation);
        return ImmediateTransaction.run(ledger, () -> settle(offer), () -> new InstallResult.Contended(resource));
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }

    private InstallResult settle(Offer offer) {
        InstallResult verdict = offer.judgedAgainst(ledger.installedGeneration(offer.resource()));
        if (verdict instanceof InstallResult.Installed installed) {
            ledger.setGeneration(installed.resource(), installed.generation());
        }
        return verdict;
    }
}
