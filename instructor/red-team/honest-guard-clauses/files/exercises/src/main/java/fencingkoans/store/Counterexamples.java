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

    public static void writeAroundTheStore(Connection connection, String resource, long newValue) {
        setColumn(connection, "value", resource, newValue);
    }

    public static void restoreGeneration(Connection connection, String resource, long oldGeneration) {
        setColumn(connection, "generation", resource, oldGeneration);
    }

    public static void restoreCopy(Path oldCopy, Path liveFile) {
        try {
            Files.copy(oldCopy, liveFile, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy " + oldCopy + " over " + liveFile, e);
        }
    }

    public static ApplyResult applyWithExternalCallInside(FencedStore store, ApplyRequest request,
            ExternalService service) {
        Runnable charge = () -> service.call("charge " + request.delta() + " (" + request.requestId() + ")");
        Checkpoints.Registration registered = store.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, charge);
        try {
            return store.apply(request);
        } finally {
            // A rejected request never reached the update: its charge must not wait for the next one.
            registered.close();
        }
    }

    /** {@code column} is one of this class's own constants, never outside input, so it may be spliced in. */
    private static void setColumn(Connection connection, String column, String resource, long number) {
        String sql = "UPDATE resources SET " + column + " = ? WHERE name = ?";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, number);
            statement.setString(2, resource);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("setting " + column + " of " + resource + " failed", e);
        }
    }
}
