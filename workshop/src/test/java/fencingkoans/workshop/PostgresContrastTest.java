package fencingkoans.workshop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import fencingkoans.pg.PgServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the PostgreSQL contrast prints on the reference SQL, line for line, on the server in FENCING_PG_URL.
 * Without that variable these tests are skipped with the reason; the line printed without a server is checked
 * either way.
 */
class PostgresContrastTest {

    private static final String SERVER_URL = System.getenv(PgServer.URL_VARIABLE);

    private static final String HEADER = "PostgreSQL contrast: a database and roles of the run's own on the server "
            + "in FENCING_PG_URL\n\n";
    private static final String FOOTER = "\nDropped the run's database and roles.\nEvery scenario ran to its end.\n";

    private static final String LONG_PAUSE = """
            pg-long-pause: the long pause, against the PostgreSQL destination
              fund-A's installed generation when worker A starts: 1
              worker A pauses before its call; during the pause:
                the authority, as the owner role, installs generation 2: installed generation 2 on fund-A
                worker B calls fencing.apply_request for b-1 (+5) with generation 2: applied, value now 5
              worker A resumes and calls it for a-1 (+7) with generation 1: rejected STALE_GENERATION: generation 1 \
            was presented but generation 2 is installed
              fund-A now: generation 2, value 5, 1 request record
              worker B opens a transaction and calls it for b-2 (+3) with generation 2: applied, value now 8; it \
            pauses before its commit; during the pause:
                the authority tries to install generation 3: contended: the lock on fund-A is held elsewhere; a \
            retry may succeed
              worker B resumes and commits; fund-A now: generation 2, value 8, 2 request records
              the authority retries: installed generation 3 on fund-A
            """;

    private static final String LOST_RESPONSE = "pg-lost-response: the lost response, against the PostgreSQL "
            + "destination\n" + WorkshopScenariosTest.LOST_RESPONSE_STORY;

    private static final String DIRECT_SQL = """
            pg-direct-sql: direct SQL access, against the PostgreSQL destination
              the authority installs generation 2: installed generation 2 on fund-A
              worker A, still holding generation 1, calls fencing.apply_request for a-1 (+5): rejected \
            STALE_GENERATION: generation 1 was presented but generation 2 is installed
              worker A logs in as the worker role and sets fund-A's value to 1000 with plain SQL: refused with \
            SQLSTATE 42501 (insufficient privilege)
              on the same session, plain SQL sets fund-A's generation back to 1: refused with SQLSTATE 42501 \
            (insufficient privilege)
              worker A retries a-1 (+5) through fencing.apply_request: rejected STALE_GENERATION: generation 1 was \
            presented but generation 2 is installed
              fund-A now: generation 2, value 0, 0 request records
              whoever logs in as the owner role sets fund-A's value to 1000 with plain SQL: no error, 1 row changed
              fund-A now: generation 2, value 1000, 0 request records
            """;

    private static final Path FACILITATOR_GUIDE = Path.of("docs", "workshop", "facilitator-guide.md");

    @TempDir
    private Path parent;

    /** Each contrast scenario, what it must print, and the point of it; then the three in one run. */
    static Stream<Arguments> eachScenarioAndWhatItPrints() {
        return Stream.of(
                arguments("pg-long-pause", LONG_PAUSE, "the stale call must be rejected with only worker B's "
                        + "effect in place, and the authority must meet contention while worker B's transaction "
                        + "holds fund-A's row"),
                arguments("pg-lost-response", LOST_RESPONSE, "the same story as on SQLite: 7 replayed after a new "
                        + "generation, and a second effect under a new request id"),
                arguments("pg-direct-sql", DIRECT_SQL, "both plain UPDATEs of the worker role must be refused "
                        + "with SQLSTATE 42501 and change nothing, while the owner role's UPDATE lands"),
                arguments(PostgresContrast.ALL, LONG_PAUSE + "\n" + LOST_RESPONSE + "\n" + DIRECT_SQL,
                        "the three contrast scenarios in the worksheet's order, in one run"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eachScenarioAndWhatItPrints")
    void printsWhatItObservedOnTheReferenceSql(String name, String observed, String point) throws IOException {
        assumeTrue(SERVER_URL != null && !SERVER_URL.isBlank(), "Skipped: no PostgreSQL server for the contrast. "
                + "Set " + PgServer.URL_VARIABLE + " to a superuser's JDBC URL to run it.");

        assertThat(play(name, SERVER_URL)).as("the %s output: %s", name, point)
                .isEqualTo(HEADER + observed + FOOTER);
    }

    @Test
    void theFacilitatorGuideQuotesExactlyWhatPgDirectSqlPrints() throws IOException {
        assertThat(Files.readString(FACILITATOR_GUIDE, StandardCharsets.UTF_8)).as("the pg-direct-sql output "
                + "quoted in %s: when the scenario changes what it prints, copy its new output there",
                FACILITATOR_GUIDE)
                .contains("```text\n" + DIRECT_SQL + "```\n");
    }

    @Test
    void withoutAServerTheContrastSaysWhatItNeedsAndCreatesNothing() throws IOException {
        for (String name : PostgresContrast.names()) {
            assertThat(play(name, null)).as("what %s prints when %s is not set", name, PgServer.URL_VARIABLE)
                    .isEqualTo("The PostgreSQL contrast needs a PostgreSQL server: set FENCING_PG_URL to a "
                            + "superuser's JDBC URL (for example jdbc:postgresql://127.0.0.1:5432/postgres"
                            + "?user=postgres&password=...) and run it again. Nothing was played.\n");
        }
        try (Stream<Path> left = Files.list(parent)) {
            assertThat(left).as("temporary directories created when there is no server").isEmpty();
        }
    }

    private String play(String name, String url) throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        WorkshopScenarios.run(name, new PrintStream(printed, true, StandardCharsets.UTF_8), parent, url);
        return printed.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
