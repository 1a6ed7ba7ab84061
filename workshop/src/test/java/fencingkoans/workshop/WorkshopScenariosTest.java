package fencingkoans.workshop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each workshop scenario prints on the reference store, line for line. The facilitator guide quotes
 * these lines as the evidence pairs cite, so a change in what a scenario observes must show up here first.
 */
class WorkshopScenariosTest {

    private static final String HEADER = "Workshop scenarios: temporary databases in <tmp>\n\n";
    private static final String FOOTER = "\nDeleted <tmp>.\nEvery scenario ran to its end.\n";

    private static final String LONG_PAUSE = """
            long-pause: a worker resumes after a new generation was installed
              worker A reads fund-A's generation: 1
              worker A pauses before its write; during the pause:
                the authority installs generation 2: installed generation 2 on fund-A
                worker B applies b-1 (+5) with generation 2: applied, value now 5
              worker A resumes and applies a-1 (+7) with generation 1: rejected STALE_GENERATION: generation 1 \
            was presented but generation 2 is installed
              fund-A now: generation 2, value 5, 1 request record
              worker B applies b-2 (+3) with generation 2 and pauses inside apply, after its check and before its \
            effect; during the pause:
                the authority tries to install generation 3: contended: the lock on fund-A is held elsewhere; a \
            retry may succeed
              worker B resumes: applied, value now 8
              the authority retries: installed generation 3 on fund-A
            """;

    /** The lost response's observations, the same on both destinations: the PostgreSQL contrast tests them too. */
    static final String LOST_RESPONSE_STORY = """
              worker A sends r1 (+7) with generation 1; the destination answers "applied, value now 7", and that \
            answer is dropped before worker A sees it
              the authority installs generation 2: installed generation 2 on fund-A
              worker A, not knowing whether r1 took effect, sends r1 (+7) with generation 1 again: replayed, the \
            stored answer 7
              fund-A now: generation 2, value 7, 1 request record
              worker B sends b-1 (+5) with generation 2; the destination answers "applied, value now 12", and that \
            answer is dropped too
              worker B sends the same intent again under a new request id, b-1-retry (+5): applied, value now 17
              fund-A now: generation 2, value 17, 3 request records
            """;

    private static final String LOST_RESPONSE = "lost-response: a worker never hears whether its request took "
            + "effect\n" + LOST_RESPONSE_STORY;

    private static final String DIRECT_SQL = """
            direct-sql: a write that never passes through apply
              the authority installs generation 2: installed generation 2 on fund-A
              worker A, still holding generation 1, applies a-1 (+5) through the store: rejected STALE_GENERATION: \
            generation 1 was presented but generation 2 is installed
              worker A opens the database file itself and sets fund-A's value to 1000 with plain SQL: no error
              fund-A now: generation 2, value 1000, 0 request records
              on the same connection, plain SQL sets fund-A's generation back to 1: no error
              worker A retries a-1 (+5) through the store: applied, value now 1005
              fund-A now: generation 1, value 1005, 1 request record
              taking the UPDATE right away from a worker: REVOKE UPDATE ON resources FROM worker fails: \
            [SQLITE_ERROR] SQL error or missing database (near "REVOKE": syntax error)
            """;

    private static final String LEASE_PAUSE = """
            lease-pause: a worker's lease expires while it is paused, on a ZooKeeper ensemble
              a ZooKeeper ensemble of three servers runs in this JVM
              worker A asks for the lease on fund-A: granted the lease on fund-A with generation 2
              worker A applies a-1 (+5) with generation 2: applied, value now 5
              worker A checks that it still holds the lease: true; then it pauses, before its next write
              during the pause, A's session expires on the ensemble, and its ephemeral lease node with it
              worker B asks for the lease on fund-A: granted the lease on fund-A with generation 3
              worker A resumes, sure that it holds the lease, and applies a-2 (+7) with generation 2: rejected \
            STALE_GENERATION: generation 2 was presented but generation 3 is installed
              fund-A now: generation 3, value 5, 1 request record
            """;

    private static final Path EVIDENCE_HAND_OUT = Path.of("docs", "workshop", "evidence.md");

    @TempDir
    private Path parent;

    @Test
    void aLongPauseEndsInARejectionAndAPauseInsideApplyHoldsOffTheAuthority() throws IOException {
        assertThat(play("long-pause")).as("the long-pause scenario's output: the stale worker must be rejected "
                + "with only worker B's effect in place, and the authority must meet contention while worker B "
                + "is paused inside apply").isEqualTo(HEADER + LONG_PAUSE + FOOTER);
    }

