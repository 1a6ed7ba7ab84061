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
    public InstallResult install(String resource, long generation) {
        throw new NotWrittenYet();
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }
}
