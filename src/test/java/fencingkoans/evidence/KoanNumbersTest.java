package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.NotWrittenYet;
import fencingkoans.harness.Course;
import fencingkoans.harness.Course.KoanEntry;
import fencingkoans.harness.Course.LessonEntry;
import fencingkoans.harness.Koan;
import fencingkoans.harness.KoanDisplayNames;
import fencingkoans.harness.KoanGroup;
import fencingkoans.harness.Lesson;
import fencingkoans.harness.RunningKoan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A koan's number is its lesson's number and its place in the lesson's file, so that adding a koan renumbers the
 * ones after it and nothing has to be renumbered by hand; lesson 6's twins of earlier koans are numbered the same
 * way, and both cards of a twin name each other. A stub's exception finds its own method and file, and no hint or stub
 * types a number.
 */
class KoanNumbersTest {

    private static final Pattern KOAN_NUMBER = Pattern.compile("\\b[1-9]\\.[0-9]{1,2}\\b");

    @Test
    void koansAreNumberedInTheOrderTheirFileIsWrittenIn() {
        assertThat(numbersOf(LessonAsWritten.class)).as("the fixture lesson's koans, in the order written")
                .containsExactly("9.1 one", "9.2 two", "9.3 three");
    }

    @Test
    void aKoanInsertedInALessonRenumbersTheKoansAfterIt() {
        assertThat(numbersOf(LessonWithAKoanInserted.class)).as("the same lesson with a koan written between the "
                + "first and the second: the two after it move up by one, the first keeps its number")
                .containsExactly("9.1 one", "9.2 aNewOne", "9.3 two", "9.4 three");
    }

    @Test
    void everyLessonIsNumberedFromOneWithoutGaps() {
        for (LessonEntry lesson : Course.lessons()) {
            List<String> expected = IntStream.rangeClosed(1, lesson.koans().size())
                    .mapToObj(place -> lesson.lesson().value() + "." + place).toList();
            assertThat(lesson.koans().stream().map(koan -> koan.card().number()).toList())
                    .as("the koan numbers of lesson %d, in course order", lesson.lesson().value())
                    .isEqualTo(expected);
        }
    }

    @Test
    void aGroupOfKoansIsNamedByTheNumbersOfTheKoansItHolds() {
        String name = new KoanDisplayNames().generateDisplayNameForNestedClass(
                List.of(LessonWithAKoanInserted.class), LessonWithAKoanInserted.TheGroup.class);

        assertThat(name).as("the name of a nested group written between the lesson's first and last koan")
                .isEqualTo("9.2 to 9.3: two koans in a group");
    }

    /** A number written in a hint goes stale as soon as a koan is added before the one it names. */
    @Test
    void noHintNamesAKoanByANumberThatCanMove() {
        List<String> numbered = Course.lessons().stream().flatMap(lesson -> lesson.koans().stream())
                .flatMap(koan -> Stream.concat(Stream.of(koan.card().teaches()), koan.card().hints().stream())
                        .filter(text -> KOAN_NUMBER.matcher(text).find())
                        .map(text -> koan.card().number() + ": " + text))
                .toList();
        assertThat(numbered).as("hints and ideas that name a koan by its number; say which koan in words (the koan "
                + "before, lesson 3's last koan), since numbers follow the order the koans are written in").isEmpty();
    }

    /** The stubs and their comments, Java and SQL alike: a number there goes stale just as a hint's would. */
    @Test
    void noStubNamesAKoanByANumberThatCanMove() throws IOException {
        List<String> numbered;
        try (Stream<Path> files = Files.walk(Path.of("exercises"))) {
            numbered = files.filter(Files::isRegularFile).sorted().flatMap(KoanNumbersTest::linesWithANumber).toList();
        }
        assertThat(numbered).as("lines of the learner's track that name a koan by its number; a stub's exception "
                + "names the running koan by itself, and a comment can say which koans in words").isEmpty();
    }

