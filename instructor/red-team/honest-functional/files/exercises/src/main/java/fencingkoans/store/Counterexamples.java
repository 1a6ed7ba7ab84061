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

    /** Fills in a prepared statement's parameters; JDBC's checked exception is allowed through. */
    @FunctionalInterface
    private interface Parameters {
        void fill(PreparedStatement statement) throws SQLException;
    }

    private Counterexamples() {
    }

    public static void writeAroundTheStore(Connection connection, String resource, long newValue) {
        update(connection, "UPDATE resources SET value = ? WHERE name = ?", numberThenName(newValue, resource));
    }

    public static void restoreGeneration(Connection connection, String resource, long oldGeneration) {
        update(connection, "UPDATE resources SET generation = ? WHERE name = ?",
                numberThenName(oldGeneration, resource));
    }

    public static void restoreCopy(Path oldCopy, Path liveFile) {
        try {
            Files.copy(oldCopy, liveFile, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("copying " + oldCopy + " over " + liveFile, e);
        }
    }

    public static ApplyResult applyWithExternalCallInside(FencedStore store, ApplyRequest request,
            ExternalService service) {
        try (Checkpoints.Registration call = store.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE,
                () -> service.call("charge " + request.delta() + " for " + request.requestId()))) {
            return store.apply(request);
        }
    }

    private static Parameters numberThenName(long number, String resource) {
        return statement -> {
            statement.setLong(1, number);
            statement.setString(2, resource);
        };
    }

    private static void update(Connection connection, String sql, Parameters parameters) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.fill(statement);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }
}
