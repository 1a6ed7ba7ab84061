package fencingkoans.harness;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** The course's manifest: its lessons in order, each with its koans read from their annotations. */
public final class Course {

    /** Lesson classes in course order. Everything else (numbers, names, hints) is read from the classes. */
    private static final List<String> LESSON_CLASSES = List.of(
            "fencingkoans.koans.Lesson1StaleAuthorityKoans",
            "fencingkoans.koans.Lesson2ContractPerResourceKoans",
            "fencingkoans.koans.Lesson3TransactionKoans",
            "fencingkoans.koans.Lesson4DuplicateKoans",
            "fencingkoans.koans.Lesson5CounterexampleKoans",
            "fencingkoans.koans.Lesson6PostgresKoans");

    public record KoanEntry(Koan koan, String name, String methodName) {
    }

    public record LessonEntry(Lesson lesson, Class<?> testClass, List<KoanEntry> koans) {
    }

    private Course() {
    }

    /** The lesson classes by name, for runners that load them in a class loader of their own. */
    public static List<String> lessonClassNames() {
        return LESSON_CLASSES;
    }

    public static List<LessonEntry> lessons() {
        return LESSON_CLASSES.stream().map(Course::load).toList();
    }

    private static LessonEntry load(String className) {
        Class<?> testClass;
        try {
            testClass = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the course manifest names " + className + ", which does not exist", e);
        }
        Lesson lesson = testClass.getAnnotation(Lesson.class);
        if (lesson == null) {
            throw new IllegalStateException(className + " is in the course manifest but has no @Lesson");
        }
        List<KoanEntry> koans = Arrays.stream(testClass.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(Koan.class))
                .sorted(Comparator.comparingInt((Method method) -> KoanOrder.index(
                        method.getAnnotation(Koan.class).value())))
                .map(method -> new KoanEntry(method.getAnnotation(Koan.class),
                        KoanDisplayNames.sentence(method.getName()), method.getName()))
                .toList();
        return new LessonEntry(lesson, testClass, koans);
    }
}
