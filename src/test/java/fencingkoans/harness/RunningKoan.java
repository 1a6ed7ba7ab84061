package fencingkoans.harness;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Publishes the number of the koan that runs now where a stub's {@code NotWrittenYet} reads it, so that its message
 * names that koan without a number written in the stub. Koans run one at a time, so one property serves them.
 */
public final class RunningKoan implements BeforeEachCallback, AfterEachCallback {

    /**
     * {@code PROPERTY}, written out: the grader compiles the harness without the course's main
     * classes. KoanNumbersTest checks that the two agree.
     */
    public static final String PROPERTY = "fencingkoans.running-koan";

    /**
     * Set in a graded JVM: there nothing is published, so that learner code cannot learn which koan calls it (a
     * stub's message reads the number) and answer each koan from a table.
     */
    public static final String GRADED = "fencingkoans.graded";

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!Boolean.getBoolean(GRADED)) {
            Course.card(context.getRequiredTestClass(), context.getRequiredTestMethod())
                    .ifPresent(card -> System.setProperty(PROPERTY, card.number()));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.clearProperty(PROPERTY);
    }
}
