package fencingkoans.coursecheck;

/** What happened to one koan in one run. */
record KoanOutcome(String koan, String displayName, Status status, String detail) {

    enum Status { PASSED, FAILED, SKIPPED }

    boolean passed() {
        return status == Status.PASSED;
    }

    /** "3.2 no other connection ... (FAILED: expected ...)", first line of the detail only. */
    String describe() {
        String firstLine = detail == null ? "" : detail.lines().findFirst().orElse("");
        return displayName + " (" + status + (firstLine.isEmpty() ? "" : ": " + firstLine) + ")";
    }
}
