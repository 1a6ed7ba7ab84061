package fencingkoans.koans.support;

import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Database.FileUse;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * One fresh course database in a temporary file, and every connection a koan opens to it. Each store,
 * authority or raw connection is its own real SQLite connection; all of them are closed after the koan.
 * The file is deleted after its koan, so it is opened as a scratch file ({@link FileUse#SCRATCH}).
 */
public final class CourseDatabase implements Destination, AutoCloseable {

    private final Path file;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    private CourseDatabase(Path file) {
        this.file = file;
    }

    public static CourseDatabase createIn(Path directory) {
        Path file = directory.resolve("course.db");
        Database.create(file, FileUse.SCRATCH);
        return new CourseDatabase(file);
    }

    public Path file() {
        return file;
    }

    /** A worker's view of the destination, on a connection of its own. */
    public FencedStore store() {
        return track(new FencedStore(ledger()));
    }

    @Override
    public Worker worker() {
        return store()::apply;
    }

    /** The trusted issuer, on a connection of its own. */
    public Authority authority() {
        return track(new Authority(ledger()));
    }

    /** Through the learner's {@link Authority}: lessons 1 and 2 ask for it. */
    @Override
    public InstallResult install(String resource, long generation) {
        return authority().install(resource, generation);
    }

    /** The destination's tables with no protection at all, on a connection of its own. */
    public Ledger ledger() {
        return track(Ledger.open(file, Database.NO_WAIT, FileUse.SCRATCH));
    }

    /** A plain JDBC connection, as any program that can open the file has. */
    public Connection connection() {
        return track(Database.connect(file, Database.NO_WAIT, FileUse.SCRATCH));
    }

    @Override
    public ResourceState state(String resource) {
        try (Ledger inspector = Ledger.open(file, Database.NO_WAIT, FileUse.SCRATCH)) {
            return inspector.read(resource).orElseThrow(() -> new AssertionError("no resource " + resource));
        }
    }

    @Override
    public List<String> contents() {
        try (Connection inspector = Database.connect(file, Database.NO_WAIT, FileUse.SCRATCH)) {
            return contentsOf(inspector);
        } catch (SQLException e) {
            throw new AssertionError("could not close the inspecting connection", e);
        }
    }

    /** The same rows as {@link #contents()}, read through a connection the caller keeps open. */
    public static List<String> contentsOf(Connection inspector) {
        return TableRows.of(inspector, "");
    }

    @Override
    public void close() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        opened.push(closeable);
        return closeable;
    }
}
