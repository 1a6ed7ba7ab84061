package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.lab.ObservedRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the lab walkthrough reports a scenario this machine cannot play, and one that throws. */
class ObservedRunTest {

    @Test
    void aScenarioThatNeedsAServerIsNotPlayedAndCountedApart(@TempDir Path parent) throws IOException {
        String printed = play(parent, run -> {
            run.scenario("1. Played", scene -> scene.observe("seen"));
            run.scenario("2. Needs a server", scene -> {
                throw new ObservedRun.NotPlayedHere("it needs a server");
            });
        });

        assertThat(printed).as("what the walkthrough printed")
                .contains("2. Needs a server\n  not played here: it needs a server\n")
                .endsWith("Every scenario played here ran to its end; not played here: 2. Needs a server.\n")
                .doesNotContain("Every scenario ran to its end.");
    }

    @Test
    void aScenarioThatThrowsIsReportedByTheFirstLineOfItsFailure(@TempDir Path parent) throws IOException {
        String printed = play(parent, run -> run.scenario("1. Throws", scene -> {
            throw new IllegalStateException("what failed\n  Where: a server's context line");
        }));

        assertThat(printed).as("what the walkthrough printed")
                .contains("  stopped: it threw java.lang.IllegalStateException: what failed\n")
                .contains("  - 1. Throws: it threw java.lang.IllegalStateException: what failed\n")
                .doesNotContain("Where:");
    }

    private static String play(Path parent, ObservedRun.Script script) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ObservedRun.play(out, parent, "Lab", script);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
