package fencingkoans.harness;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * One next step at a time: once a koan fails, every koan after it in course order is skipped as locked until
 * that koan passes. The first failure is kept in the store of the whole run, so focus crosses lesson classes
 * when they run together and stays within one lesson when its class runs alone. {@code -Dkoans.focus=off}
 * runs every koan.
 */
public final class KoanFocus implements ExecutionCondition, TestWatcher {

    public static final String SWITCH = "koans.focus";
    static final String LOCKED_PREFIX = "locked until koan ";

    private static final ExtensionContext.Namespace RUN = ExtensionContext.Namespace.create(KoanFocus.class);
    private static final String FIRST_FAILURE = "first failing koan";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty() || !focusOn(context)) {
            return ConditionEvaluationResult.enabled("focus applies to koans only");
        }
        String firstFailure = context.getRoot().getStore(RUN).get(FIRST_FAILURE, String.class);
        return firstFailure == null
                ? ConditionEvaluationResult.enabled("no koan has failed yet")
                : ConditionEvaluationResult.disabled(LOCKED_PREFIX + firstFailure + " passes");
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Optional<KoanCard> koan = context.getTestMethod()
                .flatMap(method -> Course.card(context.getRequiredTestClass(), method));
        koan.ifPresent(failed -> context.getRoot().getStore(RUN).getOrComputeIfAbsent(FIRST_FAILURE,
                key -> failed.number(), String.class));
    }

    private static boolean focusOn(ExtensionContext context) {
        return !"off".equalsIgnoreCase(context.getConfigurationParameter(SWITCH).orElse("on").trim());
    }
}
