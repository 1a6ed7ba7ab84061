package fencingkoans.lab;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.lease.Ensemble;
import fencingkoans.lease.Identity;
import fencingkoans.lease.LeaseResult;
import fencingkoans.store.FencedStore;
import fencingkoans.store.LeaseIssuer;
import org.apache.curator.framework.CuratorFramework;

/**
 * A lease lost during a pause, on a real ZooKeeper ensemble: told once, for the lab walkthrough and for the
 * workshop. The pause is the time between two lines of the script; the expiry is made to happen, not waited for.
 */
public final class LeasePause {

    private LeasePause() {
    }

    public static void play(Scene scene) throws Exception {
        Ensemble ensemble = scene.ensemble();
        scene.observe("a ZooKeeper ensemble of three servers runs in this JVM");
        LeaseIssuer issuer = new LeaseIssuer(scene.zookeeper(ensemble, Identity.ISSUER), scene.authority());
        CuratorFramework workerA = scene.zookeeper(ensemble, Identity.WORKER);
        CuratorFramework workerB = scene.zookeeper(ensemble, Identity.WORKER);
        FencedStore storeA = scene.store();

        LeaseResult grantToA = issuer.grant(workerA, FUND_A);
        scene.observe("worker A asks for the lease on fund-A: " + grantToA.describe());
        if (!(grantToA instanceof LeaseResult.Granted granted)) {
            return;
        }
        long generation = granted.lease().generation();
        scene.observe("worker A applies a-1 (+5) with generation " + generation + ": "
                + storeA.apply(new ApplyRequest(FUND_A, generation, "a-1", 5)).describe());
        scene.observe("worker A checks that it still holds the lease: " + issuer.holds(workerA, granted.lease())
                + "; then it pauses, before its next write");
        ensemble.expireSession(workerA);
        scene.observe("during the pause, A's session expires on the ensemble, and its ephemeral lease node with it");
        scene.observe("worker B asks for the lease on fund-A: " + issuer.grant(workerB, FUND_A).describe());
        scene.observe("worker A resumes, sure that it holds the lease, and applies a-2 (+7) with generation "
                + generation + ": " + storeA.apply(new ApplyRequest(FUND_A, generation, "a-2", 7)).describe());
        scene.observe("fund-A now: " + scene.describe(FUND_A));
    }
}