    private static Stream<String> linesWithANumber(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return IntStream.range(0, lines.size()).filter(i -> KOAN_NUMBER.matcher(lines.get(i)).find())
                    .mapToObj(i -> file + ":" + (i + 1) + ": " + lines.get(i).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void lessonSixNumbersItsTwinsByItsOwnOrderAndBothCardsNameEachOther() {
        Map<String, KoanEntry> byNumber = Course.lessons().stream().flatMap(lesson -> lesson.koans().stream())
                .collect(Collectors.toMap(koan -> koan.card().number(), Function.identity()));
        List<KoanEntry> twinsInLessonSix = Course.lessons().get(5).koans().stream()
                .filter(koan -> koan.card().twin().isPresent()).toList();

        assertThat(twinsInLessonSix).as("lesson 6's koans that run an earlier lesson's koan again").hasSize(25);
        assertThat(byNumber.get("1.1").card().twin()).as("the twin of lesson 1's first koan, the first in lesson 6")
                .contains("6.1");
        for (KoanEntry twin : twinsInLessonSix) {
            KoanEntry original = byNumber.get(twin.card().twin().orElseThrow());
            assertThat(original.methodName()).as("the koan that %s runs again", twin.card().number())
                    .isEqualTo(twin.methodName());
            assertThat(original.card().twin()).as("the twin named on koan %s's card", original.card().number())
                    .contains(twin.card().number());
            assertThat(twin.card().teaches()).as("what koan %s teaches, written once on %s",
                    twin.card().number(), original.card().number()).isEqualTo(original.card().teaches());
            assertThat(twin.card().edits()).as("the file koan %s has the learner edit", twin.card().number())
                    .allMatch(edit -> edit.endsWith(".sql"));
        }
    }

    @Test
    void aStubNamesItsOwnMethodAndFileAndTheKoanThatRuns() {
        System.setProperty(RunningKoan.PROPERTY, "9.2");
        NotWrittenYet duringAKoan;
        try {
            duringAKoan = stub();
        } finally {
            System.clearProperty(RunningKoan.PROPERTY);
        }
        NotWrittenYet outsideTheKoans = stub();

        assertThat(duringAKoan.method()).as("the method the stub threw from").isEqualTo("KoanNumbersTest.stub");
        assertThat(duringAKoan.file()).as("the file it is written in, under exercises/")
                .isEqualTo("exercises/src/main/java/fencingkoans/evidence/KoanNumbersTest.java");
        assertThat(duringAKoan).as("the stub's message while koan 9.2 runs").hasMessage("Not written yet: "
                + "KoanNumbersTest.stub (needed by koan 9.2). Edit exercises/src/main/java/fencingkoans/evidence/"
                + "KoanNumbersTest.java, delete this throw and write the method yourself.");
        assertThat(outsideTheKoans.koan()).as("the koan named when none runs, in the lab walkthrough say").isEmpty();
        assertThat(RunningKoan.PROPERTY).as("the property the harness publishes the running koan in")
                .isEqualTo(NotWrittenYet.RUNNING_KOAN);
    }

    private static NotWrittenYet stub() {
        return new NotWrittenYet();
    }

    private static List<String> numbersOf(Class<?> lessonClass) {
        return Course.lesson(lessonClass).koans().stream()
                .map(koan -> koan.card().number() + " " + koan.methodName()).toList();
    }

    /** Not run: Surefire leaves nested classes out, and JUnit runs only {@code @Nested} ones. */
    @Lesson(value = 9, title = "A lesson as written", page = "none")
    static class LessonAsWritten {

        @Koan(teaches = "one", edit = "FencedStore.apply", hints = {"a", "b"})
        void one() {
        }

        @Koan(teaches = "two", edit = "FencedStore.apply", hints = {"a", "b"})
        void two() {
        }

        @Koan(teaches = "three", edit = "FencedStore.apply", hints = {"a", "b"})
        void three() {
        }
    }

    /** The first lesson above with one koan more, written second; it and the koan after it form a group. */
    @Lesson(value = 9, title = "A lesson with a koan inserted", page = "none")
    static class LessonWithAKoanInserted {

        @Koan(teaches = "one", edit = "FencedStore.apply", hints = {"a", "b"})
        void one() {
        }

        @Nested
        @KoanGroup("two koans in a group")
        class TheGroup {

            @Koan(teaches = "new", edit = "FencedStore.apply", hints = {"a", "b"})
            void aNewOne() {
            }

            @Koan(teaches = "two", edit = "FencedStore.apply", hints = {"a", "b"})
            void two() {
            }
        }

        @Koan(teaches = "three", edit = "FencedStore.apply", hints = {"a", "b"})
        void three() {
        }
    }
}
