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
 * The course's manifest: its lessons in order, each with its koans. Lessons are not listed anywhere: every
 * top-level class of {@value #LESSON_PACKAGE} is one, marked {@link Lesson} (an interface there holds koans that
 * a lesson implements), and the lessons' numbers give the order. A koan's number is derived, never written: the
 * lesson's number, then the koan's place in its lesson's file, in the order the file is written in.
 */
public final class Course {

    /** The lessons' package; its subpackages hold what lessons share. pom.xml selects it for Surefire and PIT. */
    public static final String LESSON_PACKAGE = "fencingkoans.koans";

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

    /** The lesson classes by name, in course order. */
    public static List<String> lessonClassNames() {
        return lessons().stream().map(lesson -> lesson.testClass().getName()).toList();
    }

    public static synchronized List<LessonEntry> lessons() {
        if (course == null) {
            course = withCards(lessonClasses());
        }
        return course;
    }

    /**
     * The top-level classes of {@value #LESSON_PACKAGE} as this class's loader loads them, which is also the loader
     * of the {@link Lesson} they carry; in the order of their numbers.
     */
    private static List<Class<?>> lessonClasses() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(Course.class.getClassLoader());
        try {
            // The scan loads through the context loader; a name found in several of its folders comes back once.
            return inCourseOrder(ReflectionSupport.findAllClassesInPackage(LESSON_PACKAGE, type -> type
                    .getEnclosingClass() == null && !type.isInterface()
                    && type.getPackageName().equals(LESSON_PACKAGE), name -> true));
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The top-level classes of the lessons' package as lessons in course order, or why they are none. */
    public static List<Class<?>> inCourseOrder(List<Class<?>> topLevelClasses) {
        List<String> unmarked = topLevelClasses.stream().filter(type -> !type.isAnnotationPresent(Lesson.class))
                .map(Class::getName).toList();
        if (!unmarked.isEmpty()) {
            throw new IllegalStateException("every top-level class of " + LESSON_PACKAGE + " is a lesson, but "
                    + unmarked + " has no @Lesson: mark it with its number, title and page, or move it to a "
                    + "subpackage such as " + LESSON_PACKAGE + ".support");
        }
        List<Class<?>> lessons = topLevelClasses.stream().sorted(Comparator.comparingInt(Course::number)).toList();
        for (int i = 0; i < lessons.size(); i++) {
            int number = number(lessons.get(i));
            if (number != i + 1) {
                throw new IllegalStateException(i > 0 && number == number(lessons.get(i - 1))
                        ? "lesson " + number + " is written twice, in " + lessons.get(i - 1).getName() + " and "
                                + lessons.get(i).getName() + ": each number belongs to one class of " + LESSON_PACKAGE
                        : "lesson " + (i + 1) + " is missing: the lessons of " + LESSON_PACKAGE + " are numbered "
                                + lessons.stream().map(Course::number).toList() + ", and the course runs 1, 2, 3 and "
                                + "on without a gap");
            }
        }
        return lessons;
    }

    /**
     * The lesson written in {@code lessonClass}'s file, numbered as the course numbers it. A lesson class outside
     * the manifest (a test's fixture) is numbered on its own, without twins.
     */
    public static LessonEntry lesson(Class<?> lessonClass) {
        Class<?> file = lessonOf(lessonClass);
        List<LessonEntry> lessons = file.getPackageName().equals(LESSON_PACKAGE) ? lessons() : withCards(List.of(file));
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
        // Each koan lesson 6 runs again and its original, both ways, looked up once: every koan needs its twin.
        Map<Method, String> numberOf = new HashMap<>();
        Map<Method, Method> twinOf = new HashMap<>();
        numbered.values().forEach(koans -> koans.forEach(koan -> {
            numberOf.put(koan.method(), koan.number());
            if (koan.method().isAnnotationPresent(AgainOnPostgres.class)) {
                Method original = original(koan.method());
                twinOf.put(koan.method(), original);
                twinOf.put(original, koan.method());
            }
        }));
        return lessonClasses.stream().map(lessonClass -> new LessonEntry(lessonClass.getAnnotation(Lesson.class),
                lessonClass, numbered.get(lessonClass).stream().map(koan -> entry(koan,
                        Optional.ofNullable(twinOf.get(koan.method())), numberOf)).toList()))
                .toList();
    }

    private static KoanEntry entry(Numbered koan, Optional<Method> twin, Map<Method, String> numberOf) {
        KoanCard card = card(koan, twin, twin.map(numberOf::get));
        return new KoanEntry(card, KoanDisplayNames.name(koan.method().getName(), card.teaches()), koan.testClass(),
                koan.method());
    }

    private static KoanCard card(Numbered koan, Optional<Method> twin, Optional<String> twinNumber) {
        AgainOnPostgres again = koan.method().getAnnotation(AgainOnPostgres.class);
        if (again == null) {
            Koan written = koan.method().getAnnotation(Koan.class);
            return new KoanCard(koan.number(), written.teaches(), written.edit(), List.of(written.hints()), twinNumber);
        }
        return new KoanCard(koan.number(), twin.orElseThrow().getAnnotation(Koan.class).teaches(), again.edit(),
                List.of(again.hints()), twinNumber);
    }

    /** The earlier lesson's koan that an {@link AgainOnPostgres} method overrides. */
    private static Method original(Method again) {
        return Stream.of(again.getDeclaringClass().getInterfaces())
                .flatMap(type -> ReflectionSupport.findMethod(type, again.getName()).stream())
                .filter(method -> method.isAnnotationPresent(Koan.class)).findFirst()
                .orElseThrow(() -> new IllegalStateException(again.getDeclaringClass().getName() + "#"
                        + again.getName() + " is marked @AgainOnPostgres but overrides no @Koan of an interface"));
    }

    private static int number(Class<?> lessonClass) {
        return lessonClass.getAnnotation(Lesson.class).value();
    }

    /** The koans of one lesson in the order its file is written in, each numbered by its place there. */
    private static List<Numbered> numbered(Class<?> lessonClass) {
        Lesson lesson = lessonClass.getAnnotation(Lesson.class);
        if (lesson == null) {
            throw new IllegalStateException(lessonClass.getName() + " is no lesson: it has no @Lesson");
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
