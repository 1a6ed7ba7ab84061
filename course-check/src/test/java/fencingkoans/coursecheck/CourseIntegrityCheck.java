package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import fencingkoans.harness.Course;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The course proves itself on both sides: every koan fails on the shipped stubs, passes on the reference, and
 * each mistake in the pitfall gallery is caught by the koans it names.
 */
class CourseIntegrityCheck {

    private static final int GALLERY_MINIMUM = 10;
    private static final String KOAN_PACKAGE = "fencingkoans/koans/";

    private final CourseTree tree = CourseTree.fromSystemProperties();

    /**
     * Every tool takes the lessons from {@link Course}; Surefire and PIT find test classes by a pattern in pom.xml
     * ({@code *Koans} in {@code fencingkoans.koans}), which must pick up exactly those lessons.
     */
    @Test
    void theBuildRunsTheLessonsTheCourseLists() {
        List<String> pickedUp = Folders.filesEndingWith(tree.koanClasses().resolve(KOAN_PACKAGE), "Koans.class")
                .stream().map(file -> KOAN_PACKAGE.replace('/', '.') + file.getFileName().toString().replace(".class", ""))
                .toList();

        assertThat(pickedUp).as("lesson classes that pom.xml's *Koans pattern picks up for ./mvnw test and PIT; the "
                + "course lists its lessons in fencingkoans.harness.Course, and both lists must agree")
                .containsExactlyInAnyOrderElementsOf(Course.lessonClassNames());
    }

    @Test
    void noKoanPassesOnTheStubs() {
        KoanRun run = KoanRunner.runTrack(tree, tree.exercises(), "exercises");

        assertThat(run.outcomes()).as("koans run on exercises/").isNotEmpty();
        assertThat(KoanRun.describeEach(run.passing())).as("koans that pass on the shipped stubs in exercises/; each "
                + "must fail until the learner writes the code it teaches, or it teaches nothing").isEmpty();
    }

    @Test
    void everyKoanPassesOnTheReference() {
        KoanRun run = KoanRunner.runTrack(tree, tree.solutions(), "solutions");

        assertThat(run.outcomes()).as("koans run on solutions/").isNotEmpty();
        assertThat(KoanRun.describeEach(run.notPassing())).as("koans that fail or are skipped on the reference in "
                + "solutions/; a learner who writes the reference must see every koan pass").isEmpty();
    }

    @TestFactory
    Stream<DynamicTest> everyPitfallIsCaughtByTheKoansItNames() {
        List<Path> variants = Folders.filesEndingWith(tree.pitfalls(), Pitfall.SUFFIX);

        assertThat(variants).as("variants in the pitfall gallery %s", tree.pitfalls())
                .hasSizeGreaterThanOrEqualTo(GALLERY_MINIMUM);
        return variants.stream().map(Pitfall::load).map(pitfall -> dynamicTest(pitfall.name(), () -> assertCaught(pitfall)));
    }

    private void assertCaught(Pitfall pitfall) {
        Path variant = pitfall.makeIn(tree.solutions(), tree.work().resolve("pitfalls").resolve(pitfall.name()));

        KoanRun run = KoanRunner.runTrack(tree, variant, "pitfall-" + pitfall.name(), pitfall.lessonsItReaches());

        List<String> ran = KoanRun.keys(run.outcomes()).stream().map(Pitfall::noteName).toList();
        List<String> failing = KoanRun.keys(run.failing()).stream().map(Pitfall::noteName).toList();
        System.out.printf("Pitfall %s: named %s; failing %s%n", pitfall.name(), pitfall.caughtBy(), failing);
        assertThat(pitfall.caughtBy().stream().filter(named -> !ran.contains(named)).toList()).as("koans that pitfall "
                + "%s names but that did not run on it; a note names each koan by lesson class and method, and each must "
                + "be a koan of a lesson this variant's change reaches", pitfall.name()).isEmpty();
        assertThat(run.notPassing()).as("pitfall %s (%s) passes every koan: no koan catches this mistake, so a "
                + "learner could make it and see green", pitfall.name(), pitfall.mistake()).isNotEmpty();
        assertThat(failing).as("koans failing on pitfall %s (%s); its note says %s catch it. Failing or skipped:\n%s",
                pitfall.name(), pitfall.mistake(), pitfall.caughtBy(),
                String.join("\n", KoanRun.describeEach(run.notPassing()))).containsAll(pitfall.caughtBy());
    }
}
