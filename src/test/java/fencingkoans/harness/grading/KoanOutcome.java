package fencingkoans.harness.grading;

/** A koan's status and, unless it passed, the first line of what went wrong. */
record KoanOutcome(KoanStatus status, String message) {

    static final KoanOutcome NOT_RUN = new KoanOutcome(KoanStatus.NOT_RUN,
            "the graded run never reported this koan");
}
