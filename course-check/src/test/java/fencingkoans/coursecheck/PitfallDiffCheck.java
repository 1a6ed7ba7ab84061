package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A gallery variant is applied exactly as written, also where a removed SQL comment looks like a file header. */
class PitfallDiffCheck {

    @Test
    void aRemovedSqlCommentLineIsReadAsARemovedLine(@TempDir Path work) throws IOException {
        Path reference = Files.createDirectories(work.resolve("reference/src/main/resources"));
        Files.writeString(reference.resolve("f.sql"), "SELECT 1;\n-- a comment\nSELECT 2;\n");
        Pitfall variant = new Pitfall("drops-a-comment", "drops a comment", List.of("Lesson6PostgresKoans#aKoan"),
                List.of(
                        "--- a/src/main/resources/f.sql",
                        "+++ b/src/main/resources/f.sql",
                        "@@ -1,3 +1,2 @@",
                        " SELECT 1;",
                        "--- a comment",
                        " SELECT 2;"));

        Path variantTrack = variant.makeIn(work.resolve("reference"), work.resolve("variant"));

        assertThat(Files.readString(variantTrack.resolve("src/main/resources/f.sql")))
                .as("the variant removes the comment line '-- a comment' and keeps the rest")
                .isEqualTo("SELECT 1;\nSELECT 2;\n");
    }
}
