package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.outside.ExternalService;
import fencingkoans.sqlite.Checkpoint;
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

    /** A plain UPDATE of one column of one resource, bypassing every check of the store. */
    private record DirectWrite(String sql) {

        void set(Connection connection, String resource, long number) {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setLong(1, number);
                statement.setString(2, resource);
                statement.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException("direct write failed: " + sql, e);
            }
        }
    }

    private static final DirectWrite SET_VALUE = new DirectWrite("UPDATE resources SET value = ? WHERE name = ?");
    private static final DirectWrite SET_GENERATION =
            new DirectWrite("UPDATE resources SET generation = ? WHERE name = ?");

    private Counterexamples() {
    }

    public static void writeAroundTheStore(Connection connection, String resource, long newValue) {
        SET_VALUE.set(connection, resource, newValue);
    }

    public static void restoreGeneration(Connection connection, String resource, long oldGeneration) {
        SET_GENERATION.set(connection, resource, oldGeneration);
    }

    public static void restoreCopy(Path oldCopy, Path liveFile) {
        try {
            Files.copy(oldCopy, liveFile, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("restoring the copy " + oldCopy + " failed", e);
        }
    }

    public static ApplyResult applyWithExternalCallInside(FencedStore store, ApplyRequest request,
            ExternalService service) {
        String message = "pay " + request.delta() + " for request " + request.requestId();
        try (var pending = store.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> service.call(message))) {
            return store.apply(request);
        }
    }
}
