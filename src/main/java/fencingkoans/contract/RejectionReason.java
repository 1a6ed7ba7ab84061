package fencingkoans.contract;

/** Why the destination refused an apply. A rejection is final: retrying the same request gets it again. */
public enum RejectionReason {
    /** The presented generation is lower than the installed one: authority moved on since the worker got it. */
    STALE_GENERATION,
    /** The presented generation is higher than the installed one: no authority ever issued it. */
    UNISSUED_GENERATION,
    /** The destination holds no such resource. */
    UNKNOWN_RESOURCE,
    /** The request id was already used on this resource with another delta. */
    CONFLICTING_REQUEST
}
