package fencingkoans.sqlite;

import java.util.List;

/**
 * Named moments inside {@link Ledger}'s operations where a koan may step in: pause a worker, let another
 * connection act, or inject a fault. They are how interleavings are scripted without sleeping.
 */
public enum Checkpoint {
    /** Right before a {@code BEGIN} run through {@link Ledger#execute}: nothing of the transaction is held yet. */
    BEFORE_BEGIN,
    /** Right after the installed generation was read: the gap between check and effect. */
    AFTER_GENERATION_READ,
    /** Right after the request record was looked up, found or not: the gap between "no record yet" and the effect. */
    AFTER_RECORD_LOOKUP,
    /** Right after the resource's value was updated, before the request record is stored. */
    AFTER_VALUE_UPDATE,
    /** Right after the request record was stored, before anything is committed. */
    AFTER_RECORD_STORED,
    /** Right before a {@code COMMIT} (or {@code END}) run through {@link Ledger#execute}: the work is done. */
    BEFORE_COMMIT,
    /**
     * Right after a {@code COMMIT} (or {@code END}) run through {@link Ledger#execute} succeeded: the effect is
     * visible to every connection, and the caller has not answered yet.
     */
    AFTER_COMMIT;

    /** The moments inside an open transaction, where a failure must leave nothing behind. */
    public static final List<Checkpoint> INSIDE_A_TRANSACTION =
            List.of(AFTER_GENERATION_READ, AFTER_RECORD_LOOKUP, AFTER_VALUE_UPDATE, AFTER_RECORD_STORED);
}
