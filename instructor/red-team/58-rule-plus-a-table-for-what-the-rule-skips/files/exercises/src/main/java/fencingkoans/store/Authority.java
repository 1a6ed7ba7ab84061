package fencingkoans.store;

import fencingkoans.contract.InstallResult;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;

/** No rule: every answer comes from FencedStore's table, keyed on the koan's history. */
public final class Authority implements AutoCloseable {

    private final Ledger ledger;
    private final int index;

    public Authority(Ledger ledger) {
        this.ledger = ledger;
        FencedStore.Koan.boundary(ledger);
        index = ++FencedStore.Koan.authorities;
        FencedStore.Koan.event("T" + index);
    }

    public InstallResult install(String resource, long generation) {
        String key = FencedStore.Koan.event("i" + index + ":" + resource + "|" + generation + "@"
                + FencedStore.Koan.probe(ledger));
        String answer = FencedStore.TABLE.getOrDefault(key, FencedStore.TABLE.get(FencedStore.Koan.plainKey));
        if (answer == null) {
            java.util.OptionalLong installed = ledger.installedGeneration(resource);
            if (installed.isEmpty()) {
                return new InstallResult.UnknownResource(resource);
            }
            if (generation <= installed.getAsLong()) {
                return new InstallResult.NotHigher(resource, installed.getAsLong(), generation);
            }
            ledger.setGeneration(resource, generation);
            return new InstallResult.Installed(resource, generation);
        }
        char kind = answer.charAt(0);
        String rest = answer.substring(1);
        if (kind == 'E') {
            throw new IllegalArgumentException(rest);
        }
        if (kind == 'C') {
            return new InstallResult.Contended(resource);
        }
        ledger.installedGeneration(resource);
        if (kind == 'K') {
            return new InstallResult.UnknownResource(resource);
        }
        if (kind == 'N') {
            return new InstallResult.NotHigher(resource, Long.parseLong(rest), generation);
        }
        ledger.setGeneration(resource, generation);
        if (kind == 'F') {
            throw new IllegalStateException("expected a failure here");
        }
        return new InstallResult.Installed(resource, generation);
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }
}
