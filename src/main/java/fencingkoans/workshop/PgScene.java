package fencingkoans.workshop;

import static fencingkoans.pg.PgRole.OWNER;
import static fencingkoans.pg.PgRole.WORKER;

import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.lab.Scene;
import fencingkoans.pg.PgAuthority;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgException;
import fencingkoans.pg.PgFencedStore;
import fencingkoans.pg.PgRole;
import fencingkoans.pg.SqlState;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One observed scenario on the PostgreSQL destination: the run's course database put back to its start state,
 * the real sessions the scenario opens to it in the roles it names, and the lines it prints. Closing the scene
 * closes every session it opened.
 */
final class PgScene implements Destination, AutoCloseable {

    private final PgDatabase database;
    private final PrintStream out;
    private final Deque<Connection> opened = new ArrayDeque<>();
    private Connection owner;

    PgScene(PgDatabase database, PrintStream out) {
        database.reset();
        this.database = database;
        this.out = out;
    }

    @Override
    public void observe(String line) {
        out.println("  " + line);
    }

    /** A worker calling the admitting function on a session of its own as the worker role, in autocommit mode. */
    @Override
    public Worker worker() {
        return new PgFencedStore(session(WORKER))::apply;
    }

    /** A plain session as {@code role}: what any program logged in as that role has. */
    Connection session(PgRole role) {
        Connection session = database.connect(role);
        opened.push(session);
        return session;
    }

    /** The trusted authority, holding the owner role, on the scene's owner session: see {@link PgAuthority}. */
    @Override
    public InstallResult install(String resource, long generation) {
        return new PgAuthority(owner()).install(resource, generation);
    }

    /** The resource's committed generation, value and number of request records, as the owner sees them. */
    @Override
    public String describe(String resource) {
        try (PreparedStatement query = owner().prepareStatement("SELECT generation, value,"
                + " (SELECT count(*) FROM fencing.request_records WHERE resource = name)"
                + " FROM fencing.resources WHERE name = ?")) {
            query.setString(1, resource);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no resource " + resource);
                }
                return Scene.describe(new ResourceState(resource, row.getLong(1), row.getLong(2)), row.getLong(3));
            }
        } catch (SQLException e) {
            throw new PgException("reading " + resource, e);
        }
    }

    long generation(String resource) {
        try (PreparedStatement query = owner().prepareStatement(
                "SELECT generation FROM fencing.resources WHERE name = ?")) {
            query.setString(1, resource);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no resource " + resource);
                }
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new PgException("reading the generation of " + resource, e);
        }
    }

    /** Runs a write on {@code session} and says what the server answered: rows changed, or the SQLSTATE refusing it. */
    static String attempt(Connection session, String sql) {
        try (Statement statement = session.createStatement()) {
            int rows = statement.executeUpdate(sql);
            return "no error, " + rows + (rows == 1 ? " row" : " rows") + " changed";
        } catch (SQLException e) {
            return "refused with SQLSTATE " + e.getSQLState()
                    + (SqlState.INSUFFICIENT_PRIVILEGE.equals(e.getSQLState()) ? " (insufficient privilege)"
                            : ": " + e.getMessage());
        }
    }

    /** One owner session per scene, in autocommit mode, for the authority's installs and for looking. */
    private Connection owner() {
        if (owner == null) {
            owner = session(OWNER);
        }
        return owner;
    }

    @Override
    public void close() {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (SQLException e) {
                out.println("  (closing a session failed: " + e.getMessage() + ")");
            }
        }
    }
}
