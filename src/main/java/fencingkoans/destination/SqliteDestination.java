package fencingkoans.destination;

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
import java.util.List;
import java.util.Optional;

/**
 * A fresh course database in one SQLite file, and every connection opened to it. Each store, authority or raw
 * connection is a real SQLite connection of its own, with no busy timeout; lookups open one for the look alone.
 */
public class SqliteDestination implements Destination {

    private final Path file;
    private final FileUse use;
    private final Opened opened = new Opened();

    /** Creates the schema and the seeded resources in the new {@code file}. */
    protected SqliteDestination(Path file, FileUse use) {
        Database.create(file, use);
        this.file = file;
        this.use = use;
    }

    /** A course database for one koan or one random sequence, in {@code directory}, which is deleted after it. */
    public static SqliteDestination createIn(Path directory) {
        return new SqliteDestination(directory.resolve("course.db"), FileUse.SCRATCH);
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

    /** Through {@link Authority} on a connection of its own: the learner writes it in lessons 1 and 2. */
    @Override
    public InstallResult install(String resource, long generation) {
        return authority().install(resource, generation);
    }

    /** The destination's tables with no protection at all, on a connection of its own. */
    public Ledger ledger() {
        return track(Ledger.open(file, Database.NO_WAIT, use));
    }

    /** A plain JDBC connection, as any program that can open the file has. */
    public Connection connection() {
        return track(Database.connect(file, Database.NO_WAIT, use));
    }

    @Override
    public Optional<ResourceState> read(String resource) {
        try (Ledger inspector = Ledger.open(file, Database.NO_WAIT, use)) {
            return inspector.read(resource);
        }
    }

    @Override
    public List<String> contents() {
        try (Connection inspector = Database.connect(file, Database.NO_WAIT, use)) {
            return contentsOf(inspector);
        } catch (SQLException e) {
            throw new IllegalStateException("closing the connection that read " + file, e);
        }
    }

    /** The same rows as {@link #contents()}, read through a connection the caller keeps open. */
    public static List<String> contentsOf(Connection inspector) {
        return TableRows.of(inspector, "");
    }

    /** Closed with the destination, newest first, after the connections opened before it. */
    protected final <T extends AutoCloseable> T track(T closeable) {
        return opened.keep(closeable);
    }

    @Override
    public void close() {
        opened.closeAll();
    }
}
