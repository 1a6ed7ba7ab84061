package fencingkoans.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.X509Exception;
import org.apache.zookeeper.util.ServiceUtils;

/**
 * A real ZooKeeper ensemble of three servers inside this JVM (Curator's {@link TestingCluster}), with its data in a
 * directory the caller owns, and the disturbances lesson 7 needs: a session expired on the servers, a lost quorum,
 * a restart of every server. Each disturbance is made to happen; none is waited for on a clock.
 */
public final class Ensemble implements AutoCloseable {

    /**
     * Set in a JVM that runs the koans again and again (watch mode), to the folder for the servers' data: lesson 7
     * then uses {@link #kept}.
     */
    public static final String KEEP_BETWEEN_RUNS = "fencing.ensemble.keep-in";

    private static final int SERVERS = 3;
    private static final int LOWEST_PORT = 20_000;
    private static final int PORTS = 12_000;
    private static final Random RANDOM = new Random();
    private static final int TICK_MS = 1_000;
    /** Long enough never to run out during a koan: no koan waits for a session to time out. */
    private static final int SESSION_TIMEOUT_MS = 20_000;
    /**
     * How long Curator holds an operation while its client has no server, before it hands the operation to ZooKeeper's
     * client, which fails it at its next try to reach one (within about a second, see {@link LocalServers}).
     */
    private static final int CONNECTION_TIMEOUT_MS = 200;
    /**
     * The servers write their log without forcing it to disk: a stopped and restarted server still finds every
     * committed change (the operating system has it), which is all a restart here proves; a power cut would not.
     */
    private static final Map<String, Object> NO_FSYNC = Map.of("forceSync", "no");
    /** How long to wait for something the ensemble does on its own: connecting, electing a leader. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** How often the wait for a quorum asks the servers again. */
    private static final int PROBE_INTERVAL_MS = 20;
    private static final Pattern MODE = Pattern.compile("Mode: (\\w+)");

    private static Ensemble kept;

    private final TestingCluster cluster;
    private final List<TestingZooKeeperServer> stopped = new ArrayList<>();
    /** How many namespaces it has handed out: each is new, on a kept ensemble over every run too. */
    private final AtomicInteger namespaces = new AtomicInteger();
    /** Set on the ensemble {@link #kept} for later runs: {@link #close()} leaves it serving, the JVM's exit stops it. */
    private Thread stopAtExit;

    private Ensemble(TestingCluster cluster) {
        this.cluster = cluster;
    }

    /** Starts three servers with their data in {@code directory}, and returns once they serve. */
    public static Ensemble start(Path directory) {
        // A server that cannot bind its port asks for System.exit, which would end the whole test run.
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
        List<InstanceSpec> specs = new ArrayList<>();
        // Nine ports drawn at random, each different: a port drawn twice would stop the ensemble from starting.
        Set<Integer> taken = new HashSet<>();
        for (int id = 1; id <= SERVERS; id++) {
            Path data = directory.resolve("server-" + id);
            try {
                Files.createDirectories(data);
            } catch (IOException e) {
                throw new UncheckedIOException("could not create " + data, e);
            }
            specs.add(new InstanceSpec(data.toFile(), freePort(taken), freePort(taken), freePort(taken), false, id,
                    TICK_MS, -1, NO_FSYNC));
        }
        Ensemble ensemble = new Ensemble(new TestingCluster(specs));
        try {
            startTogether(ensemble.cluster.getServers());
        } catch (RuntimeException e) {
            ensemble.close();
            throw new IllegalStateException("the ZooKeeper ensemble did not start", e);
        }
        ensemble.awaitServing();
        return ensemble;
    }

    /**
     * The ensemble watch mode keeps between its runs, in {@code directory}: started by the first run that needs one,
     * and stopped when the JVM exits. Each later run finds it serving: servers that a koan stopped and did not start
     * again (it failed halfway) are started first, and an ensemble that cannot serve any more is replaced.
     */
    public static synchronized Ensemble kept(Path directory) {
        if (kept != null) {
            try {
                kept.restartStoppedServers();
                return kept;
            } catch (RuntimeException broken) {
                Runtime.getRuntime().removeShutdownHook(kept.stopAtExit);
                kept.stop();
                kept = null;
            }
        }
        deleteEverythingIn(directory);
        Ensemble started = start(directory);
        started.stopAtExit = new Thread(started::stop, "ZooKeeper ensemble stopped at exit");
        Runtime.getRuntime().addShutdownHook(started.stopAtExit);
        kept = started;
        return kept;
    }

