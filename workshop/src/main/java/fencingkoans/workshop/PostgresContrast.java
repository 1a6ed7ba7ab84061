package fencingkoans.workshop;

import static fencingkoans.pg.PgRole.WORKER;
import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.destination.Destination;
import fencingkoans.destination.PgDestination;
import fencingkoans.lab.PostgresPaths;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgException;
import fencingkoans.pg.PgFencedStore;
import fencingkoans.pg.PgServer;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The contrast for the design review: the same three disturbances against the PostgreSQL destination of
 * lesson 6, with the reference admitting function and grants, on a database and roles created for the run and
 * dropped after it. Without a server it says what it needs and plays nothing.
 */
final class PostgresContrast {

    /** The name that plays all three contrast scenarios. */
    static final String ALL = "postgresql";

    static final String NEEDS_A_SERVER = "The PostgreSQL contrast needs a PostgreSQL server: set "
            + PgServer.URL_VARIABLE + " to a superuser's JDBC URL (for example jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres"
            + "&password=...) and run it again. Nothing was played.";

    /** The steps of one contrast scenario on the run's database, printing what it observes. */
    private interface Scenario {
        void run(PgDestination destination, Consumer<String> observe) throws SQLException;
    }

    private record Entry(String title, Scenario scenario) {
    }

    private static final Map<String, Entry> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("pg-long-pause", new Entry("pg-long-pause: the long pause, against the PostgreSQL "
                + "destination", PostgresContrast::longPause));
        SCENARIOS.put("pg-lost-response", new Entry("pg-lost-response: the lost response, against the PostgreSQL "
                + "destination", WorkshopScenarios::lostResponse));
        SCENARIOS.put("pg-direct-sql", new Entry("pg-direct-sql: direct SQL access, against the PostgreSQL "
                + "destination", PostgresPaths::play));
    }

    private PostgresContrast() {
    }

    /** The names this class answers to, in the worksheet's order, ending with {@link #ALL}. */
    static Set<String> names() {
        Set<String> names = new LinkedHashSet<>(SCENARIOS.keySet());
        names.add(ALL);
        return names;
    }

    /** Plays the named contrast scenario, or all three, on the server at {@code url}; with no URL, says so. */
    static void run(String name, PrintStream out, String url) {
        List<Entry> chosen = ALL.equals(name) ? List.copyOf(SCENARIOS.values()) : List.of(SCENARIOS.get(name));
        if (url == null || url.isBlank()) {
            out.println(NEEDS_A_SERVER);
            return;
        }
        out.println("PostgreSQL contrast: a database and roles of the run's own on the server in " + PgServer.URL_VARIABLE);
        try (PgDatabase database = PgDatabase.create(PgServer.fromJdbcUrl(url.strip(), null, null))) {
            for (Entry entry : chosen) {
                out.println();
                out.println(entry.title());
                database.reset();
                try (PgDestination destination = new PgDestination(database)) {
                    entry.scenario().run(destination, line -> out.println("  " + line));
                } catch (SQLException e) {
                    throw new PgException(entry.title(), e);
                }
            }
        }
        out.println();
        out.println("Dropped the run's database and roles.");
        out.println("Every scenario ran to its end.");
    }

    private static void longPause(PgDestination destination, Consumer<String> observe) throws SQLException {
        Destination.Worker workerA = destination.worker();
        Destination.Worker workerB = destination.worker();

        long seen = destination.generation(FUND_A);
        observe.accept("fund-A's installed generation when worker A starts: " + seen);
        observe.accept("worker A pauses before its call; during the pause:");
        observe.accept("  the authority, as the owner role, installs generation 2: "
                + destination.install(FUND_A, 2).describe());
        observe.accept("  worker B calls fencing.apply_request for b-1 (+5) with generation 2: "
                + workerB.apply(new ApplyRequest(FUND_A, 2, "b-1", 5)).describe());
        observe.accept("worker A resumes and calls it for a-1 (+7) with generation " + seen + ": "
                + workerA.apply(new ApplyRequest(FUND_A, seen, "a-1", 7)).describe());
        observe.accept("fund-A now: " + destination.describe(FUND_A));

        Connection pausedSession = destination.session(WORKER);
        pausedSession.setAutoCommit(false);
        observe.accept("worker B opens a transaction and calls it for b-2 (+3) with generation 2: "
                + new PgFencedStore(pausedSession).apply(new ApplyRequest(FUND_A, 2, "b-2", 3)).describe()
                + "; it pauses before its commit; during the pause:");
        observe.accept("  the authority tries to install generation 3: " + destination.install(FUND_A, 3).describe());
        pausedSession.commit();
        observe.accept("worker B resumes and commits; fund-A now: " + destination.describe(FUND_A));
        observe.accept("the authority retries: " + destination.install(FUND_A, 3).describe());
    }
}
