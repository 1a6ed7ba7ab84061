package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.harness.Course;
import fencingkoans.harness.Course.KoanEntry;
import fencingkoans.harness.Koan;
import fencingkoans.harness.KoanDisplayNames;
import fencingkoans.harness.Lesson;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A koan's name is its method name in words, and a method name cannot hold an apostrophe or a hyphen: the name takes
 * those from the koan's own {@code teaches} sentence, so that it reads as English wherever it is shown.
 */
class KoanNamesTest {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’-][\\p{L}\\p{N}]+)*");

    @Test
    void aNameIsSpelledAsItsKoanTeachesIt() throws NoSuchMethodException {
        assertThat(nameOf("theFirstHoldersApplyIsStaleOnFundABySql")).as("a possessive, a hyphenated fund and an acronym, each "
                + "written so in the fixture koan's teaches sentence")
                .isEqualTo("9.1 the first holder's apply is stale on fund-A by SQL");
        assertThat(nameOf("contendedIsNoRejection")).as("a word that its teaches sentence capitalises only "
                + "on its first letter (a result's name, a sentence's start) stays in lower case")
                .isEqualTo("9.2 contended is no rejection");
    }

    /**
     * A word that the course writes with an apostrophe and never without one is a possessive wherever it occurs: a
     * name that has it without the apostrophe reads wrongly, because its own koan's sentence does not spell it.
     */
    @Test
    void noNameDropsAnApostropheTheCourseAlwaysWrites() {
        List<KoanEntry> koans = Course.lessons().stream().flatMap(lesson -> lesson.koans().stream()).toList();
        String prose = koans.stream().map(koan -> koan.card().teaches() + " " + String.join(" ", koan.card().hints()))
                .collect(Collectors.joining(" "));
        Set<String> plain = words(prose).stream().filter(word -> !word.contains("'") && !word.contains("’"))
                .map(word -> word.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        Set<String> possessiveOnly = words(prose).stream().filter(word -> word.matches(".*['’]s"))
                .map(word -> word.replaceAll("['’]", "").toLowerCase(Locale.ROOT))
                .filter(word -> !plain.contains(word)).collect(Collectors.toSet());

        List<String> unspelled = koans.stream().map(koan -> koan.card().number() + " " + koan.name())
                .filter(name -> words(name).stream().anyMatch(possessiveOnly::contains)).toList();

        assertThat(unspelled).as("koan names with a word the course writes only as a possessive (%s): write that "
                + "possessive in the koan's teaches sentence, where the name takes its spelling from",
                possessiveOnly).isEmpty();
    }

    private static String nameOf(String method) throws NoSuchMethodException {
        Method koan = LessonOfNames.class.getDeclaredMethod(method);
        return new KoanDisplayNames().generateDisplayNameForMethod(List.of(), LessonOfNames.class, koan);
    }

    private static List<String> words(String text) {
        Matcher word = WORD.matcher(text);
        List<String> found = new ArrayList<>();
        while (word.find()) {
            found.add(word.group());
        }
        return found;
    }

    /** Not run: Surefire leaves nested classes out. */
    @Lesson(value = 9, title = "names", page = "none")
    static class LessonOfNames {

        @Koan(teaches = "The first holder's late apply is rejected on fund-A, whether by SQL or not.",
                edit = "FencedStore.apply", hints = {"a", "b"})
        void theFirstHoldersApplyIsStaleOnFundABySql() {
        }

        @Koan(teaches = "Contended is an answer of its own: Rejected is another.", edit = "FencedStore.apply",
                hints = {"a", "b"})
        void contendedIsNoRejection() {
        }
    }
}
