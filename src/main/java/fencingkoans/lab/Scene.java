package fencingkoans.lab;

import fencingkoans.contract.ResourceState;
import fencingkoans.lease.Ensemble;
import fencingkoans.lease.Identity;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;

/**
 * One observed scenario: a fresh course database, the real connections the scenario opens to it, and the
 * lines it prints about what it saw. Closing the scene closes every connection it opened.
 */
public final class Scene implements AutoCloseable {

    private final Path file;
    private final PrintStream out;
    private final List<AutoCloseable> open = new ArrayList<>();

    Scene(Path file, PrintStream out) {
        Database.create(file);
        this.file = file;
        this.out = out;
    }

    /** Prints one observation, indented under the scenario's title. */
    public void observe(String line) {
        out.println("  " + line);
    }

    /** A worker's view of the destination, on a connection of its own. */
    public FencedStore store() {
        return keep(new FencedStore(ledger()));
    }

    /** The trusted issuer, on a connection of its own. */
    public Authority authority() {
        return keep(new Authority(ledger()));
    }

    /** A ZooKeeper ensemble of three servers in this JVM, with its data beside the scene's database. */
    public Ensemble ensemble() {
        return keep(Ensemble.start(file.resolveSibling(file.getFileName() + "-zookeeper")));
    }

    /** A client of {@code ensemble} on a session of its own, authenticated as {@code identity}. */
    public CuratorFramework zookeeper(Ensemble ensemble, Identity identity) {
        return keep(ensemble.connect(identity, "lab")).curator();
    }

    /** The destination's tables with no protection at all, on a connection of its own. */
    public Ledger ledger() {
        return keep(Ledger.open(file, Database.NO_WAIT));
    }

    /** A plain JDBC connection, as any program that can open the file has. */
    public Connection connection() {
        return keep(Database.connect(file, Database.NO_WAIT));
    }

    /** The resource's committed state, read on a connection opened for this one look. */
    public ResourceState state(String resource) {
        try (Ledger reader = Ledger.open(file, Database.NO_WAIT)) {
            return reader.read(resource).orElseThrow(() -> new IllegalStateException("no resource " + resource));
        }
    }

    public long value(String resource) {
        return state(resource).value();
    }

    public long generation(String resource) {
        return state(resource).generation();
    }

    /** The resource's generation, value and number of request records, in one line. */
    public String describe(String resource) {
        return describe(state(resource), requestRecords(resource));
    }

    /** A resource's state and its number of request records, in the one line every destination prints. */
    public static String describe(ResourceState state, long records) {
        return "generation " + state.generation() + ", value " + state.value() + ", " + records + " request "
                + (records == 1 ? "record" : "records");
    }

    /** How many request records the destination holds for the resource. */
    public long requestRecords(String resource) {
        try (Connection reader = Database.connect(file, Database.NO_WAIT);
                PreparedStatement count = reader.prepareStatement(
                        "SELECT count(*) FROM request_records WHERE resource = ?")) {
            count.setString(1, resource);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("counting the request records of " + resource, e);
        }
    }

    @Override
    public void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                out.println("  (closing a connection failed: " + e.getMessage() + ")");
            }
        }
        open.clear();
    }

    private <T extends AutoCloseable> T keep(T closeable) {
        open.add(closeable);
        return closeable;
    }
}
