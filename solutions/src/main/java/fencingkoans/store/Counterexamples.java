package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.outside.ExternalService;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Checkpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Ways to get around the protection. Each one works, and that is the point: the guarantee covers only the
 * paths that go through {@link FencedStore#apply}, state that is never rolled back to an older copy, and
 * effects that live in the same database transaction.
 */
public final class Counterexamples {

    private Counterexamples() {
    }

    /** Sets the value with plain SQL, as any program holding the file could. */
    public static void writeAroundTheStore(Connection connection, String resource, long newValue) {
        updateResource(connection, "UPDATE resources SET value = ? WHERE name = ?", newValue, resource);
    }

    /** A careless recovery: puts an older generation back on the resource. */
    public static void restoreGeneration(Connection connection, String resource, long oldGeneration) {
        updateResource(connection, "UPDATE resources SET generation = ? WHERE name = ?", oldGeneration, resource);
    }

    /** Another careless recovery: replaces the live database file with an older copy of it. */
    public static void restoreCopy(Path oldCopy, Path liveFile) {
        try {
            Files.copy(oldCopy, liveFile, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("restoring " + oldCopy + " over " + liveFile, e);
        }
    }

    /**
     * Applies the request, calling the external service from inside the transaction, after the update. A request
     * that updates nothing leaves no call behind for the store's next one.
     */
    public static ApplyResult applyWithExternalCallInside(FencedStore store, ApplyRequest request,
            ExternalService service) {
        try (Checkpoints.Registration charge = store.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE,
                () -> service.call("charged " + request.delta() + " for " + request.requestId()))) {
            return store.apply(request);
        }
    }

    private static void updateResource(Connection connection, String sql, long number, String resource) {
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, number);
            update.setString(2, resource);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }
}
