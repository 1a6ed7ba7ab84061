package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import fencingkoans.harness.Course;
import fencingkoans.harness.CourseClassLoader;
import fencingkoans.harness.KoanLauncher;
import fencingkoans.harness.Lesson;
import fencingkoans.sqlite.Database;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.ClassSelector;

/**
 * The lessons are listed nowhere: the course finds them in their package, in every class loader the runners use,
 * and orders them by their numbers. A class there that is no lesson, a number written twice and a missing number
 * are each refused with the reason.
 */
class LessonListTest {

    @Test
    void aFreshClassLoaderOnTopOfAnotherFindsEachLessonOnceAsItLoadsIt() throws IOException, URISyntaxException {
        List<Path> folders = List.of(folderOf(Course.class), folderOf(Database.class));
        try (CourseClassLoader given = new CourseClassLoader("given", folders, getClass().getClassLoader(),
                name -> name.startsWith("fencingkoans.sqlite."));
                CourseClassLoader fresh = new CourseClassLoader("course", folders, given,
                        name -> !name.startsWith("fencingkoans.sqlite."))) {
            List<Class<?>> lessons = KoanLauncher.lessons(fresh, name -> true).stream().map(ClassSelector::getJavaClass)
                    .toList();

            assertThat(lessons.stream().map(Class::getName)).as("the lessons found through a loader that finds "
                    + "their folder three times, as watch mode's does: each once, in course order")
                    .containsExactlyElementsOf(Course.lessonClassNames());
            assertThat(lessons).as("the lessons found through a fresh loader must be its own copies, or a watch "
                    + "run would test the classes of the first save").allSatisfy(lesson ->
                    assertThat(lesson.getClassLoader()).as(lesson.getName()).isSameAs(fresh));
        }
    }

    @Test
    void lessonsAreOrderedByTheirNumbersNotByTheirNames() {
        assertThat(Course.inCourseOrder(List.of(Second.class, First.class))).as("lessons 2 and 1, found in that order")
                .containsExactly(First.class, Second.class);
    }

    @Test
    void aClassOfTheLessonsPackageWithoutLessonIsRefused() {
        assertThatIllegalStateException().isThrownBy(() -> Course.inCourseOrder(List.of(First.class, NoLesson.class)))
                .withMessageContaining(NoLesson.class.getName() + "] has no @Lesson")
                .withMessageContaining("move it to a subpackage");
    }

    @Test
    void twoLessonsWithOneNumberAreRefused() {
        assertThatIllegalStateException().isThrownBy(() -> Course.inCourseOrder(List.of(First.class, Second.class,
                        AnotherSecond.class)))
                .withMessageStartingWith("lesson 2 is written twice, in ")
                .withMessageContaining(Second.class.getName()).withMessageContaining(AnotherSecond.class.getName());
    }

    @Test
    void aGapInTheNumbersIsRefused() {
        assertThatIllegalStateException().isThrownBy(() -> Course.inCourseOrder(List.of(First.class, Third.class)))
                .withMessageStartingWith("lesson 2 is missing: the lessons of fencingkoans.koans are numbered [1, 3]");
    }

    private static Path folderOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Lesson(value = 1, title = "First", page = "none")
    static class First {
    }

    @Lesson(value = 2, title = "Second", page = "none")
    static class Second {
    }

    @Lesson(value = 2, title = "Second again", page = "none")
    static class AnotherSecond {
    }

    @Lesson(value = 3, title = "Third", page = "none")
    static class Third {
    }

    static class NoLesson {
    }
}
