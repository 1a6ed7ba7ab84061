package fencingkoans.coursecheck;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;

import fencingkoans.coursecheck.KoanOutcome.Status;
import fencingkoans.harness.CourseClassLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the compiled koans in this JVM against one track's classes: the track's folder comes first, then the
 * shared classes and the koans. Every koan runs, whatever fails before it (the focus mode is switched off).
 */
final class KoanRunner implements AutoCloseable {

    private static final String KOAN_PACKAGE = "fencingkoans/koans/";
    private static final String NEVER_STARTED = "never started";

    /** Which lesson classes a run may hold, by name: every one, or those a change can reach. */
    static final Predicate<String> EVERY_LESSON = lesson -> true;

    private final CourseClassLoader loader;
    private final List<ClassSelector> lessons;
    /** The harness's {@code KoanCard.numberOf}, as the track's class loader sees it. */
    private final Method numberOf;

    KoanRunner(CourseTree tree, Path trackClasses) {
        this(tree, List.of(trackClasses), EVERY_LESSON);
    }

    /** {@code trackFolders} come first, in order: a folder of resources alone can stand before a track's classes. */
    KoanRunner(CourseTree tree, List<Path> trackFolders, Predicate<String> lessonClasses) {
        List<Path> folders = new ArrayList<>(trackFolders);
        folders.addAll(List.of(tree.sharedClasses(), tree.koanClasses()));
        loader = new CourseClassLoader("track", folders, KoanRunner.class.getClassLoader());
        lessons = Folders.filesEndingWith(tree.koanClasses().resolve(KOAN_PACKAGE), "Koans.class").stream()
                .map(file -> KOAN_PACKAGE.replace('/', '.') + file.getFileName().toString().replace(".class", ""))
                .filter(lessonClasses).map(name -> selectClass(load(name)))
                .toList();
        try {
            numberOf = load("fencingkoans.harness.KoanCard").getMethod("numberOf", Class.class, Method.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the harness has no KoanCard.numberOf", e);
        }
        if (lessons.isEmpty()) {
            throw new IllegalStateException("no compiled koans under " + tree.koanClasses());
        }
    }

    /** Compiles {@code track} into the check's work folder under {@code name} and runs every koan on it once. */
    static KoanRun runTrack(CourseTree tree, Path track, String name) {
        return runTrack(tree, track, name, EVERY_LESSON);
    }

    /** The same, with only the lesson classes that {@code lessonClasses} accepts. */
    static KoanRun runTrack(CourseTree tree, Path track, String name, Predicate<String> lessonClasses) {
        Path classes = TrackCompiler.compile(track, tree.sharedClasses(), tree.work().resolve("classes").resolve(name));
        try (KoanRunner runner = new KoanRunner(tree, List.of(classes), lessonClasses)) {
            return runner.run();
        }
    }

    KoanRun run(Filter<?>... filters) {
        return run(lessons, filters);
    }

    /**
     * Runs the lesson's {@code @Nested} groups one at a time, in the order JUnit gives them ({@code @Order}), and
     * stops after the first in which a koan does not pass: those koans, or none when every group passed.
     */
    List<String> firstFailingGroup(String lessonClass) {
        Class<?> lesson = load(lessonClass);
        List<Class<?>> groups = Arrays.stream(lesson.getDeclaredClasses())
                .filter(nested -> nested.isAnnotationPresent(Nested.class))
                .sorted(Comparator.comparingInt(nested -> nested.isAnnotationPresent(Order.class)
                        ? nested.getAnnotation(Order.class).value() : Order.DEFAULT))
                .toList();
        for (Class<?> group : groups) {
            List<String> failing = run(List.of(selectNestedClass(List.of(lesson), group))).notPassing().stream()
                    .map(KoanOutcome::koan).toList();
            if (!failing.isEmpty()) {
                return failing;
            }
        }
        return List.of();
    }

    private KoanRun run(List<? extends DiscoverySelector> selectors, Filter<?>... filters) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .filters(filters).configurationParameter("koans.focus", "off").build();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            // Only this check's recorder listens: a course reporter would print one report per round.
            Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                    .enableTestExecutionListenerAutoRegistration(false).build());
            Recorder recorder = new Recorder();
            launcher.execute(request, recorder);
            return recorder.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Override
    public void close() {
        try {
            loader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the track's class loader", e);
        }
    }

    private Class<?> load(String className) {
        try {
            return loader.loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(className + " is not among the compiled classes", e);
        }
    }

    /** The number the course shows for this koan where it runs: a koan lesson 6 runs again has its number there. */
    private String koanNumber(TestIdentifier test) {
        if (test.getSource().orElse(null) instanceof MethodSource source) {
            try {
                Class<?> testClass = load(source.getClassName());
                Method method = ReflectionSupport.findMethod(testClass, source.getMethodName()).orElseThrow();
                return (String) numberOf.invoke(null, testClass, method);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("reading the koan number of " + test.getDisplayName(), e);
            }
        }
        return test.getDisplayName();
    }

    /** Collects one outcome per koan; a koan that never ran because its lesson did not is skipped too. */
    private final class Recorder implements TestExecutionListener {

        private final Map<TestIdentifier, KoanOutcome> outcomes = new LinkedHashMap<>();
        private TestPlan plan;

        @Override
        public void testPlanExecutionStarted(TestPlan testPlan) {
            plan = testPlan;
            for (TestIdentifier root : testPlan.getRoots()) {
                testPlan.getDescendants(root).stream().filter(TestIdentifier::isTest)
                        .forEach(koan -> settle(koan, Status.SKIPPED, NEVER_STARTED));
            }
        }

        @Override
        public void executionSkipped(TestIdentifier identifier, String reason) {
            forEachKoanIn(identifier, koan -> settle(koan, Status.SKIPPED, reason));
        }

        @Override
        public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
            if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                if (identifier.isTest()) {
                    settle(identifier, Status.PASSED, null);
                }
                return;
            }
            String why = result.getThrowable().map(Throwable::toString).orElse(result.getStatus().toString());
            Status status = result.getStatus() == TestExecutionResult.Status.ABORTED ? Status.SKIPPED
                    : Status.FAILED;
            // A failed lesson (its set-up, say) leaves its koans unfinished: they carry the lesson's failure.
            forEachKoanIn(identifier, koan -> {
                if (koan == identifier || NEVER_STARTED.equals(outcomes.get(koan).detail())) {
                    settle(koan, status, why);
                }
            });
        }

        KoanRun run() {
            KoanRun run = new KoanRun();
            outcomes.values().forEach(run::record);
            return run;
        }

        private void forEachKoanIn(TestIdentifier identifier, Consumer<TestIdentifier> action) {
            if (identifier.isTest()) {
                action.accept(identifier);
            } else {
                plan.getDescendants(identifier).stream().filter(TestIdentifier::isTest).forEach(action);
            }
        }

        private void settle(TestIdentifier koan, Status status, String detail) {
            outcomes.put(koan, new KoanOutcome(koanNumber(koan), koan.getDisplayName(), status, detail));
        }
    }
}
