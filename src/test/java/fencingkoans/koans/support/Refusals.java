package fencingkoans.koans.support;

import static fencingkoans.koans.support.Thrown.assertThrown;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.destination.Destination;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** The check of every malformed-request koan: a clear error naming the field, and not one row changed. */
public final class Refusals {

    /** The fields a refusal can be about; a null request has none of them. */
    private static final List<String> FIELDS = List.of("resource", "requestId", "generation", "delta");

    private Refusals() {
    }

    public static void assertRefusedBeforeAnyEffect(Destination course, String field, ApplyRequest... malformed) {
        Destination.Worker worker = course.worker();
        List<String> before = course.contents();
        for (ApplyRequest request : malformed) {
            AtomicReference<ApplyResult> answer = new AtomicReference<>();
            Throwable refusal = catchThrowable(() -> answer.set(worker.apply(request)));
            String expected = printable(String.valueOf(request)) + " must be refused with an IllegalArgumentException "
                    + "whose message names '" + field + "'";
            assertThrown(refusal, refusal == null ? expected : expected + ", but apply threw "
                    + printable(refusal.toString()), "apply returned " + printable(String.valueOf(answer.get())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(field);
            if (FIELDS.contains(field)) {
                assertThat(firstFieldNamedIn(refusal.getMessage())).as("the first of the request's fields that the "
                        + "refusal of %s names, in \"%s\": the field that is wrong comes first, so that the caller "
                        + "knows which one to fix (a message that quotes the whole request names them all)",
                        printable(String.valueOf(request)), printable(refusal.getMessage())).isEqualTo(field);
            }
        }
        assertThat(course.contents()).as("every row of the database after the refused request: a refusal "
                + "happens before any effect").isEqualTo(before);
    }

    private static String firstFieldNamedIn(String message) {
        return FIELDS.stream().filter(message::contains).min(Comparator.comparingInt(message::indexOf))
                .orElse("none of them");
    }

    /**
     * The text with control characters, surrogates and white space other than a space written as Java escapes: a
     * lone half of a surrogate pair cuts a build tool's console output short, a newline would split the line it is
     * quoted in, and an ideographic space looks like nothing at all.
     */
    static String printable(String text) {
        StringBuilder shown = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || Character.isSurrogate(c)
                    || c != ' ' && (Character.isWhitespace(c) || Character.isSpaceChar(c))) {
                shown.append(String.format("\\u%04X", (int) c));
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }
}
