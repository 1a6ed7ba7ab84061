package fencingkoans.pg;

import fencingkoans.contract.InstallResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The trusted authority on PostgreSQL, as lesson 2's {@code Authority} is on SQLite: it installs only a strictly
 * higher generation, and takes the row's lock without waiting, so that a transaction holding the row makes the
 * install contention. It holds the owner role and writes directly; who holds that role is outside what the
 * database can check. Given code: lesson 6 asks the learner for the worker's side only.
 */
public final class PgAuthority {

    private static final String INSTALL = "UPDATE fencing.resources SET generation = ?"
            + " WHERE name = (SELECT name FROM fencing.resources WHERE name = ? FOR UPDATE NOWAIT) AND generation < ?";

    private final Connection owner;

    /** Installs through {@code owner}, a session of the owner role in autocommit mode. */
    public PgAuthority(Connection owner) {
        this.owner = owner;
    }

    public InstallResult install(String resource, long generation) {
        try (PreparedStatement install = owner.prepareStatement(INSTALL)) {
            install.setLong(1, generation);
            install.setString(2, resource);
            install.setLong(3, generation);
            if (install.executeUpdate() == 1) {
                return new InstallResult.Installed(resource, generation);
            }
            return refusal(resource, generation);
        } catch (SQLException e) {
            if (SqlState.LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                return new InstallResult.Contended(resource);
            }
            throw new PgException("installing generation " + generation + " on " + resource, e);
        }
    }

    /** Why nothing changed: no such resource, or a generation that is not above the installed one. */
    private InstallResult refusal(String resource, long generation) throws SQLException {
        try (PreparedStatement query = owner.prepareStatement("SELECT generation FROM fencing.resources WHERE name = ?")) {
            query.setString(1, resource);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? new InstallResult.NotHigher(resource, row.getLong(1), generation)
                        : new InstallResult.UnknownResource(resource);
            }
        }
    }
}
