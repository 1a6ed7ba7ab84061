package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.NotWrittenYet;
import fencingkoans.outside.ExternalService;
import java.nio.file.Path;
import java.sql.Connection;

/**
 * Ways to get around the protection. Each one works, and that is the point: the guarantee covers only the
 * paths that go through {@link FencedStore#apply}, state that is never rolled back to an older copy, and
 * effects that live in the same database transaction. Lesson 5: you write every one of them.
 */
public final class Counterexamples {

    private Counterexamples() {
    }

    /** Sets the value with plain SQL ({@code UPDATE resources ...}), as any program holding the file could. */
    public static void writeAroundTheStore(Connection connection, String resource, long newValue) {
        throw new NotWrittenYet();
    }

    /** A careless recovery: puts an older generation back on the resource, with plain SQL. */
    public static void restoreGeneration(Connection connection, String resource, long oldGeneration) {
        throw new NotWrittenYet();
    }

    /** Another careless recovery: replaces the live database file with an older copy of it. */
    public static void restoreCopy(Path oldCopy, Path liveFile) {
        throw new NotWrittenYet();
    }

    /**
     * Applies the request and, from inside its transaction (at {@code Checkpoint.AFTER_VALUE_UPDATE}, through
     * {@code store.checkpoints()}), calls {@code service.call(...)} once; a request that updates nothing leaves no
     * call behind for the store's next one.
     */
    public static ApplyResult applyWithExternalCallInside(FencedStore store, ApplyRequest request,
            ExternalService service) {
        throw new NotWrittenYet();
    }
}
