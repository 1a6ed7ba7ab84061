package fencingkoans.store;

import fencingkoans.contract.NotWrittenYet;
import fencingkoans.lease.Lease;
import fencingkoans.lease.LeaseResult;
import org.apache.curator.framework.CuratorFramework;

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

    /**
     * Lesson 7: take the lease for the worker (an ephemeral node at {@code LeasePaths.lease}, created by the
     * worker's client), take the next generation, install it, and hand the worker its {@link Lease}. A lease held
     * by someone else answers {@code Held}; a lost connection answers {@code Unavailable}; whatever goes wrong after
     * the lease was taken gives it back, if the worker's session still owns it.
     */
    public LeaseResult grant(CuratorFramework worker, String resource) throws Exception {
        throw new NotWrittenYet();
    }

    /**
     * Lesson 7: one more than the counter at {@code LeasePaths.counter}, written back only if nobody wrote it since
     * it was read. A missing counter is created at {@code LeasePaths.FIRST_COUNTER_VALUE}, with
     * {@code Identity.counterAcl()} on it and on its parents.
     */
    public long nextGeneration(String resource) throws Exception {
        throw new NotWrittenYet();
    }

    /** Lesson 7: whether the worker's own session owns the lease node right now. */
    public boolean holds(CuratorFramework worker, Lease lease) throws Exception {
        throw new NotWrittenYet();
    }

    /** Lesson 7: give the lease back, if the worker still holds it; the counter stays. */
    public void release(CuratorFramework worker, Lease lease) throws Exception {
        throw new NotWrittenYet();
    }
}
