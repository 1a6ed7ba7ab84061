package fencingkoans.pg;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A worker's side of the PostgreSQL destination: every apply is one call of {@code fencing.apply_request}, the
 * admitting function written in the track's {@code apply_request.sql}. All the checking happens in that
 * function, inside the server; this class only turns its answer into an {@link ApplyResult}, and a refusal
 * raised there (SQLSTATE 22023, or 22003 for an overflow) into an {@link IllegalArgumentException}, after
 * refusing the one kind of text it cannot send faithfully (see {@link #requireSendable}). Given code.
 */
public final class PgFencedStore {

    private static final String CALL = "SELECT outcome, answer, installed, stored_delta"
            + " FROM fencing.apply_request(?, ?, ?, ?)";

    private final Connection session;

    /** Applies through {@code session}: in autocommit mode each apply is its own transaction. */
    public PgFencedStore(Connection session) {
        this.session = session;
    }

    public ApplyResult apply(ApplyRequest request) {
        requireSendable("resource", request.resource());
        requireSendable("requestId", request.requestId());
        try (PreparedStatement call = session.prepareStatement(CALL)) {
            call.setString(1, request.resource());
            call.setLong(2, request.generation());
            call.setString(3, request.requestId());
            call.setLong(4, request.delta());
            try (ResultSet row = call.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("fencing.apply_request returned no row for " + request);
                }
                return answer(request, row);
            }
        } catch (SQLException e) {
            if (SqlState.LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                // Another transaction holds the row: nothing was decided, so this is not a rejection.
                return new Contended(request.resource());
            }
            if (SqlState.INVALID_PARAMETER_VALUE.equals(e.getSQLState())) {
                throw new IllegalArgumentException(PgException.serverMessage(e), e);
            }
            if (SqlState.NUMERIC_VALUE_OUT_OF_RANGE.equals(e.getSQLState())) {
                throw new IllegalArgumentException("delta " + request.delta() + " would take the value of "
                        + request.resource() + " out of range (" + PgException.serverMessage(e) + ")", e);
            }
            if (SqlState.QUERY_CANCELED.equals(e.getSQLState())) {
                throw new PgException("fencing.apply_request for " + request + " (cancelled while it waited for a"
                        + " lock another session holds; PostgreSQL's context below says at which statement. At the row"
                        + " lock: take it with NOWAIT, or PostgreSQL waits for ever. At a later statement: the row was"
                        + " not locked FOR UPDATE before everything the function reads and writes)", e);
            }
            if (SqlState.INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                throw new PgException("fencing.apply_request for " + request + " (the worker lacks a privilege"
                        + " this call needs: EXECUTE on the function, granted in grants.sql, or, for a function that"
                        + " runs with its caller's rights, the tables; PostgreSQL's message names which)", e);
            }
            throw new PgException("fencing.apply_request for " + request, e);
        }
    }

    /**
     * Half a surrogate pair has no UTF-8 form: the driver would send '?' in its place, so two different ids would
     * reach the function as one, and the function could never tell. This is the one check made before the call.
     */
    private static void requireSendable(String field, String text) {
        if (text != null
                && text.codePoints().anyMatch(codePoint -> Character.getType(codePoint) == Character.SURROGATE)) {
            throw new IllegalArgumentException(field + " must be well-formed Unicode, with no unpaired surrogate");
        }
    }

    private static ApplyResult answer(ApplyRequest request, ResultSet row) throws SQLException {
        String outcome = row.getString("outcome");
        long answer = row.getLong("answer");
        long installed = row.getLong("installed");
        long storedDelta = row.getLong("stored_delta");
        if (outcome == null) {
            throw new IllegalStateException("fencing.apply_request returned without setting its OUT parameter outcome: "
                    + "every path through the function must set it (applied, replayed, stale, unissued, "
                    + "unknown-resource or conflicting) before it returns");
        }
        return switch (outcome) {
            case "applied" -> new Applied(answer);
            case "replayed" -> new Replayed(answer);
            case "stale" -> Rejected.stale(request.generation(), installed);
            case "unissued" -> Rejected.unissued(request.generation(), installed);
            case "unknown-resource" -> Rejected.unknownResource(request);
            case "conflicting" -> Rejected.conflicting(request, storedDelta);
            case "contended" -> throw new IllegalStateException("fencing.apply_request answered outcome 'contended', "
                    + "which is no outcome of the function: contention is the error a held row raises (55P03, "
                    + "lock_not_available), and this side turns it into Contended. Let that error leave the function "
                    + "instead of catching it");
            default -> throw new IllegalStateException("fencing.apply_request answered outcome '" + outcome
                    + "'; expected one of applied, replayed, stale, unissued, unknown-resource, conflicting");
        };
    }
}
