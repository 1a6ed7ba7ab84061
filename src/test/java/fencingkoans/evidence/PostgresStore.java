package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.destination.PgDestination;
import fencingkoans.pg.PgDatabase;
import fencingkoans.sqlite.Checkpoint;
import java.util.List;
import java.util.Optional;

/**
 * The PostgreSQL destination a random sequence runs on: the course database put back to its start state, a
 * worker applying through {@code fencing.apply_request}, and the authority's install. The function runs inside
 * the server, so there is no checkpoint to stop it at: a sequence here has no faults.
 */
final class PostgresStore implements StoreUnderTest {

    private final PgDatabase database;
    private PgDestination course;
    private Worker worker;

    PostgresStore(PgDatabase database) {
        this.database = database;
        database.reset();
        reopen();
    }

    @Override
    public ApplyResult apply(ApplyRequest request) {
        return worker.apply(request);
    }

    @Override
    public InstallResult install(String resource, long generation) {
        return course.install(resource, generation);
    }

    @Override
    public Optional<ResourceState> read(String resource) {
        return course.read(resource);
    }

    @Override
    public List<String> contents() {
        return course.contents();
    }

    @Override
    public void reopen() {
        if (course != null) {
            close();
        }
        course = new PgDestination(database);
        worker = course.worker();
    }

    @Override
    public boolean injectsFaults() {
        return false;
    }

    @Override
    public ApplyResult applyFailingAt(ApplyRequest request, Checkpoint where) {
        throw new UnsupportedOperationException("the PostgreSQL function has no checkpoint to fail at");
    }

    @Override
    public void close() {
        course.close();
    }
}
