package fencingkoans.koans.support;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.destination.Destination.Worker;
import org.assertj.core.api.AbstractThrowableAssert;

/**
 * The start of every check of an exception a koan expects. When nothing was thrown, AssertJ would say only
 * "Expecting actual not to be null" under the koan's description; here the failure says what happened instead.
 */
public final class Thrown {

    private Thrown() {
    }

    /**
     * {@code thrown}, described, for the checks that follow; if it is null, a failure right away that names
     * {@code instead}, what happened in its place ("apply returned Applied[value=7]", "the write went through").
     */
    public static AbstractThrowableAssert<?, ? extends Throwable> assertThrown(Throwable thrown, String description,
            String instead) {
        if (thrown == null) {
            throw new AssertionError("[" + description + "]" + System.lineSeparator() + "Nothing was thrown: "
                    + instead + ".");
        }
        return assertThat(thrown).as(description);
    }

    /**
     * The worker's answer to {@code request}, or what it threw, as text: for a koan that expects an answer and must
     * say so plainly when an exception came instead.
     */
    public static Object answerOrFailure(Worker worker, ApplyRequest request) {
        try {
            return worker.apply(request);
        } catch (RuntimeException failure) {
            return failure.toString();
        }
    }
}
