package fencingkoans.koans.support;

import fencingkoans.harness.KoanWatch;
import fencingkoans.pg.PgServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Finds the PostgreSQL server for the extension lesson, once per run, in this order: a superuser's JDBC URL in
 * {@value PgServer#URL_VARIABLE} (skipped with the reason when no login there works); else a container started
 * through Testcontainers when a Docker engine is reachable; else none, and then every koan of the lesson is
 * skipped with the reason, never passed or failed.
 */
public final class PostgresServer implements ExecutionCondition {

    /** The server, or none; {@code description} says where it came from, or why there is none. */
    private record Found(PgServer server, String description) {
    }

    private static Found found;

    /**
     * Decides koan by koan, not for the lesson class as a whole: a build tool then counts every koan of the lesson
     * as skipped, also those in its nested classes, instead of one skipped class.
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            return ConditionEvaluationResult.enabled("each koan of the lesson is decided on its own");
        }
        Found server = find();
        return server.server() != null
                ? ConditionEvaluationResult.enabled("PostgreSQL from " + server.description())
                : ConditionEvaluationResult.disabled(server.description());
    }

    /** The server; only called once the condition has let a koan run. */
    public static PgServer server() {
        PgServer server = find().server();
        if (server == null) {
            throw new IllegalStateException(find().description());
        }
        return server;
    }

    private static synchronized Found find() {
        if (found == null) {
            found = look();
            if (found.server() == null && Boolean.getBoolean(KoanWatch.RUNNING)) {
                // The report says why lesson 6 was skipped; watch mode adds that it will not look again.
                System.out.println("[watch] Lesson 6: looked for a PostgreSQL server once for this watch process, and "
                        + "found none. To run lesson 6, give it one as the report says, then start watch mode again.");
            }
        }
        return found;
    }

    private static Found look() {
        String url = System.getenv(PgServer.URL_VARIABLE);
        if (url != null && !url.isBlank()) {
            PgServer server = PgServer.fromJdbcUrl(url.strip(), null, null);
            // A server that cannot be reached is the set-up, not the learner's SQL: skipped, so lesson 7 goes on.
            return server.whyNoLogin().map(reason -> new Found(null, "Skipped: no login to the server in "
                    + PgServer.URL_VARIABLE + ". The driver says " + reason + " Is the server running (pg_isready "
                    + "says), and are the user and password in the URL right? Then run the koans again; watch mode "
                    + "looks for the server once, so start it again.")).orElseGet(() -> new Found(server,
                    PgServer.URL_VARIABLE));
        }
        if (!dockerMayBeRunning()) {
            return new Found(null, "Skipped: no PostgreSQL server for this extension lesson. Set " + PgServer.URL_VARIABLE
                    + " to a superuser's JDBC URL (for example jdbc:postgresql://127.0.0.1:5432/postgres"
                    + "?user=postgres&password=...) or start a Docker engine, then run the koans again.");
        }
        try {
            return new Found(PostgresContainer.start(), "a Testcontainers postgres container");
        } catch (RuntimeException | LinkageError e) {
            return new Found(null, "Skipped: a Docker engine seemed to be there, but no PostgreSQL container "
                    + "started (" + e + "). Set " + PgServer.URL_VARIABLE + " to a superuser's JDBC URL instead.");
        }
    }

    /** A cheap look for a Docker engine, so that a machine without one is not kept waiting by a full probe. */
    private static boolean dockerMayBeRunning() {
        String dockerHost = System.getenv("DOCKER_HOST");
        return (dockerHost != null && !dockerHost.isBlank())
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"))
                || System.getProperty("os.name", "").startsWith("Windows");
    }
}
