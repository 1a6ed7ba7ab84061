package fencingkoans.harness.grading;

import fencingkoans.harness.grading.Grade.KoanGrade;
import fencingkoans.harness.grading.Grade.LessonGrade;
import fencingkoans.harness.grading.Grade.Tally;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Renders a grade as the files the grade profile writes: JSON, Markdown, a CSV row, and GitHub Classroom's form. */
final class GradeFiles {

    private GradeFiles() {
    }

    static String json(Grade grade) {
        List<String> koans = new ArrayList<>();
        for (KoanGrade koan : grade.koans()) {
            String message = koan.passed() ? "" : ", \"message\": " + quote(koan.outcome().message());
            koans.add("    {\"number\": " + quote(koan.number()) + ", \"name\": " + quote(koan.name())
                    + ", \"lesson\": " + koan.lesson() + ", \"status\": " + quote(koan.outcome().status().label())
                    + ", \"points\": " + koan.points() + ", \"maxPoints\": " + koan.maxPoints() + message + "}");
        }
        List<String> lessons = new ArrayList<>();
        for (LessonGrade lesson : grade.lessons()) {
            lessons.add("    {\"lesson\": " + lesson.lesson() + ", \"title\": " + quote(lesson.title()) + ", "
                    + tallyFields(lesson.tally()) + "}");
        }
        return "{\n  \"course\": \"fencing-koans\",\n"
                + "  \"refused\": " + list(grade.refusals()) + ",\n"
                + "  \"compileErrors\": " + list(grade.compileErrors()) + ",\n"
                + "  \"koans\": [\n" + String.join(",\n", koans) + "\n  ],\n"
                + "  \"lessons\": [\n" + String.join(",\n", lessons) + "\n  ],\n"
                + "  \"total\": {" + tallyFields(grade.tally()) + "}\n}\n";
    }

    private static String list(List<String> texts) {
        return texts.stream().map(GradeFiles::quote).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String tallyFields(Tally tally) {
        return "\"passed\": " + tally.passed() + ", \"failed\": " + tally.failed() + ", \"skipped\": "
                + tally.skipped() + ", \"total\": " + tally.total() + ", \"points\": " + tally.points()
                + ", \"maxPoints\": " + tally.maxPoints();
    }

    static String markdown(Grade grade) {
        Tally total = grade.tally();
        StringBuilder page = new StringBuilder();
        page.append("## fencing-koans: ").append(total.points()).append(" of ").append(total.maxPoints())
                .append(" points\n\n").append(total.passed()).append(" of ").append(total.total())
                .append(" koans passed").append(total.skipped() > 0 ? ", " + total.skipped() + " skipped" : "")
                .append(".\n\n");
        grade.refusals().forEach(refusal -> page.append("- Refused: ").append(cell(refusal)).append('\n'));
        grade.compileErrors().forEach(error -> page.append("- Does not compile: ").append(cell(error)).append('\n'));
        page.append("\n| Lesson | Passed | Failed | Skipped | Points |\n|---|---|---|---|---|\n");
        for (LessonGrade lesson : grade.lessons()) {
            page.append(row(lesson.lesson() + ". " + lesson.title(), lesson.tally()));
        }
        page.append(row("**Total**", total));
        page.append("\n<details><summary>Every koan</summary>\n\n| Koan | Status | Points | What happened |\n"
                + "|---|---|---|---|\n");
        for (KoanGrade koan : grade.koans()) {
            page.append("| ").append(koan.number()).append(" ").append(koan.name()).append(" | ")
                    .append(koan.outcome().status().label()).append(" | ").append(koan.points()).append(" / ")
                    .append(koan.maxPoints()).append(" | ").append(cell(koan.outcome().message())).append(" |\n");
        }
        return page.append("\n</details>\n").toString();
    }

    private static String row(String label, Tally tally) {
        return "| " + label + " | " + tally.passed() + " of " + tally.total() + " | " + tally.failed() + " | "
                + tally.skipped() + " | " + tally.points() + " / " + tally.maxPoints() + " |\n";
    }

    /** A header and one row: points per lesson, total, maximum. The batch grader joins these into one table. */
    static String csv(Grade grade) {
        String header = grade.lessons().stream().map(lesson -> "lesson " + lesson.lesson())
                .collect(Collectors.joining(","));
        String points = grade.lessons().stream().map(lesson -> String.valueOf(lesson.tally().points()))
                .collect(Collectors.joining(","));
        return header + ",total,max\n" + points + "," + grade.tally().points() + "," + grade.tally().maxPoints()
                + "\n";
    }

    /**
     * The result a GitHub Classroom grader step hands to classroom-resources/autograding-grading-reporter
     * (base64 of this JSON in {@code <RUNNER>_RESULTS}): it sums {@code tests[].score} out of {@code max_score}.
     */
    static String classroom(Grade grade) {
        List<String> tests = new ArrayList<>();
        for (KoanGrade koan : grade.koans()) {
            tests.add("    {\"name\": " + quote(koan.number() + " " + koan.name()) + ", \"status\": "
                    + quote(koan.passed() ? "pass" : "fail") + ", \"score\": " + koan.points() + ", \"message\": "
                    + quote(koan.passed() ? "" : koan.outcome().status().label() + ": " + koan.outcome().message())
                    + ", \"test_code\": \"\", \"filename\": \"\", \"line_no\": 0, \"execution_time\": \"\"}");
        }
        Tally total = grade.tally();
        return "{\n  \"version\": 1,\n  \"status\": " + quote(total.passed() == total.total() ? "pass" : "fail")
                + ",\n  \"max_score\": " + total.maxPoints() + ",\n  \"tests\": [\n" + String.join(",\n", tests)
                + "\n  ]\n}\n";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
