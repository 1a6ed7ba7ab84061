package fencingkoans.harness.grading;

import fencingkoans.harness.Course;
import java.util.List;
import java.util.Map;

/** The grade of one run: every koan of the course manifest with its outcome and points, by lesson. */
record Grade(List<LessonGrade> lessons) {

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

    /** Grades every koan the course declares; a koan absent from the reports is graded as not run. */
    static Grade of(List<Course.LessonEntry> course, Map<String, KoanOutcome> outcomes, Points points) {
        return new Grade(course.stream().map(lesson -> {
            int number = lesson.lesson().value();
            return new LessonGrade(number, lesson.lesson().title(), lesson.koans().stream()
                    .map(koan -> new KoanGrade(koan.card().number(), koan.name(), number,
                            outcomeOf(koan, outcomes),
                            points.perKoan(number)))
                    .toList());
        }).toList());
    }

    private static KoanOutcome outcomeOf(Course.KoanEntry koan, Map<String, KoanOutcome> outcomes) {
        KoanOutcome byNumber = outcomes.get(koan.card().number());
        return byNumber != null ? byNumber : outcomes.getOrDefault(
                SurefireReports.key(koan.testClass().getName(), koan.methodName()), KoanOutcome.NOT_RUN);
    }

    List<KoanGrade> koans() {
        return lessons.stream().flatMap(lesson -> lesson.koans().stream()).toList();
    }

    Tally tally() {
        return Tally.of(koans());
    }
}