    /** What an earlier watch process left there: a kept ensemble starts from empty servers too. */
    private static void deleteEverythingIn(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not empty " + directory + " for the ZooKeeper ensemble", e);
        }
    }

    /**
     * A port nothing listens on, below every operating system's range of ephemeral ports (Linux starts at 32768,
     * others at 49152). Curator's own choice comes from that range, where any outgoing connection, a client of this
     * very ensemble among them, may take the port of a stopped server before it starts again.
     */
    private static int freePort(Set<Integer> taken) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = LOWEST_PORT + RANDOM.nextInt(PORTS);
            if (taken.contains(port)) {
                continue;
            }
            try (ServerSocket probe = new ServerSocket(port)) {
                taken.add(port);
                return port;
            } catch (IOException inUse) {
                // Another listener has it: draw again.
            }
        }
        throw new IllegalStateException("found no free port between " + LOWEST_PORT + " and " + (LOWEST_PORT + PORTS));
    }

    public String connectString() {
        return cluster.getConnectString();
    }

    /** A namespace no client of this ensemble has used yet, for one koan's nodes. */
    public String newNamespace() {
        return "koan-" + namespaces.incrementAndGet();
    }

    /**
     * A connected client that authenticates as {@code identity} and sees only {@code namespace}. It does not retry:
     * without a quorum, an operation fails with a {@code ConnectionLoss} within about a second.
     */
    public EnsembleClient connect(Identity identity, String namespace) {
        EnsembleClient client = new EnsembleClient();
        CuratorFramework curator = CuratorFrameworkFactory.builder()
                .connectString(connectString())
                .namespace(namespace)
                .authorization("digest", identity.credentials())
                .sessionTimeoutMs(SESSION_TIMEOUT_MS)
                .connectionTimeoutMs(CONNECTION_TIMEOUT_MS)
                .retryPolicy(new RetryNTimes(0, 0))
                .zkClientConfig(clientConfig())
                .zookeeperFactory(client.zookeeperFactory())
                .build();
        client.attach(curator);
        curator.start();
        try {
            if (!curator.blockUntilConnected((int) PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                curator.close();
                throw new IllegalStateException("no ZooKeeper server accepted a connection within " + PATIENCE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            curator.close();
            throw new IllegalStateException("interrupted while connecting to ZooKeeper", e);
        }
        return client;
    }

    /**
     * Expires {@code client}'s session on the servers, as a long pause would: ephemeral nodes it owns are deleted at
     * once. ZooKeeper's own way: a second handle joins the session with its id and password, and closes it. Curator's
     * {@code KillSession} only tells the client its session expired; the servers would keep the session, and its
     * lease, until the session timeout ran out.
     */
    public void expireSession(CuratorFramework client) {
        try {
            ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
            CountDownLatch joined = new CountDownLatch(1);
            ZooKeeper twin = new ZooKeeper(connectString(), SESSION_TIMEOUT_MS, event -> {
                if (event.getState() == KeeperState.SyncConnected) {
                    joined.countDown();
                }
            }, handle.getSessionId(), handle.getSessionPasswd(), false, new LocalServers(connectString()),
                    clientConfig());
            try {
                if (!joined.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("could not join the session to expire it within " + PATIENCE);
                }
            } finally {
                twin.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while expiring a session", e);
        } catch (Exception e) {
            throw new IllegalStateException("could not expire the session", e);
        }
    }

    /**
     * Stops the leader and one follower: the follower left has no leader and cannot elect one alone, so it serves no
     * client and no write reaches any log. (A leader left alone could still log a write it can no longer commit, and
     * commit it after the restart: a lost connection never says whether a write happened.)
     */
    public void stopTwoServers() {
        List<TestingZooKeeperServer> servers = cluster.getServers();
        TestingZooKeeperServer leader = servers.stream().filter(Ensemble::leads).findFirst()
                .orElseThrow(() -> new IllegalStateException("no ZooKeeper server says it leads"));
        // The follower first: the two left still form a quorum, and the leader's stop then leaves one follower alone.
        // Stopped first, the leader would leave two followers that elect a new leader between the two stops.
        stop(servers.stream().filter(server -> server != leader).findFirst().orElseThrow());
        stop(leader);
    }

    /**
     * Starts the servers {@link #stopTwoServers} stopped, and returns once the ensemble serves again; with none
     * stopped it does nothing.
     */
    public void restartStoppedServers() {
        if (stopped.isEmpty()) {
            return;
        }
        startTogether(List.copyOf(stopped));
        stopped.clear();
        awaitServing();
    }

    /** Stops every server, then starts them all again on the same data, and returns once they serve. */
    public void restartEveryServer() {
        List<TestingZooKeeperServer> servers = cluster.getServers();
        servers.forEach(this::stop);
        startTogether(servers);
        stopped.clear();
        awaitServing();
    }

    /** Stops the servers, unless this is the ensemble {@link #kept} for later runs. */
    @Override
    public void close() {
        if (stopAtExit == null) {
            stop();
        }
    }

    private void stop() {
        try {
            cluster.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the ZooKeeper ensemble", e);
        }
    }

    /**
     * How every client here talks to the servers: through Netty. ZooKeeper's default socket sleeps 100 ms in every
     * close, and a koan closes three to six clients.
     */
    private static ZKClientConfig clientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
        return config;
    }

    private static boolean leads(TestingZooKeeperServer server) {
        return mode(server).equals("leader");
    }

    private void stop(TestingZooKeeperServer server) {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop a ZooKeeper server", e);
        }
        stopped.add(server);
    }

    /**
     * All at once, each on a thread of its own: a server started alone waits longer and longer for the others to
     * answer its election. ({@code restart} also starts a server that never ran.)
     */
    private static void startTogether(List<TestingZooKeeperServer> servers) {
        ExecutorService starters = Executors.newFixedThreadPool(servers.size());
        try {
            CompletableFuture.allOf(servers.stream().map(server -> CompletableFuture.runAsync(() -> {
                try {
                    server.restart();
                } catch (Exception e) {
                    throw new IllegalStateException("a ZooKeeper server did not start", e);
                }
            }, starters)).toArray(CompletableFuture[]::new)).join();
        } finally {
            starters.shutdown();
        }
    }

    /**
     * Returns once every server serves, one as leader, the others as its followers: then a write commits, and a client
     * that connects to any of them is answered at once. Servers elect on their own, so this is the one place that
     * polls: each server is asked what it is doing (ZooKeeper's {@code srvr}), every {@value #PROBE_INTERVAL_MS} ms,
     * for at most {@link #PATIENCE}. Waiting for one client's write instead would also wait for that client's own
     * pause before each new try, up to a second.
     */
    private void awaitServing() {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        List<String> modes = modes();
        while (!serving(modes)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the ZooKeeper ensemble did not form a quorum within " + PATIENCE
                        + "; its servers said: " + modes);
            }
            try {
                Thread.sleep(PROBE_INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the ZooKeeper ensemble", e);
            }
            modes = modes();
        }
    }

    private static boolean serving(List<String> modes) {
        return modes.stream().filter("leader"::equals).count() == 1
                && modes.stream().allMatch(mode -> mode.equals("leader") || mode.equals("follower"));
    }

    private List<String> modes() {
        return cluster.getServers().stream().map(Ensemble::mode).toList();
    }

    /** The server's mode as it reports it through ZooKeeper's four-letter word {@code srvr}, or what it said instead. */
    private static String mode(TestingZooKeeperServer server) {
        InstanceSpec spec = server.getInstanceSpec();
        try {
            String report = FourLetterWordMain.send4LetterWord(spec.getHostname(), spec.getPort(), "srvr");
            Matcher mode = MODE.matcher(report);
            return mode.find() ? mode.group(1) : report.strip();
        } catch (IOException | X509Exception.SSLContextException e) {
            return "no answer (" + e.getMessage() + ")";
        }
    }
}
