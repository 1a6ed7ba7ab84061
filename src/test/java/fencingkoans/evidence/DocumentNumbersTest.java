package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencingkoans.harness.Course;
import fencingkoans.harness.LessonPages;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A document other than a lesson page names a koan by a link to its hints, and the link's number is the one the
 * koan has now, wherever the document lies; a koan number typed without a link is refused, since a new koan would
 * leave it naming another koan.
 */
class DocumentNumbersTest {

    private static final Path NOTES = Path.of("docs/workshop/notes.md");
    private static final String KOAN = "aLargerGenerationInventedByTheWorkerIsRejected";

    @Test
    void aLinkTakesTheNumberItsKoanHasNow() {
        String written = "Caught by [9.9](../lessons/2-contract-per-resource.md#" + KOAN + "), as the gallery says.";

        String rewritten = LessonPages.documentWithDerivedNumbers(written, NOTES);

        assertThat(rewritten).as("a link written with a number the koan does not have, in a document two folders down")
                .isEqualTo("Caught by [" + numberOf(KOAN) + "](../lessons/2-contract-per-resource.md#" + KOAN
                        + "), as the gallery says.");
    }

    @Test
    void aKoanNumberTypedWithoutALinkIsRefused() {
        assertThatThrownBy(() -> LessonPages.documentWithDerivedNumbers("As koan 2.7 shows, and **4.5** too.", NOTES))
                .as("a document that calls a bare number a koan's").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("koan 2.7").hasMessageContaining(NOTES.toString());
    }

    @Test
    void timingsAndVersionsAreNoKoanNumbers() {
        String measured = "ZooKeeper 3.9 answered in 2.4 s, 1.7x the first save, at a load of 1.5.";

        assertThat(LessonPages.documentWithDerivedNumbers(measured, NOTES)).as("a document's figures")
                .isEqualTo(measured);
    }

    @Test
    void aLinkInACodeSpanIsAnExampleAndStaysAsWritten() {
        String example = "Write `[1.5](#methodName)` to name a koan.";

        assertThat(LessonPages.documentWithDerivedNumbers(example, NOTES)).as("a link quoted as code")
                .isEqualTo(example);
    }

    @Test
    void aLinkToNoKoanIsRefused() {
        assertThatThrownBy(() -> LessonPages.documentWithDerivedNumbers(
                "[2.1](../lessons/2-contract-per-resource.md#noSuchKoan)", NOTES))
                .as("a link whose koan was renamed or removed").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("noSuchKoan");
    }

    private static String numberOf(String method) {
        return Course.lessons().get(1).koans().stream().filter(koan -> koan.methodName().equals(method))
                .map(koan -> koan.card().number()).findFirst().orElseThrow();
    }
}
