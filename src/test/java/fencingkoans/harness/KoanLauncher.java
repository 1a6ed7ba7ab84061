package fencingkoans.harness;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The one way the course's own tools run the koans (watch mode, the course check, grading): lessons of the
 * {@link Course}, loaded by {@code loader}, with the listeners given and no listener found on the class path.
 */
public final class KoanLauncher {

    private final Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
            .enableTestExecutionListenerAutoRegistration(false).build());

    /**
     * Runs every koan but those in {@code leaveOut} (keys of {@link KoanResults#key}), with the given configuration
     * parameters, and returns when the run is over.
     */
    public void run(ClassLoader loader, Map<String, String> configuration, Set<String> leaveOut,
            TestExecutionListener... listeners) {
        PostDiscoveryFilter notLeftOut = descriptor -> descriptor.getSource()
                .filter(source -> source instanceof MethodSource method
                        && leaveOut.contains(KoanResults.key(method.getClassName(), method.getMethodName())))
                .map(left -> FilterResult.excluded("run already"))
                .orElse(FilterResult.included("still to run"));
        run(loader, lessons(loader, lesson -> true), configuration, List.of(notLeftOut), listeners);
    }

    /** Runs what {@code selectors} select, with the classes of {@code loader}, and returns when the run is over. */
    public void run(ClassLoader loader, List<? extends DiscoverySelector> selectors, Map<String, String> configuration,
            List<? extends Filter<?>> filters, TestExecutionListener... listeners) {
        var request = LauncherDiscoveryRequestBuilder.request().selectors(selectors)
                .configurationParameters(configuration).filters(filters.toArray(Filter<?>[]::new)).build();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            launcher.execute(request, listeners);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * The lessons of the course whose class names {@code which} accepts, in course order, as {@code loader} loads
     * them. The course that {@code loader} loads finds them: only its own {@link Course} reads its own {@link Lesson}.
     */
    public static List<ClassSelector> lessons(ClassLoader loader, Predicate<String> which) {
        try {
            List<?> names = (List<?>) Class.forName(Course.class.getName(), true, loader).getMethod("lessonClassNames")
                    .invoke(null);
            List<ClassSelector> lessons = new ArrayList<>();
            for (Object name : names) {
                if (which.test((String) name)) {
                    lessons.add(DiscoverySelectors.selectClass(Class.forName((String) name, false, loader)));
                }
            }
            return lessons;
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException error ? error : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the course cannot be loaded from " + loader.getName(), e);
        }
    }
}
