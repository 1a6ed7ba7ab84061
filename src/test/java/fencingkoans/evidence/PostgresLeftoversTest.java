package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencingkoans.koans.support.PostgresServer;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgRole;
import fencingkoans.pg.PgServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A graded JVM that is killed drops nothing it made on lesson 6's server. The grader names each JVM's databases
 * and roles from a prefix of its own and drops what is left by that prefix, a session still sleeping in learner SQL
 * included, and nothing of anyone else's. Skipped, with the reason, without a server.
 */
@ExtendWith(PostgresServer.class)
class PostgresLeftoversTest {

    @Test
    void whatAKilledRunLeftIsDroppedByItsNamesAndNothingElse() throws Exception {
        PgServer server = PostgresServer.server();
        String names = "fencing_left_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        PgDatabase left = createdUnder(names);
        Connection owner = left.connect(PgRole.OWNER);
        CompletableFuture<Void> sleeping = CompletableFuture.runAsync(() -> sleepWithTheGuardOff(owner));
        try (PgDatabase someoneElses = PgDatabase.create(server)) {
            awaitSleeping(server, names);

            List<String> dropped = server.dropWhatIsLeft(names);

            assertThat(dropped).as("what was dropped for %s: its database and its three roles", names).hasSize(4)
                    .allMatch(name -> name.startsWith(names));
            assertThat(namesOnTheServer(server, names)).as("databases, roles and sessions left under %s", names)
                    .isEmpty();
            assertThatThrownBy(() -> sleeping.get(30, TimeUnit.SECONDS))
                    .as("the owner's sleep with the statement guard off, ended by the server")
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(someoneElses.connect(PgRole.OWNER).isValid(5)).as("another run's database, named otherwise")
                    .isTrue();
        } finally {
            owner.close();
        }
    }

    @Test
    void aStatementStillCreatingOneOfTheNamesIsEndedBeforeTheDrop() throws Exception {
        PgServer server = PostgresServer.server();
        String names = "fencing_left_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        // A superuser's statement sent before the kill, which creates a role of the run once it is done: its
        // session carries none of the names, only its text does.
        Connection superuser = server.connectAsSuperuser();
        CompletableFuture<Void> creating = CompletableFuture.runAsync(() -> {
            try (Statement statement = superuser.createStatement()) {
                statement.execute("SET statement_timeout = 0");
                statement.execute("DO $$ BEGIN PERFORM pg_catalog.pg_sleep(600); CREATE ROLE " + names
                        + "_late; END $$");
            } catch (SQLException ended) {
                throw new IllegalStateException(ended);
            }
        });
        try {
            awaitRunning(server, names);

            server.dropWhatIsLeft(names);

            assertThatThrownBy(() -> creating.get(30, TimeUnit.SECONDS))
                    .as("the statement that would have created %s_late after the drop, ended by it", names)
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(namesOnTheServer(server, names)).as("databases, roles and sessions left under %s", names)
                    .isEmpty();
        } finally {
            superuser.close();
        }
    }

    @Test
    void aPrefixThatIsNoneOfTheCoursesIsRefused() {
        assertThatThrownBy(() -> PostgresServer.server().dropWhatIsLeft("pg"))
                .as("a prefix that would match the server's own databases")
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static PgDatabase createdUnder(String names) {
        System.setProperty(PgServer.NAMES_PROPERTY, names);
        try {
            return PgDatabase.create(PostgresServer.server());
        } finally {
            System.clearProperty(PgServer.NAMES_PROPERTY);
        }
    }

    private static void sleepWithTheGuardOff(Connection owner) {
        try (Statement statement = owner.createStatement()) {
            statement.execute("SET statement_timeout = 0");
            statement.execute("SELECT pg_catalog.pg_sleep(600)");
        } catch (SQLException ended) {
            throw new IllegalStateException(ended);
        }
    }

    /** Until the server shows the owner's statement running, the state a killed JVM leaves it in. */
    private static void awaitSleeping(PgServer server, String names) throws Exception {
        awaitShown(() -> namesOnTheServer(server, names).contains("sleeping"), "the owner's sleep");
    }

    /** Until the server shows a statement whose text names {@code names} running. */
    private static void awaitRunning(PgServer server, String names) throws Exception {
        String query = "SELECT pg_catalog.count(*) FROM pg_catalog.pg_stat_activity WHERE state = 'active' AND "
                + "pg_catalog.strpos(query, '" + names + "_late') > 0 AND pid <> pg_catalog.pg_backend_pid()";
        try (Connection superuser = server.connectAsSuperuser(); Statement statement = superuser.createStatement()) {
            awaitShown(() -> {
                try (ResultSet rows = statement.executeQuery(query)) {
                    rows.next();
                    return rows.getLong(1) > 0;
                }
            }, "the statement naming " + names);
        }
    }

    /** Polls pg_stat_activity through {@code shown} until it answers true; 30 s at most. */
    private static void awaitShown(Callable<Boolean> shown, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!shown.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " never showed in pg_stat_activity");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static List<String> namesOnTheServer(PgServer server, String names) throws SQLException {
        String query = "SELECT datname::text FROM pg_catalog.pg_database WHERE pg_catalog.starts_with(datname, "
                + "'%1$s') UNION ALL SELECT rolname::text FROM pg_catalog.pg_roles WHERE pg_catalog.starts_with("
                + "rolname, '%1$s')"
                + " UNION ALL SELECT 'sleeping' FROM pg_catalog.pg_stat_activity WHERE pg_catalog.starts_with("
                + "usename, '%1$s') AND query LIKE '%%pg_sleep%%'";
        try (Connection superuser = server.connectAsSuperuser(); Statement statement = superuser.createStatement();
                ResultSet rows = statement.executeQuery(String.format(query, names))) {
            List<String> found = new ArrayList<>();
            while (rows.next()) {
                found.add(rows.getString(1));
            }
            return found;
        }
    }
}
