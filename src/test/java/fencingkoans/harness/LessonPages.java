package fencingkoans.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes each lesson page's koan list, with folded hints, from the koans' own annotations, so the page can
 * never disagree with the tests. The prose names a koan by a link to its hints, {@code [1.5](#methodName)} or
 * {@code [1.5](1-stale-authority.md#methodName)}, whose number is rewritten too; a number typed without such a
 * link would go stale, so it is refused. With {@code --check} it only reports pages that are out of date.
 */
public final class LessonPages {

    static final String BEGIN = "<!-- koans:begin -->";
    static final String END = "<!-- koans:end -->";
    private static final Pattern KOAN_LINK = Pattern.compile("\\[[1-9]\\.[0-9]{1,2}\\]\\(([\\w-]+\\.md)?#(\\w+)\\)");
    /** A number that reads as a koan's; a product's version ("ZooKeeper 3.9") is none. */
    private static final Pattern TYPED_NUMBER = Pattern.compile("(?<!ZooKeeper |Curator )\\b[1-9]\\.[0-9]{1,2}\\b");

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
            System.err.println("Regenerate them with: ./mvnw -q test-compile exec:java@lesson-pages");
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
        return withDerivedNumbers(page.substring(0, begin), where) + BEGIN + "\n" + koanList(lesson)
                + withDerivedNumbers(page.substring(end), where);
    }

    /** The prose with each koan link's number taken from the course, refused if it types a number of its own. */
    private static String withDerivedNumbers(String prose, Path where) {
        String linked = KOAN_LINK.matcher(prose).replaceAll(link -> {
            String otherPage = link.group(1) == null ? "" : link.group(1);
            Path page = otherPage.isEmpty() ? where : where.resolveSibling(otherPage);
            return Matcher.quoteReplacement("[" + number(page, link.group(2), where) + "](" + otherPage + "#"
                    + link.group(2) + ")");
        });
        Matcher typed = TYPED_NUMBER.matcher(KOAN_LINK.matcher(linked).replaceAll(""));
        if (typed.find()) {
            throw new IllegalStateException(where + " types the koan number " + typed.group() + " outside its "
                    + "koan list, where a new koan would make it stale: link the koan instead, [" + typed.group()
                    + "](#methodName), or [" + typed.group() + "](other-page.md#methodName), and the number follows it");
        }
        return linked;
    }

    private static String number(Path page, String methodName, Path linkedFrom) {
        return Course.lessons().stream().filter(lesson -> Path.of(lesson.lesson().page()).normalize()
                .equals(page.normalize())).flatMap(lesson -> lesson.koans().stream())
                .filter(koan -> koan.methodName().equals(methodName)).map(koan -> koan.card().number()).findFirst()
                .orElseThrow(() -> new IllegalStateException(linkedFrom + " links to koan " + methodName + " on "
                        + page + ", which has no koan of that name"));
    }

    /** "`A.run`, `B.apply` and `C.install`": one code span per method. */
    private static String codeSpans(List<String> edits) {
        return KoanDisplayNames.inWords(edits.stream().map(edit -> "`" + edit + "`").toList());
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
            list.append("\n<a name=\"").append(entry.methodName()).append("\"></a>")
                    .append("<details><summary>Hints for koan ").append(entry.card().number()).append("</summary>\n\n");
            List<String> hints = entry.card().hints();
            for (int i = 0; i < hints.size(); i++) {
                list.append(i + 1).append(". ").append(hints.get(i)).append("\n");
            }
            list.append("\n</details>\n");
        }
        return list.toString();
    }
}
