package fencingkoans.harness.grading;

/** How one koan ended in a graded run. Only {@link #PASSED} earns points. */
enum KoanStatus {
    PASSED("passed"),
    FAILED("failed"),
    ERROR("error"),
    TIMED_OUT("timed-out"),
    SKIPPED("skipped"),
    /** It passed, but the koan that holds its class to the same rule on requests drawn for the run did not. */
    WITHHELD("withheld"),
    /** No report mentions the koan: its test run was cut short, so it cannot have passed. */
    NOT_RUN("not-run");

    private final String label;

    KoanStatus(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
