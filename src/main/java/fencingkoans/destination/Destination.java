package fencingkoans.destination;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import java.util.List;
import java.util.Optional;

/**
 * The destination as everything that holds on both of them sees it: the SQLite file of lessons 1 to 5
 * ({@link SqliteDestination}) or the PostgreSQL database of lesson 6 ({@link PgDestination}). The koans, the lab,
 * the workshop and the evidence all reach the two stores through here. Workers and the authority each get a
 * connection of their own; closing the destination closes every connection it opened, and keeps the data.
 */
public interface Destination extends AutoCloseable {

    /** A worker's side of the destination: one apply is one call, on a connection of its own. */
    @FunctionalInterface
    interface Worker {
        ApplyResult apply(ApplyRequest request);
    }

    Worker worker();

    /** The trusted authority installs a generation, on a connection other than the workers'. */
    InstallResult install(String resource, long generation);

    /** The resource as committed, or empty when there is no such resource. */
    Optional<ResourceState> read(String resource);

    /** Every row of both tables, one line each, in a fixed order: compare two of these to see any change. */
    List<String> contents();

    @Override
    void close();

    default ResourceState state(String resource) {
        return read(resource).orElseThrow(() -> new IllegalStateException("no resource " + resource));
    }

    default long value(String resource) {
        return state(resource).value();
    }

    default long generation(String resource) {
        return state(resource).generation();
    }

    /** The request records as "resource/requestId" lines. */
    default List<String> records() {
        return TableRows.records(contents());
    }

    /** The resource's generation, value and number of request records, in the one line every destination prints. */
    default String describe(String resource) {
        ResourceState state = state(resource);
        long records = records().stream().filter(record -> record.startsWith(resource + "/")).count();
        return "generation " + state.generation() + ", value " + state.value() + ", " + records + " request "
                + (records == 1 ? "record" : "records");
    }
}
