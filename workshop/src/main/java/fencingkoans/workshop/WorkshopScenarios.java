package fencingkoans.workshop;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.destination.Destination;
import fencingkoans.lab.LeasePause;
import fencingkoans.lab.ObservedRun;
import fencingkoans.lab.Scene;
import fencingkoans.pg.PgServer;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.store.Authority;
import fencingkoans.store.Counterexamples;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The evidence for the design review's second part: each disturbance of the fictional scheduler, played on
 * the store the build compiled, on a fresh temporary database, printing only what it observed. Run one by
 * name, or all of them. The PostgreSQL contrast ({@link PostgresContrast}) answers to names of its own.
 */
public final class WorkshopScenarios {

    static final String ALL = "all";

    private record Entry(String title, ObservedRun.Scenario scenario) {
    }

    /** Keyed by the name a facilitator types, in the order the worksheet lists the disturbances. */
    private static final Map<String, Entry> SCENARIOS = new LinkedHashMap<>();
    /** Lesson 7's extension of the long pause: not part of {@code all}, which follows the worksheet. */
    private static final Map<String, Entry> ENSEMBLE_SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("long-pause", new Entry("long-pause: a worker resumes after a new generation was installed",
                WorkshopScenarios::longPause));
        SCENARIOS.put("lost-response", new Entry("lost-response: a worker never hears whether its request "
                + "took effect", scene -> lostResponse(scene, scene::observe)));
        SCENARIOS.put("direct-sql", new Entry("direct-sql: a write that never passes through apply",
                WorkshopScenarios::directSql));
        ENSEMBLE_SCENARIOS.put("lease-pause", new Entry("lease-pause: a worker's lease expires while it is paused, "
                + "on a ZooKeeper ensemble", LeasePause::play));
    }

    private WorkshopScenarios() {
    }

    /**
     * One argument: a scenario's name, or {@code all} (the default), or a PostgreSQL contrast's name, which
     * plays on the server in {@value PgServer#URL_VARIABLE}.
     */
    public static void main(String[] args) throws IOException {
        run(args.length == 0 ? ALL : args[0], System.out, ObservedRun.systemTemporaryDirectory(),
                System.getenv(PgServer.URL_VARIABLE));
    }

    /** {@code parent} holds the SQLite scenarios' temporary directory; {@code pgUrl} may be null. */
    static void run(String name, PrintStream out, Path parent, String pgUrl) throws IOException {
        if (PostgresContrast.names().contains(name)) {
            PostgresContrast.run(name, out, pgUrl);
            return;
        }
        List<Entry> chosen = choose(name);
        ObservedRun.play(out, parent, "Workshop scenarios",
                run -> chosen.forEach(entry -> run.scenario(entry.title(), entry.scenario())));
    }

    private static List<Entry> choose(String name) {
        if (ALL.equals(name)) {
            return List.copyOf(SCENARIOS.values());
        }
        Entry entry = SCENARIOS.containsKey(name) ? SCENARIOS.get(name) : ENSEMBLE_SCENARIOS.get(name);
        if (entry == null) {
            throw new IllegalArgumentException("There is no workshop scenario named '" + name + "'. Choose one of: "
                    + String.join(", ", SCENARIOS.keySet()) + ", or " + ALL + "; on a ZooKeeper ensemble: "
                    + String.join(", ", ENSEMBLE_SCENARIOS.keySet()) + "; against PostgreSQL: "
                    + String.join(", ", PostgresContrast.names()) + ".");
        }
        return List.of(entry);
    }

    private static void longPause(Scene scene) {
        FencedStore workerA = scene.store();
        FencedStore workerB = scene.store();
        Authority authority = scene.authority();

        long seen = workerA.read(FUND_A).orElseThrow().generation();
        scene.observe("worker A reads fund-A's generation: " + seen);
        scene.observe("worker A pauses before its write; during the pause:");
        scene.observe("  the authority installs generation 2: " + authority.install(FUND_A, 2).describe());
        scene.observe("  worker B applies b-1 (+5) with generation 2: "
                + workerB.apply(new ApplyRequest(FUND_A, 2, "b-1", 5)).describe());
        scene.observe("worker A resumes and applies a-1 (+7) with generation " + seen + ": "
                + workerA.apply(new ApplyRequest(FUND_A, seen, "a-1", 7)).describe());
        scene.observe("fund-A now: " + scene.describe(FUND_A));

        workerB.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> scene.observe(
                "  the authority tries to install generation 3: " + authority.install(FUND_A, 3).describe()));
        scene.observe("worker B applies b-2 (+3) with generation 2 and pauses inside apply, after its check and "
                + "before its effect; during the pause:");
        ApplyResult paused = workerB.apply(new ApplyRequest(FUND_A, 2, "b-2", 3));
        scene.observe("worker B resumes: " + paused.describe());
        scene.observe("the authority retries: " + authority.install(FUND_A, 3).describe());
    }

    /** Told once: on PostgreSQL the admitting function answers the resent request exactly as the store does. */
    static void lostResponse(Destination destination, Consumer<String> observe) {
        Destination.Worker workerA = destination.worker();
        Destination.Worker workerB = destination.worker();
        ApplyRequest r1 = new ApplyRequest(FUND_A, 1, "r1", 7);

        observe.accept("worker A sends r1 (+7) with generation 1; the destination answers \""
                + workerA.apply(r1).describe() + "\", and that answer is dropped before worker A sees it");
        observe.accept("the authority installs generation 2: " + destination.install(FUND_A, 2).describe());
        observe.accept("worker A, not knowing whether r1 took effect, sends r1 (+7) with generation 1 again: "
                + workerA.apply(r1).describe());
        observe.accept("fund-A now: " + destination.describe(FUND_A));

        observe.accept("worker B sends b-1 (+5) with generation 2; the destination answers \""
                + workerB.apply(new ApplyRequest(FUND_A, 2, "b-1", 5)).describe() + "\", and that answer is "
                + "dropped too");
        observe.accept("worker B sends the same intent again under a new request id, b-1-retry (+5): "
                + workerB.apply(new ApplyRequest(FUND_A, 2, "b-1-retry", 5)).describe());
        observe.accept("fund-A now: " + destination.describe(FUND_A));
    }

    private static void directSql(Scene scene) {
        FencedStore workerA = scene.store();
        ApplyRequest a1 = new ApplyRequest(FUND_A, 1, "a-1", 5);

        scene.observe("the authority installs generation 2: " + scene.authority().install(FUND_A, 2).describe());
        scene.observe("worker A, still holding generation 1, applies a-1 (+5) through the store: "
                + workerA.apply(a1).describe());
        Connection direct = scene.connection();
        Counterexamples.writeAroundTheStore(direct, FUND_A, 1_000);
        scene.observe("worker A opens the database file itself and sets fund-A's value to 1000 with plain SQL: "
                + "no error");
        scene.observe("fund-A now: " + scene.describe(FUND_A));
        Counterexamples.restoreGeneration(direct, FUND_A, 1);
        scene.observe("on the same connection, plain SQL sets fund-A's generation back to 1: no error");
        scene.observe("worker A retries a-1 (+5) through the store: " + workerA.apply(a1).describe());
        scene.observe("fund-A now: " + scene.describe(FUND_A));
        scene.observe("taking the UPDATE right away from a worker: " + attempt(direct,
                "REVOKE UPDATE ON resources FROM worker"));
    }

    private static String attempt(Connection connection, String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
            return sql + " succeeded";
        } catch (SQLException e) {
            return sql + " fails: " + e.getMessage();
        }
    }
}
