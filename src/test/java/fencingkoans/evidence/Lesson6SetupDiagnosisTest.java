package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import fencingkoans.harness.CourseClassLoader;
import fencingkoans.harness.KoanReport;
import fencingkoans.koans.support.PostgresServer;
import fencingkoans.pg.PgDatabase;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * What the koan report tells a learner whose SQL breaks lesson 6's set-up. Each case breaks the reference's
 * {@code apply_request.sql} or {@code grants.sql} the way a learner could, runs lesson 6's koans on it through the
 * JUnit launcher, on the real server, and reads the report: the real cause, the file and its line and column, and
 * a hint for that cause instead of koan 6.1's. Skipped, with the reason, without a server.
 */
@ExtendWith(PostgresServer.class)
class Lesson6SetupDiagnosisTest {

    private static final Path REFERENCE = Path.of("solutions/src/main/resources/fencingkoans/pg");
    private static final String APPLY_REQUEST = "apply_request.sql";
    private static final String GRANTS = "grants.sql";
    private static final String KOAN_6_1_HINT = "The worker now calls fencing.apply_request";
    private static final String GRANT_EXECUTE =
            "GRANT EXECUTE ON FUNCTION fencing.apply_request(text, bigint, text, bigint) TO ${worker};";

    @TempDir
    private Path learnerResources;

