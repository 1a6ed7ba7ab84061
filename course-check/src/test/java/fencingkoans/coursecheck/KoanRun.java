package fencingkoans.coursecheck;

import fencingkoans.harness.KoanResults.Result;
import fencingkoans.harness.KoanResults.Status;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** The outcome of every koan in one run, in course order, keyed as {@link fencingkoans.harness.KoanResults} keys it. */
record KoanRun(Map<String, Result> byKoan) {

    Collection<Result> outcomes() {
        return byKoan.values();
    }

    List<Result> passing() {
        return select(result -> result.status() == Status.PASSED);
    }

    /** Koans that ran and did not pass: failed, threw or timed out, but not skipped. */
    List<Result> failing() {
        return select(result -> result.status() != Status.PASSED && result.status() != Status.SKIPPED);
    }

    List<Result> notPassing() {
        return select(result -> result.status() != Status.PASSED);
    }

    private List<Result> select(Predicate<Result> which) {
        return byKoan.values().stream().filter(which).toList();
    }

    static List<String> keys(Collection<Result> results) {
        return results.stream().map(Result::key).toList();
    }

    /** One line per koan: its key, status and the first line of what went wrong. */
    static List<String> describeEach(List<Result> results) {
        return results.stream().map(KoanRun::describe).toList();
    }

    static String describe(Result result) {
        return result.key() + " (" + result.status() + (result.detail().isEmpty() ? "" : ": " + result.detail()) + ")";
    }
}
