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

    /** A call to ZooKeeper, which may throw its checked exceptions. */
    @FunctionalInterface
    private interface Call<T> {
        T run() throws Exception;
    }

    private final CuratorFramework zookeeper;
    private final Authority authority;

    /** {@code zookeeper} is the issuer's own client, authenticated as {@code Identity.ISSUER}. */
    public LeaseIssuer(CuratorFramework zookeeper, Authority authority) {
        this.zookeeper = zookeeper;
        this.authority = authority;
    }

    public LeaseResult grant(CuratorFramework worker, String resource) throws Exception {
        String lease = LeasePaths.lease(resource);
        return unavailableOnConnectionLoss(resource, () -> {
            Optional<String> taken = unless(KeeperException.Code.NODEEXISTS,
                    () -> worker.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(lease));
            if (taken.isEmpty()) {
                return new LeaseResult.Held(resource);
            }
            return givenBackOnFailure(worker, lease, () -> installNext(worker, resource));
        });
    }

    public long nextGeneration(String resource) throws Exception {
        String counter = LeasePaths.counter(resource);
        Optional<Long> taken = Optional.empty();
        while (taken.isEmpty()) {
            taken = takeNext(counter);
        }
        return taken.get();
    }

    public boolean holds(CuratorFramework worker, Lease lease) throws Exception {
        return ownsNode(worker, LeasePaths.lease(lease.resource()));
    }

    public void release(CuratorFramework worker, Lease lease) throws Exception {
        if (holds(worker, lease)) {
            // Gone meanwhile (its session ended) is as good as deleted.
            unless(KeeperException.Code.NONODE,
                    () -> worker.delete().forPath(LeasePaths.lease(lease.resource())));
        }
    }

    private LeaseResult installNext(CuratorFramework worker, String resource) throws Exception {
        long generation = nextGeneration(resource);
        InstallResult install = authority.install(resource, generation);
        if (install instanceof InstallResult.Installed) {
            return new LeaseResult.Granted(new Lease(resource, generation));
        }
        // Only if it is still the worker's: after its session expired, the node there is the next holder's.
        release(worker, new Lease(resource, generation));
        return new LeaseResult.NotInstalled(resource, generation, install);
    }

    /** One read and one compare-and-set; empty when the counter had to be created or another issuer wrote first. */
    private Optional<Long> takeNext(String counter) throws Exception {
        Stat read = new Stat();
        Optional<byte[]> data = unless(KeeperException.Code.NONODE,
                () -> zookeeper.getData().storingStatIn(read).forPath(counter));
        if (data.isEmpty()) {
            // The ACL goes on the parents too (true), so no worker can delete the counter and create it anew.
            unless(KeeperException.Code.NODEEXISTS,
                    () -> zookeeper.create().creatingParentsIfNeeded().withACL(Identity.counterAcl(), true)
                            .forPath(counter, encode(LeasePaths.FIRST_COUNTER_VALUE)));
            return Optional.empty();
        }
        long next = Long.parseLong(new String(data.get(), StandardCharsets.UTF_8)) + 1;
        return unless(KeeperException.Code.BADVERSION,
                () -> zookeeper.setData().withVersion(read.getVersion()).forPath(counter, encode(next)))
                .map(written -> next);
    }

    /** The call's answer, or empty when it failed with the one {@code expected} ZooKeeper error code. */
    private static <T> Optional<T> unless(KeeperException.Code expected, Call<T> call) throws Exception {
        try {
            return Optional.ofNullable(call.run());
        } catch (KeeperException e) {
            if (e.code() == expected) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Without a quorum nothing is decided: the answer is Unavailable, in the time the connection timeout bounds. */
    private static LeaseResult unavailableOnConnectionLoss(String resource, Call<LeaseResult> call) throws Exception {
        try {
            return call.run();
        } catch (KeeperException.ConnectionLossException lost) {
            return new LeaseResult.Unavailable(resource, lost.getMessage());
        }
    }

    /** Whether {@code worker}'s own session owns the node at {@code path} now. */
    private static boolean ownsNode(CuratorFramework worker, String path) throws Exception {
        long session = worker.getZookeeperClient().getZooKeeper().getSessionId();
        return Optional.ofNullable(worker.checkExists().forPath(path))
                .map(Stat::getEphemeralOwner)
                .filter(owner -> owner == session)
                .isPresent();
    }

    /**
     * Any failure after the lease was taken deletes the lease node first, if the worker's session still owns it,
     * then goes on to the caller.
     */
    private static LeaseResult givenBackOnFailure(CuratorFramework worker, String lease, Call<LeaseResult> call)
            throws Exception {
        try {
            return call.run();
        } catch (Exception | Error failure) {
            try {
                if (ownsNode(worker, lease)) {
                    worker.delete().forPath(lease);
                }
            } catch (Exception cleanup) {
                failure.addSuppressed(cleanup);
            }
            throw failure;
        }
    }

    private static byte[] encode(long value) {
        return Long.toString(value).getBytes(StandardCharsets.UTF_8);
    }
}
