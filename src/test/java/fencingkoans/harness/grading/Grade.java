package fencingkoans.harness.grading;

import java.util.List;
import java.util.Map;

/** The grade of one run: every koan of the course manifest with its outcome and points, by lesson. */
record Grade(List<LessonGrade> lessons, List<String> refusals, List<String> compileErrors) {

    record KoanGrade(String number, String name, int lesson, KoanOutcome outcome, int maxPoints) {

        boolean passed() {
            return outcome.status() == KoanStatus.PASSED;
        }

        int points() {
            return passed() ? maxPoints : 0;
        }
    }

    record LessonGrade(int lesson, String title, List<KoanGrade> koans) {

        Tally tally() {
            return Tally.of(koans);
        }
    }

    /** Counts over some koans. Skipped koans are neither passed nor failed, and earn nothing. */
    record Tally(int passed, int failed, int skipped, int total, int points, int maxPoints) {

        static Tally of(List<KoanGrade> koans) {
            int passed = (int) koans.stream().filter(KoanGrade::passed).count();
            int skipped = (int) koans.stream().filter(koan -> koan.outcome().status() == KoanStatus.SKIPPED).count();
            return new Tally(passed, koans.size() - passed - skipped, skipped, koans.size(),
                    koans.stream().mapToInt(KoanGrade::points).sum(),
                    koans.stream().mapToInt(KoanGrade::maxPoints).sum());
        }
    }

    /**
     * The method names of the koans that hold a group of koans to the rule on requests no koan wrote, drawn afresh
     * for every graded run: while one has not passed, the koans that run in the same class earn nothing, since a
     * table of answers to the koans' own requests could pass them.
     */
    static final String GUARD_SUFFIX = "OnRequestsNoKoanWrote";

    /** Grades every koan the course declares, by class and method; a koan without an outcome is graded as not run. */
    static Grade of(List<TamperManifest.PlannedLesson> course, Map<String, KoanOutcome> outcomes, Points points,
            List<String> refusals, List<String> compileErrors) {
        KoanOutcome unrun = !refusals.isEmpty()
                ? new KoanOutcome(KoanStatus.NOT_RUN, "the submission was refused: " + String.join("; ", refusals))
                : !compileErrors.isEmpty()
                ? new KoanOutcome(KoanStatus.NOT_RUN, "the submission does not compile: " + compileErrors.get(0))
                : KoanOutcome.NOT_RUN;
        return new Grade(course.stream().map(lesson -> new LessonGrade(lesson.number(), lesson.title(),
                lesson.koans().stream().map(koan -> new KoanGrade(koan.number(), koan.name(), lesson.number(),
                        guarded(koan, lesson, outcomes, unrun), points.perKoan(lesson.number()))).toList()))
                .toList(), List.copyOf(refusals), List.copyOf(compileErrors));
    }

    /** The koan's outcome, withheld when it passed but the guard of its class did not. */
    private static KoanOutcome guarded(TamperManifest.PlannedKoan koan, TamperManifest.PlannedLesson lesson,
            Map<String, KoanOutcome> outcomes, KoanOutcome unrun) {
        KoanOutcome outcome = outcomes.getOrDefault(koan.key(), unrun);
        String testClass = koan.key().substring(0, koan.key().indexOf('#'));
        return lesson.koans().stream().filter(guard -> guard.key().startsWith(testClass + "#")
                        && guard.key().endsWith(GUARD_SUFFIX) && !guard.equals(koan))
                .filter(guard -> outcomes.getOrDefault(guard.key(), unrun).status() != KoanStatus.PASSED)
                .findFirst().filter(guard -> outcome.status() == KoanStatus.PASSED)
                .map(guard -> new KoanOutcome(KoanStatus.WITHHELD, "it passed, but koan " + guard.number() + " ("
                        + guard.name() + ") did not: the same rule on requests drawn for this run, which no table of "
                        + "answers can know"))
                .orElse(outcome);
    }

    List<KoanGrade> koans() {
        return lessons.stream().flatMap(lesson -> lesson.koans().stream()).toList();
    }

    Tally tally() {
        return Tally.of(koans());
    }
}
