package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import fencingkoans.harness.Course;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * The course proves itself on both sides: every koan fails on the shipped stubs, passes on the reference, and
 * each mistake in the pitfall gallery is caught by the koans it names.
 */
class CourseIntegrityCheck {

    private static final int GALLERY_MINIMUM = 10;

    private final CourseTree tree = CourseTree.fromSystemProperties();

    /**
     * Every tool takes the lessons from {@link Course}, which finds them in their package; Surefire and PIT select
     * that package in pom.xml, each in its own pattern language, and must pick up exactly those lessons.
     */
    @Test
    void theBuildRunsTheLessonsTheCourseLists() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(tree.basedir().resolve("pom.xml").toFile());
        List<Path> topLevelClasses;
        try (Stream<Path> files = Files.walk(tree.koanClasses())) {
            topLevelClasses = files.map(tree.koanClasses()::relativize).filter(file -> file.toString()
                    .endsWith(".class") && !file.toString().contains("$") && !isInterface(className(file))).toList();
        }

        List<PathMatcher> surefire = patterns(pom, "/project/build/plugins/plugin[artifactId='maven-surefire-plugin']"
                + "/configuration/includes/include").map(include -> FileSystems.getDefault()
                .getPathMatcher("glob:" + include.replace(".java", ".class"))).toList();
        List<Pattern> pit = pitGlobs(pom, "targetTests");
        List<Pattern> pitExcluded = pitGlobs(pom, "excludedTestClasses");

        List<String> lessons = Course.lessonClassNames();
        assertThat(topLevelClasses.stream().filter(file -> surefire.stream().anyMatch(include -> include.matches(file)))
                .map(CourseIntegrityCheck::className)).as("the classes that Surefire's <includes> in pom.xml select "
                + "for ./mvnw test; the course's lessons are the top-level classes of %s", Course.LESSON_PACKAGE)
                .containsExactlyInAnyOrderElementsOf(lessons);
        assertThat(topLevelClasses.stream().map(CourseIntegrityCheck::className)
                .filter(name -> pit.stream().anyMatch(param -> param.matcher(name).matches()))
                .filter(name -> pitExcluded.stream().noneMatch(param -> param.matcher(name).matches())))
                .as("the classes that PIT's <targetTests>, less its <excludedTestClasses>, in pom.xml's course-check "
                        + "profile select; the course's lessons are the top-level classes of %s", Course.LESSON_PACKAGE)
                .containsExactlyInAnyOrderElementsOf(lessons);
    }

    /** PIT's globs: a * matches any run of characters, dots included. */
    private static List<Pattern> pitGlobs(Document pom, String setting) throws XPathExpressionException {
        return patterns(pom, "//plugin[artifactId='pitest-maven']/configuration/" + setting + "/param")
                .map(glob -> Pattern.compile(Pattern.quote(glob).replace("*", "\\E.*\\Q"))).toList();
    }

    private static Stream<String> patterns(Document pom, String path) throws XPathExpressionException {
        NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(path, pom, XPathConstants.NODESET);
        assertThat(nodes.getLength()).as("patterns at %s in pom.xml", path).isPositive();
        return IntStream.range(0, nodes.getLength()).mapToObj(i -> nodes.item(i).getTextContent().trim());
    }

    /** An interface is no test class: Surefire and PIT select it and run nothing of it. */
    private static boolean isInterface(String className) {
        try {
            return Class.forName(className, false, CourseIntegrityCheck.class.getClassLoader()).isInterface();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(className + " is compiled but does not load", e);
        }
    }

    private static String className(Path classFile) {
        return classFile.toString().replace(".class", "").replace(classFile.getFileSystem().getSeparator(), ".");
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