    /**
     * A broken file, the edit that breaks it, the text at which the report must place the mistake (its first
     * occurrence in the broken file), what the cause must say and what the first hint must talk about.
     */
    static Stream<Arguments> brokenLearnerFiles() {
        return Stream.of(
                arguments("no GRANT EXECUTE to the worker after revoking it from PUBLIC", GRANTS,
                        edit(GRANT_EXECUTE, ""), "REVOKE ALL ON FUNCTION",
                        "may not execute fencing.apply_request", "Revoking from PUBLIC"),
                arguments("table privileges revoked, function not SECURITY DEFINER", APPLY_REQUEST,
                        edit("    SECURITY DEFINER\n", ""), "LANGUAGE plpgsql",
                        "runs with the rights of its caller", "caller's rights"),
                arguments("USAGE on the schema revoked from PUBLIC", GRANTS,
                        edit("REVOKE ALL ON FUNCTION",
                                "REVOKE ALL ON SCHEMA fencing FROM PUBLIC;\nREVOKE ALL ON FUNCTION"),
                        "REVOKE ALL ON SCHEMA", "may not look into schema fencing", "USAGE on a schema"),
                arguments("a PL/pgSQL statement without its semicolon", APPLY_REQUEST,
                        edit("    END IF;\n\n    -- The record", "    END IF\n\n    -- The record"),
                        "SELECT * INTO earlier", "cannot read apply_request.sql", "first word"),
                arguments("a syntax error after ${worker} and a wide character on the same line", GRANTS,
                        edit(GRANT_EXECUTE, "GRANT /* \uD83D\uDD12 */ EXECUTE ON FUNCTION fencing.apply_request(text, "
                                + "bigint, text, bigint) TO ${worker} WITH GRANT OPTON;"),
                        "OPTON", "cannot read grants.sql", "first word"),
                arguments("the grant names the function with other argument types", GRANTS,
                        edit(GRANT_EXECUTE, GRANT_EXECUTE.replace("bigint", "integer")), "GRANT EXECUTE",
                        "argument types that no function has", "argument types"),
                arguments("the function declared with another signature", APPLY_REQUEST,
                        edit("p_delta bigint", "p_delta integer"), "CREATE FUNCTION",
                        "creates fencing.apply_request(p_resource text, p_generation bigint, p_request_id text, "
                                + "p_delta integer", "schema, its name and its argument types"),
                arguments("the function created outside schema fencing", APPLY_REQUEST,
                        edit("CREATE FUNCTION fencing.apply_request", "CREATE FUNCTION apply_request"),
                        "CREATE FUNCTION", "creates public.apply_request", "schema, its name"),
                arguments("a RETURNS clause that contradicts the OUT parameters", APPLY_REQUEST,
                        edit("    LANGUAGE plpgsql", "    RETURNS bigint\n    LANGUAGE plpgsql"), "CREATE FUNCTION",
                        "refuses the declaration of the function", "four OUT parameters"),
                arguments("the worker written as a role name of its own", GRANTS,
                        edit("TO ${worker};", "TO worker;"), "GRANT EXECUTE", "names a role or a type",
                        "How does your file name the worker role?"),
                arguments("a table misspelt in a statement of the body", APPLY_REQUEST,
                        edit("UPDATE resources SET", "UPDATE resource SET"), "UPDATE resource SET",
                        "names something PostgreSQL cannot find", "spelt as the header lists it"),
                arguments("a function called with an argument type it does not take", APPLY_REQUEST,
                        edit("OR btrim(p_request_id) = ''", "OR btrim(p_generation) = ''"),
                        "IF p_request_id IS NULL OR btrim(p_generation)", "names something PostgreSQL cannot find",
                        "the types of its arguments"),
                arguments("unqualified names and no search_path", APPLY_REQUEST,
                        edit("    SET search_path = fencing, pg_temp\n", ""), "target  resources%ROWTYPE",
                        "names a schema, table or column", "Check the spelling"),
                arguments("the placeholder written with a capital letter", GRANTS,
                        edit("TO ${worker};", "TO ${Worker};"), "${Worker}", "cannot read grants.sql", "first word"),
                arguments("an apply_request.sql with nothing left in it", APPLY_REQUEST,
                        (UnaryOperator<String>) text -> "",
                        "", "creates no function of that name", "schema, its name"),
                arguments("the function created twice", APPLY_REQUEST, (UnaryOperator<String>) text -> text + "\n"
                                + text.substring(text.indexOf("CREATE FUNCTION"))
                                        .replace("CREATE FUNCTION", "CREATE  FUNCTION"),
                        "CREATE  FUNCTION", "creates something that already exists", "a second CREATE FUNCTION"),
                arguments("a statement the owner role may not run", GRANTS,
                        edit(GRANT_EXECUTE, GRANT_EXECUTE + "\nALTER ROLE ${worker} NOINHERIT;"), "ALTER ROLE",
                        "The owner role may not do what grants.sql line 8 asks", "owns schema fencing"),
                arguments("a table name misspelt in a grant", GRANTS,
                        edit("REVOKE ALL ON ALL TABLES IN SCHEMA fencing", "REVOKE ALL ON TABLE fencing.resource"),
                        "REVOKE ALL ON TABLE", "names a schema, table or column", "Check the spelling"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenLearnerFiles")
    void theReportNamesTheRealCauseTheFileAndThePlace(String mistake, String brokenFile, UnaryOperator<String> edit,
            String markedText, String cause, String hint) throws Exception {
        String broken = edit.apply(Files.readString(REFERENCE.resolve(brokenFile)));
        writeLearnerFiles(brokenFile, broken);

        List<String> report = lesson6Report();

        assertThat(report).as("the report on %s: the set-up's cause, not a koan's expectation", mistake)
                .anySatisfy(line -> assertThat(line).startsWith("  What failed: the lesson's set-up").contains(cause));
        assertThat(report).as("the file and the place to edit: where '%s' is in the broken %s", markedText, brokenFile)
                .contains("  Edit:        exercises/src/main/resources/fencingkoans/pg/" + brokenFile + ":"
                        + placeOf(markedText, broken) + "  (line " + placeOf(markedText, broken).replace(":",
                        ", column ") + ")");
        assertThat(report).as("the first hint is written for this cause").anySatisfy(line ->
                assertThat(line).startsWith("  Hint 1 of 2:  ").contains(hint));
        assertThat(String.join("\n", report)).as("koan 6.1's own hint, which does not help here")
                .doesNotContain(KOAN_6_1_HINT);
    }

    /**
     * A statement that fails only when it runs, on the learner's line 64: PostgreSQL names its line in the body,
     * and the report must also name the line of the file, read from the server's own count. Koan 6.1 runs a body
     * written in lesson 1's file: the report names that place too.
     */
    @Test
    void aFailureInsideTheFunctionIsPlacedInTheLearnersFile() throws Exception {
        String failingStatement = "INSERT INTO request_records";
        String broken = edit("p_generation, answer);", "p_generation, answer / 0);")
                .apply(Files.readString(REFERENCE.resolve(APPLY_REQUEST)));
        writeLearnerFiles(APPLY_REQUEST, broken);

        String report = String.join("\n", lesson6Report());

        Matcher serverSaid = Pattern.compile("PL/pgSQL function (?:fencing\\.)?apply_request\\([^)]*\\) line (\\d+)")
                .matcher(report);
        assertThat(serverSaid.find()).as("the server's own line in the body, quoted in the report:%n%s", report)
                .isTrue();
        String fileLine = placeOf(failingStatement, broken).split(":")[0];
        assertThat(report).as("the line PostgreSQL named, placed in the learner's file where '%s' is",
                failingStatement).contains("(line " + serverSaid.group(1) + " of the function is "
                        + "exercises/src/main/resources/fencingkoans/pg/apply_request.sql:" + fileLine + ")");
        assertThat(report).as("the koan's override in lesson 6 and its body in lesson 1's file").containsPattern(
                "  The koan:    src/test/java/fencingkoans/koans/Lesson6PostgresKoans\\.java:\\d+, its body at "
                        + "src/test/java/fencingkoans/koans/Lesson1StaleAuthorityKoans\\.java:\\d+");
    }

    private static UnaryOperator<String> edit(String what, String into) {
        return text -> {
            assertThat(text).as("the reference SQL this case edits").contains(what);
            return text.replace(what, into);
        };
    }

    /** "line:column" of the first {@code text} in {@code file}, columns counted in characters as PostgreSQL does. */
    private static String placeOf(String text, String file) {
        String before = file.substring(0, file.indexOf(text));
        String lastLine = before.substring(before.lastIndexOf('\n') + 1);
        return before.split("\n", -1).length + ":" + (lastLine.codePointCount(0, lastLine.length()) + 1);
    }

    private void writeLearnerFiles(String brokenFile, String broken) throws IOException {
        Path folder = Files.createDirectories(learnerResources.resolve("fencingkoans/pg"));
        for (String file : List.of(APPLY_REQUEST, GRANTS)) {
            Files.writeString(folder.resolve(file), file.equals(brokenFile) ? broken
                    : Files.readString(REFERENCE.resolve(file)));
        }
    }

    /**
     * Lesson 6's koans run on the learner's files (ahead of the reference's), and the report written after them,
     * to a file of this test's own, whatever the build asked of the run around it.
     */
    private List<String> lesson6Report() throws IOException, ReflectiveOperationException, URISyntaxException {
        List<Path> classes = List.of(learnerResources, codeFolderOf(PgDatabase.class), codeFolderOf(getClass()));
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build());
        Path reportFile = learnerResources.resolve("report.txt");
        String buildsReportFile = System.setProperty(KoanReport.REPORT_FILE, reportFile.toString());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (CourseClassLoader course = new CourseClassLoader("broken-learner-sql", classes, previous)) {
            thread.setContextClassLoader(course);
            TestExecutionListener report = (TestExecutionListener) course.loadClass(KoanReport.class.getName())
                    .getDeclaredConstructor().newInstance();
            launcher.execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(DiscoverySelectors.selectClass(course, "fencingkoans.koans.Lesson6PostgresKoans"))
                    .build(), report);
        } finally {
            thread.setContextClassLoader(previous);
            if (buildsReportFile == null) {
                System.clearProperty(KoanReport.REPORT_FILE);
            } else {
                System.setProperty(KoanReport.REPORT_FILE, buildsReportFile);
            }
        }
        return Files.readAllLines(reportFile, StandardCharsets.UTF_8);
    }

    private static Path codeFolderOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
