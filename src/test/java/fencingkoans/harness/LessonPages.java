package fencingkoans.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes each lesson page's koan list, with folded hints, from the koans' own annotations, so the page can
 * never disagree with the tests. With {@code --check} it only reports pages that are out of date.
 */
public final class LessonPages {

    static final String BEGIN = "<!-- koans:begin -->";
    static final String END = "<!-- koans:end -->";

    private LessonPages() {
    }

    public static void main(String[] args) throws IOException {
        boolean checkOnly = List.of(args).contains("--check");
        List<String> stale = new ArrayList<>();
        for (Course.LessonEntry lesson : Course.lessons()) {
            Path page = Path.of(lesson.lesson().page());
            String current = Files.readString(page, StandardCharsets.UTF_8);
            String updated = withKoanList(current, lesson, page);
            if (!updated.equals(current)) {
                stale.add(page.toString());
                if (!checkOnly) {
                    Files.writeString(page, updated, StandardCharsets.UTF_8);
                }
            }
        }
        if (checkOnly && !stale.isEmpty()) {
            System.err.println("Lesson pages out of date with the koans: " + stale);
            System.err.println("Regenerate them with: ./mvnw -q test-compile exec:java -Plesson-pages");
            System.exit(1);
        }
        System.out.println(checkOnly ? "Lesson pages match the koans." : "Lesson pages written: " + stale);
    }

    static String withKoanList(String page, Course.LessonEntry lesson, Path where) {
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(where + " has no " + BEGIN + " ... " + END + " block");
        }
        return page.substring(0, begin + BEGIN.length()) + "\n" + koanList(lesson) + page.substring(end);
    }

    /** "`A.run`, `B.apply` and `C.install`": one code span per method. */
    private static String codeSpans(List<String> edits) {
        List<String> spans = edits.stream().map(edit -> "`" + edit + "`").toList();
        return spans.size() == 1 ? spans.get(0)
                : String.join(", ", spans.subList(0, spans.size() - 1)) + " and " + spans.get(spans.size() - 1);
    }

    static String koanList(Course.LessonEntry lesson) {
        StringBuilder list = new StringBuilder();
        list.append("| Koan | What it proves | You edit |\n|---|---|---|\n");
        for (Course.KoanEntry entry : lesson.koans()) {
            list.append("| ").append(entry.card().number()).append(" ").append(entry.name())
                    .append(entry.card().twinNote().map(note -> " (" + note + ")").orElse("")).append(" | ")
                    .append(entry.card().teaches()).append(" | ").append(codeSpans(entry.card().edits())).append(" |\n");
        }
        list.append("\nHints, for when a koan has you stuck. Open one at a time.\n");
        for (Course.KoanEntry entry : lesson.koans()) {
            list.append("\n<details><summary>Hints for koan ").append(entry.card().number()).append("</summary>\n\n");
            List<String> hints = entry.card().hints();
            for (int i = 0; i < hints.size(); i++) {
                list.append(i + 1).append(". ").append(hints.get(i)).append("\n");
            }
            list.append("\n</details>\n");
        }
        return list.toString();
    }
}
