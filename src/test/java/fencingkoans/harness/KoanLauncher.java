package fencingkoans.harness;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import java.util.Set;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The one way the course's own tools run the koans (watch mode, the course check, grading): every lesson of the
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
                .filter(source -> source instanceof org.junit.platform.engine.support.descriptor.MethodSource method
                        && leaveOut.contains(KoanResults.key(method.getClassName(), method.getMethodName())))
                .map(left -> FilterResult.excluded("run already"))
                .orElse(FilterResult.included("still to run"));
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(Course.lessonClassNames().stream().map(name -> selectClass(loader, name)).toList())
                .configurationParameters(configuration).filters(notLeftOut).build();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            launcher.execute(request, listeners);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
