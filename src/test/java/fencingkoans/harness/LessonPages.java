package fencingkoans.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes each lesson page's koan list, with folded hints, from the koans' own annotations, so the page can
 * never disagree with the tests. Any document names a koan by a link to its hints, {@code [1.5](#methodName)} or
 * {@code [1.5](docs/lessons/1-stale-authority.md#methodName)}, whose number is rewritten too, and README.md's
 * lesson table is written from the course. A number typed without such a link would go stale, so it is refused:
 * on a lesson page any koan-like number, elsewhere one that says it is a koan's. With {@code --check} it only
 * reports documents that are out of date.
 */
public final class LessonPages {

    static final String BEGIN = "<!-- koans:begin -->";
    static final String END = "<!-- koans:end -->";
    static final String LESSONS_BEGIN = "<!-- lessons:begin -->";
    static final String LESSONS_END = "<!-- lessons:end -->";
    private static final Pattern KOAN_LINK = Pattern.compile("\\[[1-9]\\.[0-9]{1,2}\\]\\(([\\w./-]+\\.md)?#(\\w+)\\)");
    /** A number that reads as a koan's; a product's version ("ZooKeeper 3.9") is none. */
    private static final Pattern TYPED_NUMBER = Pattern.compile("(?<!ZooKeeper |Curator )\\b[1-9]\\.[0-9]{1,2}\\b");
    /** Outside the lesson pages, where timings and versions abound: a number called a koan's, or set in bold. */
    private static final Pattern TYPED_KOAN_NUMBER = Pattern.compile("(?i)\\bkoans? [1-9]\\.[0-9]{1,2}\\b"
            + "|\\*\\*[1-9]\\.[0-9]{1,2}\\*\\*");
    /** Code is quoted, not prose: a link written there is an example. */
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
    private static final Path README = Path.of("README.md");

    private LessonPages() {
    }

    public static void main(String[] args) throws IOException {
        boolean checkOnly = List.of(args).contains("--check");
        List<String> stale = new ArrayList<>();
        List<Path> pages = new ArrayList<>();
        for (Course.LessonEntry lesson : Course.lessons()) {
            Path page = Path.of(lesson.lesson().page());
            pages.add(page.normalize());
            rewrite(page, text -> withKoanList(text, lesson, page), checkOnly, stale);
        }
        rewrite(README, text -> withLessonTable(documentWithDerivedNumbers(text, README)), checkOnly, stale);
        for (Path document : otherDocuments(pages)) {
            rewrite(document, text -> documentWithDerivedNumbers(text, document), checkOnly, stale);
        }
        if (checkOnly && !stale.isEmpty()) {
            System.err.println("Documents out of date with the koans: " + stale);
            System.err.println("Regenerate them with: ./mvnw -q test-compile exec:java@lesson-pages");
            System.exit(1);
        }
        System.out.println(checkOnly ? "Lesson pages and documents match the koans." : "Documents written: " + stale);
    }

    private static void rewrite(Path document, UnaryOperator<String> update, boolean checkOnly, List<String> stale)
            throws IOException {
        String current = Files.readString(document, StandardCharsets.UTF_8);
        String updated = update.apply(current);
        if (!updated.equals(current)) {
            stale.add(document.toString());
            if (!checkOnly) {
                Files.writeString(document, updated, StandardCharsets.UTF_8);
            }
        }
    }

    /** Every Markdown file under docs/ that is no lesson page (an export has only the lesson pages). */
    private static List<Path> otherDocuments(List<Path> pages) throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("docs"))) {
            return files.filter(file -> file.toString().endsWith(".md") && !pages.contains(file.normalize())).sorted()
                    .toList();
        }
    }

    /** README.md's table of lessons: each lesson's koans, first to last, and its page. */
    static String withLessonTable(String readme) {
        int begin = readme.indexOf(LESSONS_BEGIN);
        int end = readme.indexOf(LESSONS_END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(README + " has no " + LESSONS_BEGIN + " ... " + LESSONS_END + " block");
        }
        StringBuilder table = new StringBuilder("| Lesson | Koans | Page |\n|---|---|---|\n");
        for (Course.LessonEntry lesson : Course.lessons()) {
            List<Course.KoanEntry> koans = lesson.koans();
            table.append("| ").append(lesson.lesson().value()).append(". ").append(lesson.lesson().title())
                    .append(" | ").append(koans.get(0).card().number()).append(" to ")
                    .append(koans.get(koans.size() - 1).card().number()).append(" | [").append(lesson.lesson().page())
                    .append("](").append(lesson.lesson().page()).append(") |\n");
        }
        return readme.substring(0, begin) + LESSONS_BEGIN + "\n" + table + readme.substring(end);
    }

    static String withKoanList(String page, Course.LessonEntry lesson, Path where) {
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(where + " has no " + BEGIN + " ... " + END + " block");
        }
        return withDerivedNumbers(page.substring(0, begin), where, TYPED_NUMBER) + BEGIN + "\n" + koanList(lesson)
                + withDerivedNumbers(page.substring(end), where, TYPED_NUMBER);
    }

    /** A document that is no lesson page, with each koan link's number as the course numbers that koan now. */
    public static String documentWithDerivedNumbers(String text, Path document) {
        return withDerivedNumbers(text, document, TYPED_KOAN_NUMBER);
    }

    /**
     * The prose with each koan link's number taken from the course, refused if it types a number of its own that
     * {@code typed} finds. Code spans are left as they are.
     */
    private static String withDerivedNumbers(String prose, Path where, Pattern typed) {
        StringBuilder result = new StringBuilder();
        Matcher code = CODE_SPAN.matcher(prose);
        int from = 0;
        while (code.find()) {
            result.append(linked(prose.substring(from, code.start()), where, typed)).append(code.group());
            from = code.end();
        }
        return result.append(linked(prose.substring(from), where, typed)).toString();
    }

    private static String linked(String prose, Path where, Pattern typed) {
        String linked = KOAN_LINK.matcher(prose).replaceAll(link -> {
            String otherPage = link.group(1) == null ? "" : link.group(1);
            Path page = otherPage.isEmpty() ? where : where.resolveSibling(otherPage);
            return Matcher.quoteReplacement("[" + number(page, link.group(2), where) + "](" + otherPage + "#"
                    + link.group(2) + ")");
        });
        Matcher number = typed.matcher(KOAN_LINK.matcher(linked).replaceAll(""));
        if (number.find()) {
            throw new IllegalStateException(where + " types the koan number in \"" + number.group() + "\" outside a "
                    + "koan list, where a new koan would make it stale: link the koan instead, [N.M](#methodName) or "
                    + "[N.M](path/to/page.md#methodName), and the number follows it");
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
                    .append(entry.card().teaches()).append(" | ").append(codeSpans(entry.card().edits()))
                    .append(" |\n");
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
