package fencingkoans.koans.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import java.util.List;

/** The check of every malformed-request koan: a clear error naming the field, and not one row changed. */
public final class Refusals {

    private Refusals() {
    }

    public static void assertRefusedBeforeAnyEffect(Destination course, String field, ApplyRequest... malformed) {
        Destination.Worker worker = course.worker();
        List<String> before = course.contents();
        for (ApplyRequest request : malformed) {
            Throwable refusal = catchThrowable(() -> worker.apply(request));
            assertThat(refusal)
                    .as("%s must be refused with an IllegalArgumentException whose message names '%s', but apply %s",
                            request, field, refusal == null ? "returned normally" : "threw " + refusal)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(field);
        }
        assertThat(course.contents()).as("every row of the database after the refused request: a refusal "
                + "happens before any effect").isEqualTo(before);
    }
}
