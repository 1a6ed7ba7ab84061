package fencingkoans.harness.grading;

import fencingkoans.harness.Course;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The grade profile's last step: reads the test reports, grades every koan of the course with the points of
 * the grading file, and writes target/koans/grade.json, grade.md, grade.csv and classroom-result.json. It
 * fails only when it cannot grade at all (no reports, a broken grading file): failing koans are the grade.
 */
public final class GradeReport {

    /** Deleted first, so that a run that cannot grade leaves no earlier grade behind. */
    private static final List<String> OUTPUTS = List.of("grade.json", "grade.md", "grade.csv",
            "classroom-result.json");

    private GradeReport() {
    }

    /** Arguments: the project root and its build directory. */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        Path build = Path.of(args[1]);
        Path out = build.resolve("koans");
        for (String earlier : OUTPUTS) {
            Files.deleteIfExists(out.resolve(earlier));
        }
        Grade grade;
        try {
            var lessons = Course.lessons();
            grade = Grade.of(lessons, SurefireReports.read(build.resolve("surefire-reports")),
                    Points.read(root, lessons));
        } catch (IllegalStateException e) {
            throw new IllegalStateException("GRADING INFRASTRUCTURE ERROR, no grade written: " + e.getMessage(), e);
        }
        Files.createDirectories(out);
        String markdown = GradeFiles.markdown(grade);
        List<String> contents = List.of(GradeFiles.json(grade), markdown, GradeFiles.csv(grade),
                GradeFiles.classroom(grade));
        for (int i = 0; i < OUTPUTS.size(); i++) {
            Files.writeString(out.resolve(OUTPUTS.get(i)), contents.get(i), StandardCharsets.UTF_8);
        }
        String summary = System.getenv("GITHUB_STEP_SUMMARY");
        if (summary != null && !summary.isBlank()) {
            Files.writeString(Path.of(summary), markdown + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        Grade.Tally total = grade.tally();
        System.out.println();
        for (Grade.LessonGrade lesson : grade.lessons()) {
            Grade.Tally tally = lesson.tally();
            System.out.printf("  Lesson %d  %-46s %2d of %2d koans  %3d / %3d points%n", lesson.lesson(),
                    lesson.title(), tally.passed(), tally.total(), tally.points(), tally.maxPoints());
        }
        System.out.printf("GRADE: %d of %d points (%d of %d koans passed, %d skipped). Written to %s%n",
                total.points(), total.maxPoints(), total.passed(), total.total(), total.skipped(),
                out.resolve("grade.json"));
    }
}
