package fencingkoans.store;

import fencingkoans.contract.InstallResult;
import fencingkoans.lease.Identity;
import fencingkoans.lease.Lease;
import fencingkoans.lease.LeasePaths;
import fencingkoans.lease.LeaseResult;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
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
            return issueAndInstall(worker, resource);
        } catch (KeeperException.ConnectionLossException lost) {
            // Without a quorum the lease cannot be deleted either; it ends with the worker's session.
            return new LeaseResult.Unavailable(resource, lost.getMessage());
        } catch (Exception | Error failure) {
            giveBack(worker, lease, failure);
            throw failure;
        }
    }

    public long nextGeneration(String resource) throws Exception {
        String counter = LeasePaths.counter(resource);
        if (zookeeper.checkExists().forPath(counter) == null) {
            createCounter(counter);
        }
        OptionalLong taken = OptionalLong.empty();
        while (taken.isEmpty()) {
            taken = tryToTakeNext(counter);
        }
        return taken.getAsLong();
    }

    public boolean holds(CuratorFramework worker, Lease lease) throws Exception {
        return ownsNode(worker, LeasePaths.lease(lease.resource()));
    }

    public void release(CuratorFramework worker, Lease lease) throws Exception {
        if (!holds(worker, lease)) {
            return;
        }
        worker.delete().forPath(LeasePaths.lease(lease.resource()));
    }

    private LeaseResult issueAndInstall(CuratorFramework worker, String resource) throws Exception {
        long generation = nextGeneration(resource);
        InstallResult install = authority.install(resource, generation);
        if (!(install instanceof InstallResult.Installed)) {
            // Only if it is still the worker's: after its session expired, the node there is the next holder's.
            release(worker, new Lease(resource, generation));
            return new LeaseResult.NotInstalled(resource, generation, install);
        }
        return new LeaseResult.Granted(new Lease(resource, generation));
    }

    /** One compare-and-set on the counter; empty when another issuer wrote it after it was read. */
    private OptionalLong tryToTakeNext(String counter) throws Exception {
        Stat read = new Stat();
        byte[] data = zookeeper.getData().storingStatIn(read).forPath(counter);
        long next = Long.parseLong(new String(data, StandardCharsets.UTF_8)) + 1;
        try {
            zookeeper.setData().withVersion(read.getVersion()).forPath(counter, decimal(next));
        } catch (KeeperException.BadVersionException lostTheRace) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(next);
    }

    /** The ACL goes on the parents Curator creates too, so that no worker can delete the counter's folder. */
    private void createCounter(String counter) throws Exception {
        try {
            zookeeper.create().creatingParentsIfNeeded().withACL(Identity.counterAcl(), true)
                    .forPath(counter, decimal(LeasePaths.FIRST_COUNTER_VALUE));
        } catch (KeeperException.NodeExistsException anotherIssuerWasFirst) {
            // Created between the check and here: the loop reads it like any other counter.
        }
    }

    private static boolean ownsNode(CuratorFramework worker, String path) throws Exception {
        Stat node = worker.checkExists().forPath(path);
        if (node == null) {
            return false;
        }
        return node.getEphemeralOwner() == worker.getZookeeperClient().getZooKeeper().getSessionId();
    }

    /** Only while the worker's session owns the node: after it expired, the node there is the next holder's. */
    private static void giveBack(CuratorFramework worker, String lease, Throwable failure) {
        try {
            if (ownsNode(worker, lease)) {
                worker.delete().forPath(lease);
            }
        } catch (Exception alsoFailed) {
            failure.addSuppressed(alsoFailed);
        }
    }

    private static byte[] decimal(long value) {
        return Long.toString(value).getBytes(StandardCharsets.UTF_8);
    }
}
