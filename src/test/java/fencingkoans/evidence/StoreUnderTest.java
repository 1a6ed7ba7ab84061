package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Checkpoint;
import java.util.List;
import java.util.Optional;

/** A real destination, fresh for one random sequence: what {@link Step} does to it and what it holds after. */
interface StoreUnderTest extends AutoCloseable {

    ApplyResult apply(ApplyRequest request);

    InstallResult install(String resource, long generation);

    Optional<ResourceState> read(String resource);

    /** Every row of both tables, one line each, in the order {@link ContractModel#contents()} gives them. */
    List<String> contents();

    /** Closes every connection and opens new ones. */
    void reopen();

    /** Whether {@link #applyFailingAt} can stop an apply at a checkpoint: only the SQLite store has the seams. */
    boolean injectsFaults();

    /** An apply that fails at {@code where}, when it gets that far. */
    ApplyResult applyFailingAt(ApplyRequest request, Checkpoint where);
}
