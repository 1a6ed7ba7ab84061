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

    public LeaseResult grant(CuratorFramework worker, String resource) throws Exception {
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
            giveBack(worker, lease);
            return new LeaseResult.NotInstalled(resource, generation, installed);
        } catch (KeeperException.ConnectionLossException lost) {
            // The lease cannot be given back without a quorum either: it ends with the worker's session.
            return new LeaseResult.Unavailable(resource, lost.getMessage());
        } catch (Exception | Error failure) {
            giveBackAfter(worker, lease, failure);
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
        return owns(worker, LeasePaths.lease(lease.resource()));
    }

    public void release(CuratorFramework worker, Lease lease) throws Exception {
        giveBack(worker, LeasePaths.lease(lease.resource()));
    }

    private static boolean owns(CuratorFramework worker, String lease) throws Exception {
        Stat stat = worker.checkExists().forPath(lease);
        return stat != null && stat.getEphemeralOwner() == sessionOf(worker);
    }

    /** Only a lease the worker's session owns now: once that session has expired, a node there is the next holder's. */
    private static void giveBack(CuratorFramework worker, String lease) throws Exception {
        if (owns(worker, lease)) {
            worker.delete().forPath(lease);
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

    private static void giveBackAfter(CuratorFramework worker, String lease, Throwable failure) {
        try {
            giveBack(worker, lease);
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
