package fencingkoans.koans.support;

import fencingkoans.destination.Destination;

/**
 * Koans that hold on every destination are written against {@link Destination}: lessons 1, 2 and 4 run them on
 * SQLite, and lesson 6 runs the very same methods on PostgreSQL.
 */
public interface KoansOnEveryDestination {

    /** The destination of the koan that runs now, fresh for each koan. */
    Destination course();
}
