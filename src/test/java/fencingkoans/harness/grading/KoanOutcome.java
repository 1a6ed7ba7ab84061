package fencingkoans.harness.grading;

/** A koan's status and, unless it passed, the first line of what went wrong. */
record KoanOutcome(KoanStatus status, String message) {

    static final KoanOutcome NOT_RUN = new KoanOutcome(KoanStatus.NOT_RUN,
            "no test report mentions this koan: the run stopped before it");
}
