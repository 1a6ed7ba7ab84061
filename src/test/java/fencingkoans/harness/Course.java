package fencingkoans.harness;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The course's manifest: its lessons in order, each with its koans. A koan's number is derived, never written:
 * the lesson's number, then the koan's place in its lesson's file, in the order the file is written in.
 */
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

    /** Numbered once per class loader: watch mode loads the koans again on every save. */
    private static List<LessonEntry> course;

    /** One koan where it runs: {@code testClass} is the lesson class or one of its nested classes. */
    public record KoanEntry(KoanCard card, String name, Class<?> testClass, Method method) {

        public String methodName() {
            return method.getName();
        }
    }

    public record LessonEntry(Lesson lesson, Class<?> testClass, List<KoanEntry> koans) {
    }

    /** A koan found in a lesson, numbered but not yet linked to its twin on the other destination. */
    private record Numbered(String number, Class<?> testClass, Method method) {
    }

    private Course() {
    }

    /** The lesson classes by name, for runners that load them in a class loader of their own. */
    public static List<String> lessonClassNames() {
        return LESSON_CLASSES;
    }

    public static synchronized List<LessonEntry> lessons() {
        if (course == null) {
            course = withCards(LESSON_CLASSES.stream().map(Course::lessonClass).toList());
        }
        return course;
    }

    /**
     * The lesson written in {@code lessonClass}'s file, numbered as the course numbers it. A lesson class outside
     * the manifest (a test's fixture) is numbered on its own, without twins.
     */
    public static LessonEntry lesson(Class<?> lessonClass) {
        Class<?> file = lessonOf(lessonClass);
        List<LessonEntry> lessons = LESSON_CLASSES.contains(file.getName()) ? lessons() : withCards(List.of(file));
        return lessons.stream().filter(lesson -> lesson.testClass().getName().equals(file.getName())).findFirst().orElseThrow();
    }

    /** The card of {@code method} where it runs in {@code testClass}; empty when it is no koan. */
    static Optional<KoanCard> card(Class<?> testClass, Method method) {
        if (!isKoan(method)) {
            return Optional.empty();
        }
        return lesson(testClass).koans().stream().filter(koan -> koan.testClass().getName().equals(testClass.getName())
                && koan.methodName().equals(method.getName())).map(KoanEntry::card).findFirst();
    }

    /** The lessons of {@code lessonClasses}, numbered, with every twin on the other destination named. */
    private static List<LessonEntry> withCards(List<Class<?>> lessonClasses) {
        Map<Class<?>, List<Numbered>> numbered = new HashMap<>();
        lessonClasses.forEach(lessonClass -> numbered.put(lessonClass, numbered(lessonClass)));
        List<Numbered> all = lessonClasses.stream().flatMap(lessonClass -> numbered.get(lessonClass).stream()).toList();
        return lessonClasses.stream().map(lessonClass -> new LessonEntry(lessonClass.getAnnotation(Lesson.class),
                lessonClass, numbered.get(lessonClass).stream().map(koan -> new KoanEntry(card(koan, all),
                        KoanDisplayNames.sentence(koan.method().getName()), koan.testClass(), koan.method())).toList()))
                .toList();
    }

    private static KoanCard card(Numbered koan, List<Numbered> all) {
        AgainOnPostgres again = koan.method().getAnnotation(AgainOnPostgres.class);
        if (again == null) {
            Koan written = koan.method().getAnnotation(Koan.class);
            Optional<String> twin = all.stream().filter(other -> other.method().isAnnotationPresent(
                    AgainOnPostgres.class) && original(other.method()).equals(koan.method()))
                    .map(Numbered::number).findFirst();
            return new KoanCard(koan.number(), written.teaches(), written.edit(), List.of(written.hints()), twin);
        }
        Method original = original(koan.method());
        Optional<String> twin = all.stream().filter(other -> other.method().equals(original)).map(Numbered::number)
                .findFirst();
        return new KoanCard(koan.number(), original.getAnnotation(Koan.class).teaches(), again.edit(),
                List.of(again.hints()), twin);
    }

    /** The earlier lesson's koan that an {@link AgainOnPostgres} method overrides. */
    private static Method original(Method again) {
        return Stream.of(again.getDeclaringClass().getInterfaces())
                .flatMap(type -> ReflectionSupport.findMethod(type, again.getName()).stream())
                .filter(method -> method.isAnnotationPresent(Koan.class)).findFirst()
                .orElseThrow(() -> new IllegalStateException(again.getDeclaringClass().getName() + "#"
                        + again.getName() + " is marked @AgainOnPostgres but overrides no @Koan of an interface"));
    }

    private static Class<?> lessonClass(String className) {
        try {
            return Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the course manifest names " + className + ", which does not exist", e);
        }
    }

    /** The koans of one lesson in the order its file is written in, each numbered by its place there. */
    private static List<Numbered> numbered(Class<?> lessonClass) {
        Lesson lesson = lessonClass.getAnnotation(Lesson.class);
        if (lesson == null) {
            throw new IllegalStateException(lessonClass.getName() + " is in the course manifest but has no @Lesson");
        }
        Map<Class<?>, SourceLines> compiled = new HashMap<>();
        List<Method> methods = new ArrayList<>();
        Map<Method, Class<?>> runsIn = new HashMap<>();
        withNestedClasses(lessonClass).forEach(testClass -> ReflectionSupport.findMethods(testClass, Course::isKoan,
                HierarchyTraversalMode.TOP_DOWN).forEach(method -> {
                    methods.add(method);
                    runsIn.put(method, testClass);
                }));
        String lessonFile = compiled.computeIfAbsent(lessonClass, SourceLines::of).file();
        Map<Method, Integer> lineOf = new HashMap<>();
        for (Method method : methods) {
            SourceLines writtenIn = compiled.computeIfAbsent(method.getDeclaringClass(), SourceLines::of);
            if (!Objects.equals(writtenIn.file(), lessonFile)
                    || !method.getDeclaringClass().getPackageName().equals(lessonClass.getPackageName())) {
                throw new IllegalStateException("koan " + method.getName() + " runs in lesson " + lesson.value()
                        + " but is written in " + writtenIn.file() + ", not in " + lessonFile + ": a lesson's koans "
                        + "are written in its own file, and lesson 6 overrides each koan it runs again with "
                        + "@AgainOnPostgres");
            }
            Integer line = writtenIn.firstLines().get(method.getName());
            if (line == null) {
                throw new IllegalStateException(lessonFile + " was compiled without line numbers, so the order "
                        + "of its koans is unknown: compile it with javac -g");
            }
            lineOf.put(method, line);
        }
        methods.sort(Comparator.comparing(lineOf::get));
        List<Numbered> numbered = new ArrayList<>();
        for (Method method : methods) {
            numbered.add(new Numbered(lesson.value() + "." + (numbered.size() + 1), runsIn.get(method), method));
        }
        return numbered;
    }

    private static boolean isKoan(Method method) {
        return method.isAnnotationPresent(Koan.class) || method.isAnnotationPresent(AgainOnPostgres.class);
    }

    /** The class marked {@code @Lesson} that {@code type} is, or is nested in. */
    private static Class<?> lessonOf(Class<?> type) {
        Class<?> lesson = type;
        while (!lesson.isAnnotationPresent(Lesson.class) && lesson.getEnclosingClass() != null) {
            lesson = lesson.getEnclosingClass();
        }
        return lesson;
    }

    /** The class, then its {@code @Nested} classes: lesson 6 groups its koans in those. */
    private static Stream<Class<?>> withNestedClasses(Class<?> testClass) {
        return Stream.concat(Stream.of(testClass), Stream.of(testClass.getDeclaredClasses())
                .filter(nested -> nested.isAnnotationPresent(Nested.class))
                .flatMap(Course::withNestedClasses));
    }
}
