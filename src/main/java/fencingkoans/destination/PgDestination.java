package fencingkoans.destination;

import static fencingkoans.pg.PgRole.OWNER;
import static fencingkoans.pg.PgRole.WORKER;

import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.pg.PgAuthority;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgException;
import fencingkoans.pg.PgFencedStore;
import fencingkoans.pg.PgRole;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The course database on PostgreSQL: workers, raw sessions in any of the three roles, the authority, and one
 * owner session to look with. Every session is a real connection of its own. The caller puts the database back
 * to its start state ({@link PgDatabase#reset()}) when it wants a fresh one.
 */
public final class PgDestination implements Destination {

    private final PgDatabase database;
    private final Opened opened = new Opened();
    private Connection inspector;

    public PgDestination(PgDatabase database) {
        this.database = database;
    }

    /** A worker applying through the admitting function, on a session of its own as the worker role. */
    @Override
    public Worker worker() {
        return new PgFencedStore(session(WORKER))::apply;
    }

    /** A plain session as {@code role}, in autocommit mode: what any program logged in as that role has. */
    public Connection session(PgRole role) {
        return opened.keep(database.connect(role));
    }

    /** This run's name of the role, as PostgreSQL's messages show it. */
    public String roleName(PgRole role) {
        return database.roleName(role);
    }

    /** The trusted authority, given code here: {@link PgAuthority} on the owner session this destination looks with. */
    @Override
    public InstallResult install(String resource, long generation) {
        return new PgAuthority(inspector()).install(resource, generation);
    }

    @Override
    public Optional<ResourceState> read(String resource) {
        try (PreparedStatement query = inspector().prepareStatement(
                "SELECT generation, value FROM fencing.resources WHERE name = ?")) {
            query.setString(1, resource);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(new ResourceState(resource, row.getLong(1), row.getLong(2)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new PgException("reading " + resource, e);
        }
    }

    @Override
    public List<String> contents() {
        return TableRows.of(inspector(), "fencing.");
    }

    /** One owner session at a time, in autocommit mode, for the authority's installs and for looking. */
    private Connection inspector() {
        if (inspector == null) {
            inspector = session(OWNER);
        }
        return inspector;
    }

    @Override
    public void close() {
        inspector = null;
        opened.closeAll();
    }
}
