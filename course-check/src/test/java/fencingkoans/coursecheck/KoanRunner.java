package fencingkoans.coursecheck;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;

import fencingkoans.harness.CourseClassLoader;
import fencingkoans.harness.KoanLauncher;
import fencingkoans.harness.KoanResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.Filter;

/**
 * Runs the compiled koans in this JVM against one track's classes, through the harness's {@link KoanLauncher}:
 * the track's folder comes first, then the shared classes and the koans. Every koan runs, whatever fails before
 * it (the focus mode is switched off), and only the run's own {@link KoanResults} listens: a course reporter
 * would print one report per round.
 */
final class KoanRunner implements AutoCloseable {

    /** Which lesson classes a run may hold, by name: every one, or those a change can reach. */
    static final Predicate<String> EVERY_LESSON = lesson -> true;

    private static final Map<String, String> FOCUS_OFF = Map.of("koans.focus", "off");

    private final KoanLauncher launcher = new KoanLauncher();
    private final CourseClassLoader loader;
    private final Predicate<String> lessonClasses;

    KoanRunner(CourseTree tree, Path trackClasses) {
        this(tree, List.of(trackClasses), EVERY_LESSON);
    }

    /** {@code trackFolders} come first, in order: a folder of resources alone can stand before a track's classes. */
    KoanRunner(CourseTree tree, List<Path> trackFolders, Predicate<String> lessonClasses) {
        List<Path> folders = new ArrayList<>(trackFolders);
        folders.addAll(List.of(tree.sharedClasses(), tree.koanClasses()));
        loader = new CourseClassLoader("track", folders, KoanRunner.class.getClassLoader());
        this.lessonClasses = lessonClasses;
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
        return run(KoanLauncher.lessons(loader, lessonClasses), filters);
    }

    /**
     * Runs the lesson's {@code @Nested} groups one at a time, in the order JUnit gives them ({@code @Order}), and
     * stops after the first in which a koan does not pass: those koans, or none when every group passed. A lesson
     * without groups runs as one.
     */
    List<String> firstFailingGroup(String lessonClass) {
        Class<?> lesson = KoanLauncher.lessons(loader, lessonClass::equals).get(0).getJavaClass();
        List<List<? extends DiscoverySelector>> groups = Arrays.stream(lesson.getDeclaredClasses())
                .filter(nested -> nested.isAnnotationPresent(Nested.class))
                .sorted(Comparator.comparingInt(nested -> nested.isAnnotationPresent(Order.class)
                        ? nested.getAnnotation(Order.class).value() : Order.DEFAULT))
                .<List<? extends DiscoverySelector>>map(group -> List.of(selectNestedClass(List.of(lesson), group)))
                .toList();
        for (List<? extends DiscoverySelector> group : groups.isEmpty()
                ? List.of(KoanLauncher.lessons(loader, lessonClass::equals)) : groups) {
            List<String> failing = KoanRun.keys(run(group).notPassing());
            if (!failing.isEmpty()) {
                return failing;
            }
        }
        return List.of();
    }

    private KoanRun run(List<? extends DiscoverySelector> selectors, Filter<?>... filters) {
        KoanResults results = new KoanResults();
        launcher.run(loader, selectors, FOCUS_OFF, List.of(filters), results);
        if (results.results().isEmpty()) {
            throw new IllegalStateException("no koan ran: " + selectors);
        }
        return new KoanRun(results.results());
    }

    @Override
    public void close() {
        try {
            loader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the track's class loader", e);
        }
    }
}
