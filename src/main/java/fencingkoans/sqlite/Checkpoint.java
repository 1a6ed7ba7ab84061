package fencingkoans.sqlite;

/**
 * Named moments inside {@link Ledger}'s operations where a koan may step in: pause a worker, let another
 * connection act, or inject a fault. They are how interleavings are scripted without sleeping.
 */
public enum Checkpoint {
    /** Right after the installed generation was read: the gap between check and effect. */
    AFTER_GENERATION_READ,
    /** Right after the request record was looked up, found or not: the gap between "no record yet" and the effect. */
    AFTER_RECORD_LOOKUP,
    /** Right after the resource's value was updated, before the request record is stored. */
    AFTER_VALUE_UPDATE,
    /** Right after the request record was stored, before anything is committed. */
    AFTER_RECORD_STORED
}
