package fencingkoans.bench;

import fencingkoans.sqlite.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A fresh course database for one benchmark trial, in its own temporary directory, either on the default
 * temporary disk or in memory (/dev/shm). In memory a commit costs no disk flush, which leaves what the
 * store itself costs; on disk the flush usually dominates.
 */
final class BenchDatabase {

    static final String DISK = "disk";
    static final String MEMORY = "memory";

    private BenchDatabase() {
    }

    static Path create(String location, String journalMode) {
        try {
            Path directory = location.equals(MEMORY)
                    ? Files.createTempDirectory(Path.of("/dev/shm"), "fencing-bench")
                    : Files.createTempDirectory("fencing-bench");
            Path file = directory.resolve("bench.db");
            Database.create(file);
            try (Connection connection = Database.connect(file, Database.NO_WAIT);
                    Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode=" + journalMode);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("setting journal mode " + journalMode, e);
        }
    }

    static void delete(Path file) {
        try (Stream<Path> files = Files.walk(file.getParent())) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