    @Test
    void aLostResponseIsAnsweredFromTheRecordButANewRequestIdAppliesTwice() throws IOException {
        assertThat(play("lost-response")).as("the lost-response scenario's output: resending r1 must replay 7 "
                + "after a new generation, and resending under a new id must apply a second time")
                .isEqualTo(HEADER + LOST_RESPONSE + FOOTER);
    }

    @Test
    void aDirectSqlWriteLandsAndSqliteHasNoPrivilegeToTakeAway() throws IOException {
        assertThat(play("direct-sql")).as("the direct-sql scenario's output: the plain SQL writes must land "
                + "where the store refused, and SQLite must have no REVOKE")
                .isEqualTo(HEADER + DIRECT_SQL + FOOTER);
    }

    @Test
    void aLeaseLostDuringAPauseEndsInARejectionAtTheDestination() throws IOException {
        assertThat(play("lease-pause")).as("the lease-pause scenario's output: worker B must be granted a higher "
                + "generation once A's session expired, and A's late write must be rejected as stale")
                .isEqualTo(HEADER + LEASE_PAUSE + FOOTER);
    }

    @Test
    void allRunsTheThreeScenariosInTheWorksheetsOrder() throws IOException {
        assertThat(play(WorkshopScenarios.ALL)).as("the output of all scenarios in one run")
                .isEqualTo(HEADER + LONG_PAUSE + "\n" + LOST_RESPONSE + "\n" + DIRECT_SQL + FOOTER);
    }

    @Test
    void theEvidenceHandOutQuotesExactlyWhatTheScenariosPrint() throws IOException {
        String handOut = asPrinted(Files.readAllLines(EVIDENCE_HAND_OUT, StandardCharsets.UTF_8));

        assertThat(HEADER + handOut + FOOTER).as("the scenario lists on %s, read back as output: when a scenario "
                + "changes what it prints, copy its new output onto the hand-out", EVIDENCE_HAND_OUT)
                .isEqualTo(play(WorkshopScenarios.ALL));
    }

    @Test
    void eachRunDeletesTheTemporaryDirectoryItCreated() throws IOException {
        play("direct-sql");

        try (Stream<Path> left = Files.list(parent)) {
            assertThat(left).as("files left behind in the parent directory after a scenario ran").isEmpty();
        }
    }

    @Test
    void anUnknownScenarioIsRefusedWithTheNamesThereAreAndCreatesNothing() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        assertThatThrownBy(() -> WorkshopScenarios.run("long-paws", new PrintStream(printed, true,
                StandardCharsets.UTF_8), parent, null))
                .as("a misspelt scenario name")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("There is no workshop scenario named 'long-paws'. Choose one of: long-pause, "
                        + "lost-response, direct-sql, or all; on a ZooKeeper ensemble: lease-pause; against "
                        + "PostgreSQL: pg-long-pause, pg-lost-response, pg-direct-sql, postgresql.");
        assertThat(printed.toString(StandardCharsets.UTF_8)).as("output before the refusal").isEmpty();
        try (Stream<Path> left = Files.list(parent)) {
            assertThat(left).as("temporary directories created for a refused name").isEmpty();
        }
    }

    /** Runs the scenario and returns its output with the random temporary directory written as {@code <tmp>}. */
    private String play(String name) throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        WorkshopScenarios.run(name, new PrintStream(printed, true, StandardCharsets.UTF_8), parent, null);
        return printed.toString(StandardCharsets.UTF_8)
                .replaceAll(Pattern.quote(parent.toString()) + "[^ .\\n]*", "<tmp>")
                .replace(System.lineSeparator(), "\n");
    }

    /**
     * The hand-out's scenario sections turned back into output: a level-2 heading is a scenario's title, a
     * list item one observation, a nested item one observation made during a pause. Prose is skipped.
     */
    private static String asPrinted(List<String> handOut) {
        StringBuilder printed = new StringBuilder();
        boolean inScenarios = false;
        for (String line : handOut) {
            if (line.startsWith("## ")) {
                printed.append(inScenarios ? "\n" : "").append(line.substring(3)).append('\n');
                inScenarios = true;
            } else if (inScenarios && line.startsWith("- ")) {
                printed.append("  ").append(line.substring(2)).append('\n');
            } else if (inScenarios && line.startsWith("  - ")) {
                printed.append("    ").append(line.substring(4)).append('\n');
            }
        }
        return printed.toString();
    }
}
