package fencingkoans.contract;

/**
 * The destination's answer to one {@link ApplyRequest}. Exactly one of four outcomes, so that callers can tell
 * a new effect from a replayed one, a final refusal from a momentary lock conflict.
 */
public sealed interface ApplyResult {

    /** One line for a person: what happened and why. */
    String describe();

    /** The delta was applied now; {@code value} is the resource's value right after it. */
    record Applied(long value) implements ApplyResult {

        @Override
        public String describe() {
            return "applied, value now " + value;
        }
    }

    /**
     * The request id was seen before with the same delta: nothing was applied now, and {@code value} is the
     * answer stored with the original request, not the present value.
     */
    record Replayed(long value) implements ApplyResult {

        @Override
        public String describe() {
            return "replayed, the stored answer " + value;
        }
    }

    /**
     * The destination refused the request. Generations are 0 when they do not apply to the reason
     * (an unknown resource has no installed generation).
     */
    record Rejected(RejectionReason reason, long presentedGeneration, long installedGeneration, String explanation)
            implements ApplyResult {

        @Override
        public String describe() {
            return "rejected " + reason + ": " + explanation;
        }

        public static Rejected stale(long presented, long installed) {
            return new Rejected(RejectionReason.STALE_GENERATION, presented, installed,
                    "generation " + presented + " was presented but generation " + installed + " is installed");
        }

        public static Rejected unissued(long presented, long installed) {
            return new Rejected(RejectionReason.UNISSUED_GENERATION, presented, installed,
                    "generation " + presented + " was presented but only generation " + installed
                            + " was ever installed");
        }

        public static Rejected unknownResource(ApplyRequest request) {
            return new Rejected(RejectionReason.UNKNOWN_RESOURCE, request.generation(), 0,
                    "no resource named '" + request.resource() + "'");
        }

        public static Rejected conflicting(ApplyRequest request, long storedDelta) {
            return new Rejected(RejectionReason.CONFLICTING_REQUEST, request.generation(), 0,
                    "request id '" + request.requestId() + "' was used with delta " + storedDelta
                            + ", not " + request.delta());
        }
    }

    /**
     * Another connection held the write lock, so nothing was decided. Not a rejection: the same request may
     * succeed when retried.
     */
    record Contended(String resource) implements ApplyResult {

        @Override
        public String describe() {
            return "contended: the lock on " + resource + " is held elsewhere; a retry may succeed";
        }
    }
}
