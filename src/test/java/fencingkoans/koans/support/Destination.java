package fencingkoans.koans.support;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import java.util.List;

/**
 * The destination as a koan that holds on both of them sees it: the SQLite file of lessons 1 to 5, or the
 * PostgreSQL database of lesson 6. Workers and the authority each get a connection of their own.
 */
public interface Destination {

    /** A worker's side of the destination: one apply is one call, on a connection of its own. */
    @FunctionalInterface
    interface Worker {
        ApplyResult apply(ApplyRequest request);
    }

    Worker worker();

    /** The trusted authority installs a generation, on a connection of its own. */
    InstallResult install(String resource, long generation);

    ResourceState state(String resource);

    /** Every row of both tables, one line each, in a fixed order: compare two of these to see any change. */
    List<String> contents();

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
}
