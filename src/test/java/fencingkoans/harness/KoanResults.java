package fencingkoans.harness;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The course's one results model: one {@link Result} per koan, keyed by the class it runs in and its method
 * ({@code fencingkoans.koans.Lesson1StaleAuthorityKoans#aWorker...}), never by a display name. A lesson class
 * that is skipped or fails as a whole passes its outcome on to each of its koans that did not run.
 */
public final class KoanResults implements TestExecutionListener {

    public enum Status { PASSED, FAILED, ERROR, TIMED_OUT, SKIPPED }

    /**
     * How one koan ended: {@code detail} is the reason or the first line of what went wrong, {@code failure} what
     * was thrown (null when nothing was).
     */
    public record Result(String key, Status status, String detail, Throwable failure) {
    }

    private static final String NEVER_STARTED = "never started";

    private final Map<String, Result> results = new LinkedHashMap<>();
    private final Consumer<String> onStart;
    private final Consumer<Result> onFinish;
    private TestPlan plan;

    /** Collects the results only. */
    public KoanResults() {
        this(key -> { }, result -> { });
    }

    /** Also hands every start and every settled koan to the given consumers, as it happens. */
    public KoanResults(Consumer<String> onStart, Consumer<Result> onFinish) {
        this.onStart = onStart;
        this.onFinish = onFinish;
    }

    public static String key(String className, String methodName) {
        return className + "#" + methodName;
    }

    public static Optional<String> key(TestIdentifier test) {
        return test.getSource().filter(MethodSource.class::isInstance).map(MethodSource.class::cast)
                .map(method -> key(method.getClassName(), method.getMethodName()));
    }

    public Map<String, Result> results() {
        return results;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        results.clear();
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        if (test.isTest()) {
            key(test).ifPresent(onStart);
        }
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        forEachKoanIn(test, koan -> settle(koan, Status.SKIPPED, reason, null));
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
            if (test.isTest()) {
                settle(test, Status.PASSED, "", null);
            }
            return;
        }
        Throwable failure = result.getThrowable().orElse(null);
        Status status = result.getStatus() == TestExecutionResult.Status.ABORTED ? Status.SKIPPED
                : failure instanceof TimeoutException ? Status.TIMED_OUT
                : failure instanceof AssertionError ? Status.FAILED
                : Status.ERROR;
        String detail = failure == null ? result.getStatus().toString() : firstLine(failure);
        forEachKoanIn(test, koan -> settle(koan, status, test.isTest() ? detail : "its lesson failed: " + detail,
                status == Status.SKIPPED ? null : failure));
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        testPlan.getRoots().forEach(root -> testPlan.getDescendants(root).stream().filter(TestIdentifier::isTest)
                .forEach(koan -> settle(koan, Status.SKIPPED, NEVER_STARTED, null)));
    }

    private void forEachKoanIn(TestIdentifier test, Consumer<TestIdentifier> action) {
        if (test.isTest()) {
            action.accept(test);
        } else if (plan != null) {
            plan.getDescendants(test).stream().filter(TestIdentifier::isTest).forEach(action);
        }
    }

    /** The first outcome of a koan stands: a lesson's later failure does not overwrite a koan that ran. */
    private void settle(TestIdentifier koan, Status status, String detail, Throwable failure) {
        key(koan).filter(key -> !results.containsKey(key)).ifPresent(key -> {
            Result result = new Result(key, status, detail, failure);
            results.put(key, result);
            onFinish.accept(result);
        });
    }

    private static String firstLine(Throwable failure) {
        String text = failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage();
        return text.strip().lines().findFirst().orElse("");
    }
}
