package fencingkoans.lab;

import static fencingkoans.pg.PgRole.OWNER;
import static fencingkoans.pg.PgRole.WORKER;
import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.destination.Destination;
import fencingkoans.destination.PgDestination;
import fencingkoans.pg.SqlState;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

/**
 * The paths around the protection, tried again on lesson 6's PostgreSQL destination, where roles and privileges
 * close them for the worker: told once, for the lab walkthrough and for the workshop's contrast.
 */
public final class PostgresPaths {

    private PostgresPaths() {
    }

    /** The lab's scenario: on the server in {@code FENCING_PG_URL}, and not played without one. */
    public static void play(Scene scene) {
        play(scene.postgres(), scene::observe);
    }

    public static void play(PgDestination destination, Consumer<String> observe) {
        Destination.Worker workerA = destination.worker();
        ApplyRequest a1 = new ApplyRequest(FUND_A, 1, "a-1", 5);

        observe.accept("the authority installs generation 2: " + destination.install(FUND_A, 2).describe());
        observe.accept("worker A, still holding generation 1, calls fencing.apply_request for a-1 (+5): "
                + workerA.apply(a1).describe());
        Connection asWorker = destination.session(WORKER);
        observe.accept("worker A logs in as the worker role and sets fund-A's value to 1000 with plain SQL: "
                + attempt(asWorker, "UPDATE fencing.resources SET value = 1000 WHERE name = '" + FUND_A + "'"));
        observe.accept("on the same session, plain SQL sets fund-A's generation back to 1: "
                + attempt(asWorker, "UPDATE fencing.resources SET generation = 1 WHERE name = '" + FUND_A
                        + "'"));
        observe.accept("worker A retries a-1 (+5) through fencing.apply_request: " + workerA.apply(a1).describe());
        observe.accept("fund-A now: " + destination.describe(FUND_A));
        observe.accept("whoever logs in as the owner role sets fund-A's value to 1000 with plain SQL: "
                + attempt(destination.session(OWNER), "UPDATE fencing.resources SET value = 1000 WHERE name = '"
                        + FUND_A + "'"));
        observe.accept("fund-A now: " + destination.describe(FUND_A));
    }

    /** Runs a write on {@code session} and says what the server answered: rows changed, or the SQLSTATE refusing it. */
    private static String attempt(Connection session, String sql) {
        try (Statement statement = session.createStatement()) {
            int rows = statement.executeUpdate(sql);
            return "no error, " + rows + (rows == 1 ? " row" : " rows") + " changed";
        } catch (SQLException e) {
            return "refused with SQLSTATE " + e.getSQLState()
                    + (SqlState.INSUFFICIENT_PRIVILEGE.equals(e.getSQLState()) ? " (insufficient privilege)"
                            : ": " + e.getMessage());
        }
    }
}
