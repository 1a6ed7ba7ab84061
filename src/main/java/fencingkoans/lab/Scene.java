package fencingkoans.lab;

import fencingkoans.destination.PgDestination;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.lease.Ensemble;
import fencingkoans.lease.Identity;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgServer;
import fencingkoans.sqlite.Database.FileUse;
import java.io.PrintStream;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;

/**
 * One observed scenario: a fresh course database with SQLite's defaults, the real connections the scenario opens
 * to it, and the lines it prints about what it saw. Closing the scene closes every connection it opened.
 */
public final class Scene extends SqliteDestination {

    private final PrintStream out;

    Scene(Path file, PrintStream out) {
        super(file, FileUse.KEPT);
        this.out = out;
    }

    /** Prints one observation, indented under the scenario's title. */
    public void observe(String line) {
        out.println("  " + line);
    }

    /** A ZooKeeper ensemble of three servers in this JVM, with its data beside the scene's database. */
    public Ensemble ensemble() {
        return track(Ensemble.start(file().resolveSibling(file().getFileName() + "-zookeeper")));
    }

    /**
     * Lesson 6's destination on the server in {@code FENCING_PG_URL}, on a database and roles created for this
     * scene from the track's SQL and dropped with it. Without that variable the scenario is not played here.
     */
    public PgDestination postgres() {
        String url = System.getenv(PgServer.URL_VARIABLE);
        if (url == null || url.isBlank()) {
            throw new ObservedRun.NotPlayedHere("it needs a PostgreSQL server: set " + PgServer.URL_VARIABLE
                    + " to a superuser's JDBC URL (jdbc:postgresql://host:5432/postgres?user=...&password=...)");
        }
        PgDatabase database = track(PgDatabase.create(PgServer.fromJdbcUrl(url.strip(), null, null)));
        database.reset();
        return track(new PgDestination(database));
    }

    /** A client of {@code ensemble} on a session of its own, authenticated as {@code identity}. */
    public CuratorFramework zookeeper(Ensemble ensemble, Identity identity) {
        return track(ensemble.connect(identity, "lab")).curator();
    }
}
