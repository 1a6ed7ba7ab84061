package fencingkoans.coursecheck;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** The outcome of every koan in one run, in course order. */
final class KoanRun {

    private final Map<String, KoanOutcome> byKoan = new LinkedHashMap<>();

    void record(KoanOutcome outcome) {
        byKoan.put(outcome.koan(), outcome);
    }

    Collection<KoanOutcome> outcomes() {
        return byKoan.values();
    }

    List<KoanOutcome> passing() {
        return select(KoanOutcome::passed);
    }

    List<KoanOutcome> failing() {
        return select(outcome -> outcome.status() == KoanOutcome.Status.FAILED);
    }

    List<KoanOutcome> notPassing() {
        return select(outcome -> !outcome.passed());
    }

    private List<KoanOutcome> select(Predicate<KoanOutcome> which) {
        return byKoan.values().stream().filter(which).toList();
    }

    /** One line per koan: number, sentence, status and the first line of what went wrong. */
    static List<String> describeEach(List<KoanOutcome> outcomes) {
        return outcomes.stream().map(KoanOutcome::describe).toList();
    }
}
