package fencingkoans.bench;

import fencingkoans.harness.Course;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The test time of one whole run of lessons 1 to 5 on the reference, every koan (focus off), in a JVM that has run
 * them before: what watch mode spends on the koans once a learner has solved those lessons.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 15)
@Fork(1)
@State(Scope.Benchmark)
public class LessonRunBenchmark {

    private static final int LAST_LESSON = 5;

    /** Without the koan report: the run is timed, not read. */
    private final Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
            .enableTestExecutionListenerAutoRegistration(false).build());
    private final LauncherDiscoveryRequest lessonsOneToFive = LauncherDiscoveryRequestBuilder.request()
            .selectors(Course.lessons().stream().filter(lesson -> lesson.lesson().value() <= LAST_LESSON)
                    .map(lesson -> DiscoverySelectors.selectClass(lesson.testClass())).toList())
            .configurationParameter("koans.focus", "off")
            .build();

    @Benchmark
    public TestExecutionSummary referenceRunOfLessonsOneToFive() {
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(lessonsOneToFive, summary);
        TestExecutionSummary result = summary.getSummary();
        if (result.getTotalFailureCount() > 0 || result.getTestsSucceededCount() == 0) {
            throw new IllegalStateException("the reference must pass every koan of lessons 1 to 5: "
                    + result.getTestsSucceededCount() + " passed, " + result.getTotalFailureCount() + " failed, "
                    + List.of(result.getFailures()));
        }
        return result;
    }
}
