package fencingkoans.harness;

import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/** The course's manifest: its lessons in order, each with its koans read from their annotations. */
public final class Course {

    /** Lesson classes in course order. Everything else (numbers, names, hints) is read from the classes. */
    private static final List<String> LESSON_CLASSES = List.of(
            "fencingkoans.koans.Lesson1StaleAuthorityKoans",
            "fencingkoans.koans.Lesson2ContractPerResourceKoans",
            "fencingkoans.koans.Lesson3TransactionKoans",
            "fencingkoans.koans.Lesson4DuplicateKoans",
            "fencingkoans.koans.Lesson5CounterexampleKoans",
            "fencingkoans.koans.Lesson6PostgresKoans",
            "fencingkoans.koans.Lesson7LeaseKoans");

    /** One koan where it runs: {@code testClass} is the lesson class or one of its nested classes. */
    public record KoanEntry(KoanCard card, String name, Class<?> testClass, Method method) {

        public String methodName() {
            return method.getName();
        }
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
        List<KoanEntry> koans = withNestedClasses(testClass)
                .flatMap(runsIn -> ReflectionSupport.findMethods(runsIn, method -> method.isAnnotationPresent(Koan.class),
                                HierarchyTraversalMode.TOP_DOWN).stream()
                        .map(method -> new KoanEntry(KoanCard.of(runsIn, method).orElseThrow(),
                                KoanDisplayNames.sentence(method.getName()), runsIn, method)))
                .sorted(Comparator.comparingInt((KoanEntry koan) -> KoanOrder.index(koan.card().number())))
                .toList();
        koans.stream().filter(koan -> !koan.card().number().startsWith(lesson.value() + ".")).findFirst()
                .ifPresent(stray -> {
                    throw new IllegalStateException("koan " + stray.card().number() + " (" + stray.methodName()
                            + ") runs in lesson " + lesson.value() + " but is not numbered there; a koan that lesson 6 "
                            + "runs again needs its number there in @AlsoOnPostgres");
                });
        return new LessonEntry(lesson, testClass, koans);
    }

    /** The class, then its {@code @Nested} classes: lesson 6 groups its koans in those. */
    private static Stream<Class<?>> withNestedClasses(Class<?> testClass) {
        return Stream.concat(Stream.of(testClass), Stream.of(testClass.getDeclaredClasses())
                .filter(nested -> nested.isAnnotationPresent(Nested.class))
                .flatMap(Course::withNestedClasses));
    }
}
