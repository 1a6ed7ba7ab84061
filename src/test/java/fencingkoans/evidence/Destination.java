package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.koans.support.CourseDatabase;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.sql.Connection;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The real destination a random sequence runs on: one course database file, a worker's store and the
 * authority, each on its own connection. The apply path is a parameter so that the checker can be shown a
 * store that breaks the contract.
 */
final class Destination implements AutoCloseable {

    /** How a request reaches the store: the reference calls {@link FencedStore#apply} and nothing else. */
    static final BiFunction<FencedStore, ApplyRequest, ApplyResult> THROUGH_APPLY = FencedStore::apply;

    private final CourseDatabase course;
    private final BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath;
    /** Kept open for the whole run: opening a connection per comparison would cost more than the steps. */
    private final Connection inspector;
    private FencedStore store;
    private Authority authority;

    Destination(CourseDatabase course, BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath) {
        this.course = course;
        this.applyPath = applyPath;
        this.inspector = course.connection();
        reopen();
    }

    ApplyResult apply(ApplyRequest request) {
        return applyPath.apply(store, request);
    }

    FencedStore store() {
        return store;
    }

    Authority authority() {
        return authority;
    }

    Checkpoints checkpoints() {
        return store.checkpoints();
    }

    /** Every row of both tables, as {@link CourseDatabase#contents()} lists them. */
    List<String> contents() {
        return CourseDatabase.contentsOf(inspector);
    }

    void reopen() {
        if (store != null) {
            store.close();
            authority.close();
        }
        store = course.store();
        authority = course.authority();
    }

    @Override
    public void close() throws Exception {
        course.close();
    }
}
