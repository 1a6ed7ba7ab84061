package fencingkoans.evidence;

import static fencingkoans.koans.support.Thrown.assertThrown;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;

/** The shared check of an expected exception: as strict as AssertJ's, and plain about what happened instead. */
class ThrownTest {

    @Test
    void nothingThrownSaysWhatHappenedInstead() {
        Throwable failure = catchThrowable(() -> assertThrown(null, "a worker's client writing the counter directly",
                "the write went through").isInstanceOf(IllegalStateException.class));

        assertThat(failure).as("the failure when nothing was thrown").isInstanceOf(AssertionError.class)
                .hasMessage("[a worker's client writing the counter directly]" + System.lineSeparator()
                        + "Nothing was thrown: the write went through.");
    }

    @Test
    void anExceptionOfAnotherTypeStillFails() {
        Throwable failure = catchThrowable(() -> assertThrown(new IllegalArgumentException("no"), "the refusal",
                "apply returned normally").isInstanceOf(IllegalStateException.class));

        assertThat(failure).as("the failure for an exception of the wrong type").isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("[the refusal]").hasMessageContaining("IllegalStateException");
    }

    @Test
    void theExpectedExceptionPasses() {
        assertThrown(new IllegalStateException("held"), "the refusal", "apply returned normally")
                .isInstanceOf(IllegalStateException.class).hasMessage("held");
    }
}
