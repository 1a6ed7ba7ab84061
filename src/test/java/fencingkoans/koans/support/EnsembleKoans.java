package fencingkoans.koans.support;

import fencingkoans.lease.Ensemble;
import fencingkoans.lease.EnsembleClient;
import fencingkoans.lease.Identity;
import fencingkoans.lease.LeasePaths;
import fencingkoans.store.LeaseIssuer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lesson 7's fixture: one ZooKeeper ensemble of three servers for the whole class, started by the first koan that
 * runs (a locked lesson never pays for it), and a namespace of its own for every koan, so that no koan sees another's
 * leases or counters. Every client a koan opens is closed after it. Watch mode keeps one ensemble for all its runs
 * ({@link Ensemble#kept}); a namespace is new over every run, so no run finds what an earlier one left.
 */
public abstract class EnsembleKoans extends CourseKoans {

    private static final long PATIENCE_SECONDS = 30;

    @TempDir
    static Path ensembleDirectory;

    private static Ensemble ensemble;
    private static ExecutorService closers;
    private static final List<CompletableFuture<Void>> closing = new ArrayList<>();

    private final Deque<EnsembleClient> clients = new ArrayDeque<>();
    private String namespace;

    @BeforeEach
    final void startTheEnsembleOnce() {
        if (ensemble == null) {
            closers = Executors.newCachedThreadPool();
            String keptIn = System.getProperty(Ensemble.KEEP_BETWEEN_RUNS);
            ensemble = keptIn != null ? Ensemble.kept(Path.of(keptIn)) : Ensemble.start(ensembleDirectory);
        }
        namespace = ensemble.newNamespace();
    }

    /**
     * In the background, all at once: a client closes only once the ensemble has ended its session, and after a koan
     * that stopped servers that takes up to a second while it reaches a server again. The next koan works in a
     * namespace of its own, so it need not wait; the class waits for every close before it ends.
     */
    @AfterEach
    final void closeEveryClient() {
        while (!clients.isEmpty()) {
            closing.add(CompletableFuture.runAsync(clients.pop()::close, closers));
        }
    }

    @AfterAll
    static void stopTheEnsemble() {
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).join();
        } finally {
            closing.clear();
            if (closers != null) {
                closers.shutdown();
                closers = null;
            }
            if (ensemble != null) {
                ensemble.close();
                ensemble = null;
            }
        }
    }

    protected static Ensemble ensemble() {
        return ensemble;
    }

    /** A worker's own client: its own session, authenticated as a worker. */
    protected CuratorFramework worker() {
        return connect(Identity.WORKER).curator();
    }

    /** An issuer with a client and a destination connection of its own. */
    protected LeaseIssuer issuer() {
        return issuerOn(connect(Identity.ISSUER));
    }

    protected LeaseIssuer issuerOn(EnsembleClient client) {
        return new LeaseIssuer(client.curator(), course.authority());
    }

    protected EnsembleClient connect(Identity identity) {
        EnsembleClient client = ensemble.connect(identity, namespace);
        clients.push(client);
        return client;
    }

    /** The counter as the ensemble holds it now: read after a sync, so no server that lags behind answers. */
    protected long counter(String resource) throws Exception {
        CuratorFramework inspector = worker();
        String path = LeasePaths.counter(resource);
        CountDownLatch synced = new CountDownLatch(1);
        inspector.sync().inBackground((client, event) -> synced.countDown()).forPath(path);
        if (!synced.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("the ensemble did not sync within " + PATIENCE_SECONDS + " s");
        }
        try {
            return Long.parseLong(new String(inspector.getData().forPath(path), StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException missing) {
            throw new AssertionError("there is no counter node at " + path + ": the generation did not come from "
                    + "ZooKeeper", missing);
        }
    }
}
