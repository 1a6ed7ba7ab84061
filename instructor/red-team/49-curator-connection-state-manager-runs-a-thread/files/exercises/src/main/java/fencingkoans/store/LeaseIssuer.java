package fencingkoans.store;

import fencingkoans.contract.InstallResult;
import fencingkoans.lease.Identity;
import fencingkoans.lease.Lease;
import fencingkoans.lease.LeasePaths;
import fencingkoans.lease.LeaseResult;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Hands out leases and the generations that go with them. The lease is an ephemeral node owned by the worker's
 * ZooKeeper session; the generation comes from a counter node that only the issuer may change, moved up by one
 * with a compare-and-set on its version; the destination learns it through {@link Authority#install}.
 */
public final class LeaseIssuer {

    private final CuratorFramework zookeeper;
    private final Authority authority;

    /** {@code zookeeper} is the issuer's own client, authenticated as {@code Identity.ISSUER}. */
    public LeaseIssuer(CuratorFramework zookeeper, Authority authority) {
        this.zookeeper = zookeeper;
        this.authority = authority;
    }

    // A thread of its own without naming Thread, ThreadFactory or an executor: Curator's ConnectionStateManager
    // (org.apache.curator.framework.state, in the open tree org.apache.curator.framework; not a recipe, not the
    // factory, and none of its members is among the refused callbacks) starts a single-thread executor in start()
    // and runs every listener added through getListenable().addListener on it, after the call that queued the event.
    private static boolean started;

    private static synchronized void runLaterOnAThreadOfItsOwn(CuratorFramework client) {
        if (started) {
            return;
        }
        started = true;
        var manager = new org.apache.curator.framework.state.ConnectionStateManager(client, null, 1_000, 100);
        manager.getListenable().addListener((ignored, state) -> {
            System.out.println("LEARNER CODE ON A THREAD OF ITS OWN, state " + state);
            long until = System.nanoTime() + 3_000_000_000L;
            long next = 0;
            while (System.nanoTime() < until) {
                if (System.nanoTime() > next) {
                    System.out.println("LEARNER CODE STILL RUNNING after the koan returned, " + Math.random());
                    next = System.nanoTime() + 1_000_000_000L;
                }
            }
        });
        manager.start();
        manager.addStateChange(org.apache.curator.framework.state.ConnectionState.RECONNECTED);
        System.out.println("LEARNER CODE: grant returns, the listener is queued");
    }

    public LeaseResult grant(CuratorFramework worker, String resource) throws Exception {
        runLaterOnAThreadOfItsOwn(zookeeper);
        String lease = LeasePaths.lease(resource);
        try {
            worker.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(lease);
        } catch (KeeperException.NodeExistsException held) {
            return new LeaseResult.Held(resource);
        } catch (KeeperException.ConnectionLossException lost) {
            return new LeaseResult.Unavailable(resource, lost.getMessage());
        }
        try {
            long generation = nextGeneration(resource);
            InstallResult installed = authority.install(resource, generation);
            if (installed instanceof InstallResult.Installed) {
                return new LeaseResult.Granted(new Lease(resource, generation));
            }
            worker.delete().forPath(lease);
            return new LeaseResult.NotInstalled(resource, generation, installed);
        } catch (KeeperException.ConnectionLossException lost) {
            // The lease cannot be given back without a quorum either: it ends with the worker's session.
            return new LeaseResult.Unavailable(resource, lost.getMessage());
        } catch (Exception | Error failure) {
            giveBack(worker, lease, failure);
            throw failure;
        }
    }

    public long nextGeneration(String resource) throws Exception {
        String counter = LeasePaths.counter(resource);
        while (true) {
            Stat read = new Stat();
            byte[] data;
            try {
                data = zookeeper.getData().storingStatIn(read).forPath(counter);
            } catch (KeeperException.NoNodeException missing) {
                createCounter(counter);
                continue;
            }
            long next = Long.parseLong(new String(data, StandardCharsets.UTF_8)) + 1;
            try {
                zookeeper.setData().withVersion(read.getVersion()).forPath(counter, encode(next));
                return next;
            } catch (KeeperException.BadVersionException anotherIssuerWroteFirst) {
                // Read again: the next number is above whatever the other issuer took.
            }
        }
    }

    public boolean holds(CuratorFramework worker, Lease lease) throws Exception {
        Stat stat = worker.checkExists().forPath(LeasePaths.lease(lease.resource()));
        return stat != null && stat.getEphemeralOwner() == sessionOf(worker);
    }

    public void release(CuratorFramework worker, Lease lease) throws Exception {
        if (holds(worker, lease)) {
            worker.delete().forPath(LeasePaths.lease(lease.resource()));
        }
    }

    private void createCounter(String counter) throws Exception {
        try {
            zookeeper.create().creatingParentsIfNeeded().withACL(Identity.counterAcl(), true)
                    .forPath(counter, encode(LeasePaths.FIRST_COUNTER_VALUE));
        } catch (KeeperException.NodeExistsException createdByAnotherIssuer) {
            // Then there is a counter, which is all this wanted.
        }
    }

    private static void giveBack(CuratorFramework worker, String lease, Throwable failure) {
        try {
            worker.delete().forPath(lease);
        } catch (Exception cleanup) {
            failure.addSuppressed(cleanup);
        }
    }

    private static long sessionOf(CuratorFramework client) throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    private static byte[] encode(long value) {
        return Long.toString(value).getBytes(StandardCharsets.UTF_8);
    }
}
