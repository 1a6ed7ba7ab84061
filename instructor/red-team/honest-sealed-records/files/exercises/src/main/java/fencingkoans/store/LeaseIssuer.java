package fencingkoans.store;

import fencingkoans.contract.InstallResult;
import fencingkoans.lease.Identity;
import fencingkoans.lease.Lease;
import fencingkoans.lease.LeasePaths;
import fencingkoans.lease.LeaseResult;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
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

    /** How trying to take the lease node ended: exactly one of these. */
    private sealed interface Claim permits Taken, Refused {
    }

    /** The worker's session now owns the lease node at {@code path}. */
    private record Taken(String path) implements Claim {
    }

    /** The lease was not taken; {@code answer} says why. */
    private record Refused(LeaseResult answer) implements Claim {
    }

    /** The counter as read: the last generation issued and the node version that write must still find. */
    private record CounterRead(long lastIssued, int version) {

        static CounterRead of(byte[] data, Stat stat) {
            return new CounterRead(Long.parseLong(new String(data, StandardCharsets.UTF_8)), stat.getVersion());
        }

        long next() {
            return lastIssued + 1;
        }
    }

    private final CuratorFramework zookeeper;
    private final Authority authority;

    /** {@code zookeeper} is the issuer's own client, authenticated as {@code Identity.ISSUER}. */
    public LeaseIssuer(CuratorFramework zookeeper, Authority authority) {
        this.zookeeper = zookeeper;
        this.authority = authority;
    }

    public LeaseResult grant(CuratorFramework worker, String resource) throws Exception {
        Claim claim = claim(worker, resource);
        if (claim instanceof Refused refused) {
            return refused.answer();
        }
        String lease = ((Taken) claim).path();
        try {
            long generation = nextGeneration(resource);
            InstallResult install = authority.install(resource, generation);
            if (install instanceof InstallResult.Installed) {
                return new LeaseResult.Granted(new Lease(resource, generation));
            }
            // Only if it is still the worker's: after its session expired, the node there is the next holder's.
            release(worker, new Lease(resource, generation));
            return new LeaseResult.NotInstalled(resource, generation, install);
        } catch (KeeperException.ConnectionLossException lost) {
            // No quorum, so no delete either: the lease ends with the worker's session.
            return new LeaseResult.Unavailable(resource, lost.getMessage());
        } catch (Exception | Error failure) {
            try {
                Optional<Stat> owned = ownedNode(worker, lease);
                if (owned.isPresent()) {
                    worker.delete().withVersion(owned.get().getVersion()).forPath(lease);
                }
            } catch (Exception cleanup) {
                failure.addSuppressed(cleanup);
            }
            throw failure;
        }
    }

    public long nextGeneration(String resource) throws Exception {
        String counter = LeasePaths.counter(resource);
        while (true) {
            Optional<CounterRead> read = readCounter(counter);
            if (read.isEmpty()) {
                createCounter(counter);
            } else if (compareAndSet(counter, read.get())) {
                return read.get().next();
            }
        }
    }

    public boolean holds(CuratorFramework worker, Lease lease) throws Exception {
        return ownedNode(worker, LeasePaths.lease(lease.resource())).isPresent();
    }

    public void release(CuratorFramework worker, Lease lease) throws Exception {
        String path = LeasePaths.lease(lease.resource());
        Optional<Stat> owned = ownedNode(worker, path);
        if (owned.isPresent()) {
            worker.delete().withVersion(owned.get().getVersion()).forPath(path);
        }
    }

    private static Claim claim(CuratorFramework worker, String resource) throws Exception {
        String path = LeasePaths.lease(resource);
        try {
            worker.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path);
            return new Taken(path);
        } catch (KeeperException.NodeExistsException held) {
            return new Refused(new LeaseResult.Held(resource));
        } catch (KeeperException.ConnectionLossException lost) {
            return new Refused(new LeaseResult.Unavailable(resource, lost.getMessage()));
        }
    }

    /** The lease node's state, when the worker's own session is the one that owns it. */
    private static Optional<Stat> ownedNode(CuratorFramework worker, String path) throws Exception {
        long session = worker.getZookeeperClient().getZooKeeper().getSessionId();
        return Optional.ofNullable(worker.checkExists().forPath(path))
                .filter(node -> node.getEphemeralOwner() == session);
    }

    private Optional<CounterRead> readCounter(String counter) throws Exception {
        Stat stat = new Stat();
        try {
            byte[] data = zookeeper.getData().storingStatIn(stat).forPath(counter);
            return Optional.of(CounterRead.of(data, stat));
        } catch (KeeperException.NoNodeException missing) {
            return Optional.empty();
        }
    }

    /** False when another issuer wrote the counter after {@code read}: then it must be read again. */
    private boolean compareAndSet(String counter, CounterRead read) throws Exception {
        try {
            zookeeper.setData().withVersion(read.version()).forPath(counter, encode(read.next()));
            return true;
        } catch (KeeperException.BadVersionException anotherIssuerWroteFirst) {
            return false;
        }
    }

    private void createCounter(String counter) throws Exception {
        try {
            // true: the parents get the same ACL, so no worker can delete the counter and create it anew.
            zookeeper.create().creatingParentsIfNeeded().withACL(Identity.counterAcl(), true)
                    .forPath(counter, encode(LeasePaths.FIRST_COUNTER_VALUE));
        } catch (KeeperException.NodeExistsException createdMeanwhile) {
            // Another issuer created it: reading it again is all that is left to do.
        }
    }

    private static byte[] encode(long value) {
        return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
    }
}
