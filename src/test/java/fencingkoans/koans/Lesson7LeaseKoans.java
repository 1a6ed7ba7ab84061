package fencingkoans.koans;

import static fencingkoans.koans.support.Thrown.assertThrown;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.EnsembleKoans;
import fencingkoans.koans.support.Pause;
import fencingkoans.lease.EnsembleClient;
import fencingkoans.lease.Identity;
import fencingkoans.lease.Lease;
import fencingkoans.lease.LeasePaths;
import fencingkoans.lease.LeaseResult.Granted;
import fencingkoans.lease.LeaseResult.Held;
import fencingkoans.lease.LeaseResult.NotInstalled;
import fencingkoans.lease.LeaseResult.Unavailable;
import fencingkoans.lease.LeaseResult;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedError;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import fencingkoans.store.LeaseIssuer;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Tag;

/**
 * Lesson 7 (extension): the generations come from a real ZooKeeper ensemble of three servers, started inside the
 * test JVM. The lease lives in ZooKeeper, the generation comes from a counter there, and the destination's check
 * is still what protects the data when the lease is lost.
 */
@Lesson(value = 7, title = "Where generations come from (extension)",
        page = "docs/lessons/7-where-generations-come-from.md")
@Tag(Lesson7LeaseKoans.ENSEMBLE_TAG)
class Lesson7LeaseKoans extends EnsembleKoans {

    /**
     * Every koan here runs on the class's ensemble, which each repeat round starts anew. The course check's repeat
     * run takes its {@code @Interleaving} ones; the whole lesson repeats on request, with
     * {@code -Dtest=RepeatRunCheck -Dcourse-check.repeat-tag=zookeeper-ensemble}.
     */
    static final String ENSEMBLE_TAG = "zookeeper-ensemble";

    /** How long a koan waits for an answer from the learner's code before it calls it a hang. */
    private static final long PATIENCE_SECONDS = 30;
    /** Reads of one counter that a nextGeneration racing a handful of issuers could need; a loop needs more. */
    private static final int MORE_READS_THAN_A_RACE_NEEDS = 10;
    /** Compare-and-sets an issuer loses in a row in koan 7.5: more than any retry limit a learner would pick. */
    private static final int LOSSES_IN_A_ROW = 100;

    @Koan(edit = "LeaseIssuer.grant and LeaseIssuer.nextGeneration",
            teaches = "The first lease holder gets a generation from ZooKeeper's counter, and the destination admits "
                    + "its apply.",
            hints = {
                "Three steps in grant: the worker's client takes the lease, the issuer takes the next generation from "
                        + "the counter node, the Authority installs it. Where is the counter kept between two issuers?",
                "nextGeneration: zookeeper.getData().storingStatIn(stat).forPath(LeasePaths.counter(resource)), add "
                        + "one, zookeeper.setData().withVersion(stat.getVersion()).forPath(path, bytes). On "
                        + "KeeperException.NoNodeException create the counter at LeasePaths.FIRST_COUNTER_VALUE first, "
                        + "withACL(Identity.counterAcl(), true), and read again.",
                "grant: worker.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("
                        + "LeasePaths.lease(resource)); then authority.install(resource, generation), and an Installed "
                        + "answer becomes new LeaseResult.Granted(new Lease(resource, generation))."})
    void theFirstLeaseHolderGetsAGenerationTheDestinationAdmits() throws Exception {
        CuratorFramework workerA = worker();

        LeaseResult granted = issuer().grant(workerA, FUND_A);
        ApplyResult applied = course.store().apply(new ApplyRequest(FUND_A, leaseOf(granted).generation(), "a-1", 5));

        assertThat(granted).as("worker A's grant, the first on fund-A: the counter starts at 1, the generation fund-A "
                + "is seeded with, so the first generation issued is 2").isEqualTo(new Granted(new Lease(FUND_A, 2)));
        assertThat(counter(FUND_A)).as("the counter node in ZooKeeper after the grant: the last generation issued "
                + "lives there, where every issuer reads it").isEqualTo(2);
        assertThat(course.state(FUND_A).generation()).as("fund-A's installed generation at the destination")
                .isEqualTo(2);
        assertThat(applied).as("worker A's apply with the generation of its lease").isEqualTo(new Applied(5));
    }

    @Koan(edit = "LeaseIssuer.grant",
            teaches = "While the lease is held, a grant is refused, even one to the holder itself, and nothing is issued or installed.",
            hints = {
                "The lease is one ephemeral node. What does a second create of the same path meet, and what must "
                        + "not happen after it?",
                "Catch KeeperException.NodeExistsException around the worker's create and answer new "
                        + "LeaseResult.Held(resource), before any generation is taken."})
    void aSecondWorkerIsRefusedWhileTheLeaseIsHeld() throws Exception {
        LeaseIssuer issuer = issuer();
        CuratorFramework workerA = worker();
        Lease leaseA = leaseOf(issuer.grant(workerA, FUND_A));

        LeaseResult grantToB = issuer.grant(worker(), FUND_A);
        LeaseResult grantToAAgain = issuer.grant(workerA, FUND_A);
        boolean aStillHolds = sessionOwnsTheLease(workerA, FUND_A);

        assertThat(grantToB).as("worker B's grant while worker A holds the lease on fund-A with generation "
                + leaseA.generation()).isEqualTo(new Held(FUND_A));
        assertThat(grantToAAgain).as("worker A asking again while it holds the lease itself: the lease node exists, "
                + "so the create meets it as any other; a second grant to the holder would issue a new generation "
                + "and make the holder's own lease stale").isEqualTo(new Held(FUND_A));
        assertThat(aStillHolds).as("whether worker A still holds its lease after asking again and being told "
                + "Held: a refused grant changes nothing, the holder's lease least of all").isTrue();
        assertThat(counter(FUND_A)).as("the counter after the refusals: a refused grant takes no number")
                .isEqualTo(leaseA.generation());
        assertThat(course.state(FUND_A).generation()).as("fund-A's installed generation after the refusals")
                .isEqualTo(leaseA.generation());
    }

    @Interleaving
    @Koan(edit = "LeaseIssuer.grant",
            teaches = "Two workers asking for one lease at once: the create decides, so one gets the lease and the "
                    + "other is Held. A look before the create decides nothing.",
            hints = {
                "If your grant creates the lease node and answers Held on NodeExistsException, as the koan before "
                        + "asked, this passes as soon as you reach it: it guards that the create decides. If not: "
                        + "worker C's grant was held right before it created the lease node, while worker D took the "
                        + "lease. Whatever C saw before that moment is out of date: which step learns that the lease "
                        + "is taken?",
                "Do not ask first whether the lease node exists: create it, and catch "
                        + "KeeperException.NodeExistsException around the create to answer new "
                        + "LeaseResult.Held(resource). The create checks and takes in one step, as the destination "
                        + "checks and applies in one transaction."})
    void twoWorkersAskingForOneLeaseAtOnceGetOneLease() throws Exception {
        LeaseIssuer issuer = issuer();
        EnsembleClient workerC = connect(Identity.WORKER);
        Pause pause = new Pause();
        workerC.onceBeforeLeaseCreated(pause::hold);

        CompletableFuture<LeaseResult> grantToC = CompletableFuture.supplyAsync(
                unchecked(() -> issuer.grant(workerC.curator(), FUND_A)));
        LeaseResult grantToD;
        try {
            pause.awaitReached(grantToC, "does grant create the lease node with the worker's own client?");
            grantToD = issuer.grant(worker(), FUND_A);
        } finally {
            pause.release();
        }
        LeaseResult answerToC = answerOf(grantToC, "worker C's grant, held right before its create while worker D "
                + "took the lease");

        assertThat(grantToD).as("worker D's grant, made while C's was held right before its create")
                .isEqualTo(new Granted(new Lease(FUND_A, 2)));
        assertThat(answerToC).as("worker C's grant once it goes on: D holds the lease now, whatever C saw before")
                .isEqualTo(new Held(FUND_A));
        assertThat(counter(FUND_A)).as("the counter: only D's grant took a number").isEqualTo(2);
    }

    @Koan(edit = "LeaseIssuer.holds and LeaseIssuer.release",
            teaches = "The next holder gets a strictly higher generation, the first holder's next apply is rejected "
                    + "as stale, and a late release by the first holder frees nothing.",
            hints = {
                "Holding means this worker's own session owns the lease node, not just that the node exists. "
                        + "Releasing deletes that node only while the worker holds it, and nothing else: what would "
                        + "the next issuer count from if the counter went too?",
                "holds: Stat stat = worker.checkExists().forPath(LeasePaths.lease(lease.resource())); compare "
                        + "stat.getEphemeralOwner() with worker.getZookeeperClient().getZooKeeper().getSessionId(). "
                        + "A missing node is held by nobody. release: if the worker holds it, worker.delete() the same "
                        + "path, and otherwise nothing; a delete ZooKeeper refuses goes on to the caller."})
    void theNextHolderGetsAHigherGenerationAndTheFirstHoldersApplyIsStale() throws Exception {
        LeaseIssuer issuer = issuer();
        CuratorFramework workerA = worker();
        CuratorFramework workerB = worker();
        FencedStore storeA = course.store();
        Lease leaseA = leaseOf(issuer.grant(workerA, FUND_A));
        ApplyResult whileHeld = storeA.apply(new ApplyRequest(FUND_A, leaseA.generation(), "a-1", 5));

        // The issuer service runs more than one instance, and any may be asked: A gives its lease back through
        // another one, and then asks the issuer that granted it.
        issuer().release(workerA, leaseA);
        boolean heldAfterRelease = issuer.holds(workerA, leaseA);
        Lease leaseB = leaseOf(issuer.grant(workerB, FUND_A));
        boolean heldByAWhileBHolds = issuer.holds(workerA, leaseB);
        issuer.release(workerA, leaseA);
        // A copy of B's lease in A's hands: the lease value is data, the node's session says who holds it.
        issuer.release(workerA, leaseB);
        ApplyResult afterRelease = storeA.apply(new ApplyRequest(FUND_A, leaseA.generation(), "a-2", 5));
        // The issuer makes the leases' folder read-only for workers: B's release of its own lease is refused.
        connect(Identity.ISSUER).curator().setACL().withACL(Identity.counterAcl())
                .forPath(ZKPaths.getPathAndNode(LeasePaths.lease(FUND_A)).getPath());
        Throwable refusedRelease = catchThrowable(() -> issuer.release(workerB, leaseB));

        assertThat(whileHeld).as("worker A's apply while it holds the lease").isEqualTo(new Applied(5));
        assertThat(leaseB.generation()).as("worker B's generation after A gave the lease back: strictly above A's "
                + leaseA.generation()).isEqualTo(leaseA.generation() + 1);
        assertThat(heldAfterRelease).as("whether worker A holds the lease right after giving it back through another "
                + "issuer, asked of the issuer that granted it: what ZooKeeper holds now answers, not what an issuer "
                + "remembers granting; A's session is the same, and its node is gone").isFalse();
        assertThat(heldByAWhileBHolds).as("whether worker A holds the lease now that B does: the node "
                + "exists, but another session owns it").isFalse();
        assertThat(issuer.holds(workerB, leaseB)).as("whether worker B still holds its lease after A, late, gave "
                + "its own back a second time and then gave back B's lease (generation " + leaseB.generation()
                + ", the newest): a release may delete only a node its caller's session owns")
                .isTrue();
        assertThat(afterRelease).as("worker A's next apply, still with generation " + leaseA.generation())
                .isEqualTo(Rejected.stale(leaseA.generation(), leaseB.generation()));
        assertThrown(refusedRelease, "worker B's release of its own lease once workers may no longer delete in the "
                + "leases' folder: ZooKeeper refused the delete (NoAuth), B still holds the lease, and a release that "
                + "returns as if it had given it back leaves every other worker Held until B's session ends",
                "the release returned normally").isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(course.value(FUND_A)).as("fund-A's value: only A's first apply landed").isEqualTo(5);
    }

    @Interleaving
    @Koan(edit = "LeaseIssuer.nextGeneration and LeaseIssuer.grant",
            teaches = "Two issuers race for one counter: exactly one compare-and-set wins, the other reads again, and "
                    + "no generation is handed out twice; a lease carries the number its own grant took.",
            hints = {
                "Issuer A read the counter, then issuer B moved it on before A wrote. A write that does not say "
                        + "which version it read overwrites B's number; one that says so fails instead. And then?",
                "setData().withVersion(stat.getVersion()) fails with KeeperException.BadVersionException when "
                        + "someone wrote in between: catch it and start again from the read, whatever the counter "
                        + "shows then. A number kept in a field is not shared by two issuers at all.",
                "grant: the lease carries the number nextGeneration returned, the one the destination installed. "
                        + "Reading the counter again after the install may find a number another issuer took since."})
    void racingIssuersNeverHandOutTheSameGenerationTwice() throws Exception {
        LeaseIssuer issuerB = issuer();
        long beforeTheRace = issuerB.nextGeneration(FUND_A);

        CounterRace race = heldWhileAnotherTakes(Seam.AFTER_ITS_READ, FUND_A, issuerB, 2);
        // Issuer C takes a number on fund-B, and right after its write issuer D, on another thread, takes the next.
        // D shares C's client, so whatever C reads afterwards already shows D's number: C's number is the one its
        // own compare-and-set wrote, never what the counter says a moment later.
        issuerB.nextGeneration(FUND_B);
        EnsembleClient clientOfC = connect(Identity.ISSUER);
        List<Long> takenByDMeanwhile = new ArrayList<>();
        clientOfC.onceAfterCounterWritten(() -> takenByDMeanwhile.add(CompletableFuture.supplyAsync(
                unchecked(() -> issuerOn(clientOfC).nextGeneration(FUND_B))).join()));
        long takenByC = issuerOn(clientOfC).nextGeneration(FUND_B);

        assertThat(List.of(beforeTheRace, race.takenMeanwhile().get(0), race.takenMeanwhile().get(1),
                race.takenByTheHeld())).as(
                "the generations issued: before the race, twice by issuer B while A sat between its read and its "
                + "write, and by A after it: A's compare-and-set must lose, and A must read again and take the number "
                + "after B's last, however many B took").containsExactly(2L, 3L, 4L, 5L);
        assertThat(counter(FUND_A)).as("the counter after the race").isEqualTo(5);
        assertThat(takenByDMeanwhile).as("the number issuer D took on fund-B right after issuer C wrote the counter, "
                + "when C answered %d: C's number is the one its own compare-and-set wrote, never what the counter "
                + "says a moment later", takenByC).hasSize(1).doesNotContain(takenByC);
        // Issuer E is held right before its write, after every read it makes, while issuer B takes two numbers.
        CounterRace raceOfE = heldWhileAnotherTakes(Seam.BEFORE_ITS_WRITE, FUND_A, issuerB, 2);
        assertThat(List.of(raceOfE.takenMeanwhile().get(0), raceOfE.takenMeanwhile().get(1), raceOfE.takenByTheHeld()))
                .as("the two numbers issuer B took while issuer E was held right before its counter write (after "
                        + "every read E makes), then E's own number: a look just before the write decides nothing, "
                        + "only a write that names the version it read (withVersion) fails when the counter moved")
                .containsExactly(6L, 7L, 8L);
        // Issuer F is held right after it read 8, while issuer B takes exactly one number: the counter then holds 9,
        // the very number F meant to write.
        CounterRace raceOfF = heldWhileAnotherTakes(Seam.AFTER_ITS_READ, FUND_A, issuerB, 1);
        assertThat(List.of(raceOfF.takenMeanwhile().get(0), raceOfF.takenByTheHeld())).as("the number issuer B took while issuer F sat "
                + "right after reading 8, then F's own: B wrote 9, the number F meant to write, so F's compare-and-set "
                + "lost; a counter that shows F's number says nothing about whose write put it there, and F reads again")
                .containsExactly(9L, 10L);
        // Issuer G loses its compare-and-set again and again: right after each of G's reads, issuer B takes a number,
        // on a thread of its own (Curator keeps a retry loop per thread, which a nested call would share with G's).
        EnsembleClient clientOfG = connect(Identity.ISSUER);
        List<Long> takenWhileGRead = new ArrayList<>();
        afterEachCounterRead(clientOfG, reads -> {
            takenWhileGRead.add(CompletableFuture.supplyAsync(unchecked(() -> issuerB.nextGeneration(FUND_A))).join());
            return reads < LOSSES_IN_A_ROW;
        });
        long[] takenByG = new long[1];
        Throwable gaveUp = catchThrowable(() -> takenByG[0] = issuerOn(clientOfG).nextGeneration(FUND_A));
        assertThat(gaveUp).as("issuer G's nextGeneration on fund-A, whose compare-and-set lost %d times in a row "
                + "(issuer B took a number right after each of G's reads): a busy counter is no failure, and a limit "
                + "on the retries turns it into one while the quorum is fine; G reads again for as long as it loses",
                takenWhileGRead.size()).isNull();
        assertThat(takenByG[0]).as("issuer G's number, after issuer B took 11 to %d", 10 + LOSSES_IN_A_ROW)
                .isEqualTo(10 + LOSSES_IN_A_ROW + 1);
        // One issuer serves three threads at once: the first sits right after its read, the second takes a number,
        // the third reads and sits right before its write, and then the first goes on.
        EnsembleClient sharedClient = connect(Identity.ISSUER);
        LeaseIssuer shared = issuerOn(sharedClient);
        long counterBefore = counter(FUND_A);
        Pause afterItsRead = new Pause();
        sharedClient.onceAfterCounterRead(afterItsRead::hold);
        CompletableFuture<Long> firstThread = CompletableFuture.supplyAsync(unchecked(() -> shared.nextGeneration(
                FUND_A)));
        afterItsRead.awaitReached(firstThread, "did the first thread's nextGeneration read the counter?");
        long secondThread = shared.nextGeneration(FUND_A);
        Pause beforeItsWrite = new Pause();
        sharedClient.onceBeforeCounterWritten(beforeItsWrite::hold);
        CompletableFuture<Long> thirdThread = CompletableFuture.supplyAsync(unchecked(() -> shared.nextGeneration(
                FUND_A)));
        beforeItsWrite.awaitReached(thirdThread, "did the third thread's nextGeneration write the counter?");
        afterItsRead.release();
        long first = answerOf(firstThread, "the first thread's nextGeneration");
        beforeItsWrite.release();
        long third = answerOf(thirdThread, "the third thread's nextGeneration");
        assertThat(List.of(secondThread, first, third)).as("the numbers one issuer took on fund-A for three threads "
                + "at once, from a counter at %d: the second thread's, then the first's, which read before the second "
                + "wrote, then the third's, which read before the first wrote; what one call read (its Stat, its "
                + "number) belongs to that call, not to a field of the issuer the three share", counterBefore)
                .containsExactly(counterBefore + 1, counterBefore + 2, counterBefore + 3);
        // Worker W is granted fund-B, and while the destination installs W's number, issuer B takes the next one.
        List<Long> takenDuringTheInstall = new ArrayList<>();
        Authority authorityOfW = course.authority();
        authorityOfW.checkpoints().once(Checkpoint.AFTER_GENERATION_READ,
                () -> takenDuringTheInstall.add(unchecked(() -> issuerB.nextGeneration(FUND_B)).get()));
        LeaseIssuer issuerOfW = new LeaseIssuer(connect(Identity.ISSUER).curator(), authorityOfW);
        LeaseResult grantToW = issuerOfW.grant(worker(), FUND_B);
        assertThat(takenDuringTheInstall).as("the number issuer B took while the destination installed worker W's "
                + "(does grant install through the Authority it was given?)").containsExactly(6L);
        assertThat(grantToW).as("worker W's grant on fund-B, whose install of 5 went through while issuer B took 6: "
                + "the lease carries the number the grant's own compare-and-set wrote and the destination installed, "
                + "not the counter as it reads by the time the grant answers (hint 3)")
                .isEqualTo(new Granted(new Lease(FUND_B, 5)));
    }

    @Interleaving
    @Koan(edit = "LeaseIssuer.nextGeneration",
            teaches = "Two issuers can both find a counter missing: one creates it, and the other, whose create then "
                    + "finds a node there, reads that counter instead of starting one of its own.",
            hints = {
                "Issuer A found no counter for fund-B and sat still; meanwhile issuer B created one and took two "
                        + "numbers from it. Now A creates the counter. Is a node already there a failure of A's "
                        + "grant, or only the news that the counter exists?",
                "Catch KeeperException.NodeExistsException around the create and go back to the read, as after a "
                        + "BadVersionException. Returning a number without reading again, or a create that "
                        + "overwrites the node (orSetData), hands out B's numbers a second time. The issuer that "
                        + "created the counter goes back to the read as well: its create reserved no number."})
    void issuersThatBothFindNoCounterShareTheOneThatWasCreated() throws Exception {
        CounterRace race = heldWhileAnotherTakes(Seam.AFTER_ITS_READ, FUND_B, issuer(), 2);

        assertThat(List.of(race.takenMeanwhile().get(0), race.takenMeanwhile().get(1), race.takenByTheHeld())).as(
                "the generations "
                + "issued on fund-B: twice by issuer B, which created the counter while A sat after finding none, "
                + "then by A: A's create must find B's counter and A must take the number after B's last")
                .containsExactly(2L, 3L, 4L);
        assertThat(counter(FUND_B)).as("fund-B's counter after both issuers").isEqualTo(4);

        // Issuer C finds no counter for fund-A, creates it, and is held right before its first write, while issuer D
        // takes a number from the counter C created.
        CounterRace raceOfC = heldWhileAnotherTakes(Seam.BEFORE_ITS_WRITE, FUND_A, issuer(), 1);
        assertThat(List.of(raceOfC.takenMeanwhile().get(0), raceOfC.takenByTheHeld())).as("the number issuer D took from fund-A's new counter while "
                + "issuer C, which created it, sat right before its first write, then C's own: creating the counter "
                + "reserves no number, so C's first write is a compare-and-set like any other")
                .containsExactly(2L, 3L);
        assertThat(counter(FUND_A)).as("fund-A's counter after both issuers").isEqualTo(3);
    }

    @Interleaving
    @Koan(edit = "LeaseIssuer.holds",
            teaches = "A worker whose session expired during a pause still believes it holds the lease; its write is "
                    + "rejected by the destination, not by the lease.",
            hints = {
                "Worker A's check was true when A made it. What happened between the check and the write, and who "
                        + "noticed?",
                "There is nothing new to write: B's generation is installed, and A presents its own. If this fails, "
                        + "read what holds or grant answered: an expired session takes its ephemeral lease with it."})
    void aLeaseLostDuringAPauseIsCaughtByTheDestination() throws Exception {
        LeaseIssuer issuer = issuer();
        CuratorFramework workerA = worker();
        FencedStore storeA = course.store();
        Lease leaseA = leaseOf(issuer.grant(workerA, FUND_A));
        boolean checkedBeforeThePause = issuer.holds(workerA, leaseA);

        long sessionBeforeThePause = workerA.getZookeeperClient().getZooKeeper().getSessionId();
        ensemble().expireSession(workerA);
        CuratorFramework workerB = worker();
        LeaseResult grantToB = issuer.grant(workerB, FUND_A);
        ApplyResult afterThePause = storeA.apply(new ApplyRequest(FUND_A, leaseA.generation(), "a-1", 5));
        // A starts over: B gives the lease back, and A's client, under the new session it made, asks again.
        issuer.release(workerB, leaseOf(grantToB));
        awaitANewSession(workerA, sessionBeforeThePause, "worker A");
        boolean holdsTheLostLease = issuer.holds(workerA, leaseA);
        Lease leaseAgain = leaseOf(issuer.grant(workerA, FUND_A));
        boolean holdsAgain = issuer.holds(workerA, leaseAgain);

        assertThat(checkedBeforeThePause).as("worker A's check that it holds the lease, right before its pause")
                .isTrue();
        assertThat(grantToB).as("worker B's grant once A's session expired on the ensemble during A's pause: the "
                + "ephemeral lease went with the session").isEqualTo(new Granted(new Lease(FUND_A, 3)));
        assertThat(afterThePause).as("worker A's write after its pause, with the generation of the lease it still "
                + "believes it holds: the lease did not stop this write, the destination's check did")
                .isEqualTo(Rejected.stale(2, 3));
        assertThat(course.value(FUND_A)).as("fund-A's value").isZero();
        assertThat(holdsTheLostLease).as("whether worker A holds the lease it was granted before the pause, asked "
                + "again once its session had expired and B had come and gone: true was the answer before the pause, "
                + "and an answer kept from then is the lease A lost").isFalse();
        assertThat(holdsAgain).as("whether worker A holds the lease it was granted again, under the session its "
                + "client made after the first one expired: ask ZooKeeper which session the client has now, every "
                + "time; a session remembered from before is gone").isTrue();
    }

    @Koan(edit = "LeaseIssuer.grant, LeaseIssuer.nextGeneration and LeaseIssuer.release",
            teaches = "Without a quorum no generation is issued: the grant answers Unavailable in bounded time, "
                    + "nothing is installed, and after the restart issuing goes on strictly higher.",
            hints = {
                "With two of three servers stopped, no write can be committed. What does an operation throw once its "
                        + "client has found no server to answer it, and what must the issuer not do after that?",
                "Catch KeeperException.ConnectionLossException (Curator's CuratorConnectionLossException is one), "
                        + "around the lease and around the counter, and answer new LeaseResult.Unavailable(resource, "
                        + "e.getMessage()); never install, never retry for ever. A lease taken before the loss ends "
                        + "with its worker's session. release has no such answer: let its exception reach the caller."})
    void withoutAQuorumNothingIsIssuedOrInstalled() throws Exception {
        EnsembleClient clientOfIssuer = connect(Identity.ISSUER);
        LeaseIssuer issuer = issuerOn(clientOfIssuer);
        LeaseIssuer secondIssuer = issuer();
        CuratorFramework workerA = worker();
        Lease leaseA = leaseOf(issuer.grant(workerA, FUND_A));
        issuer.release(workerA, leaseA);
        EnsembleClient workerB = connect(Identity.WORKER);
        EnsembleClient workerD = connect(Identity.WORKER);
        CuratorFramework workerC = worker();
        // B's grant halts right after it has read fund-A's counter, D's right after it has taken fund-B's lease. With
        // both there, two servers stop, C's grant starts, and the three wait for the lost quorum at the same time.
        CompletableFuture<Void> bReadTheCounter = new CompletableFuture<>();
        CompletableFuture<Void> dTookTheLease = new CompletableFuture<>();
        CompletableFuture<Void> serversStopped = new CompletableFuture<>();
        clientOfIssuer.onceAfterCounterRead(() -> haltAt(bReadTheCounter, serversStopped));
        workerD.onceAfterLeaseCreated(() -> haltAt(dTookTheLease, serversStopped));

        LeaseResult lostAfterTheRead;
        LeaseResult lostAfterTheLease;
        LeaseResult lostBefore;
        AtomicReference<Boolean> answerOfHolds = new AtomicReference<>();
        Boolean heldWithoutAQuorum;
        Throwable releasedWithoutAQuorum;
        try {
            CompletableFuture<LeaseResult> grantToB = CompletableFuture.supplyAsync(unchecked(() -> issuer.grant(
                    workerB.curator(), FUND_A)));
            CompletableFuture<LeaseResult> grantToD = CompletableFuture.supplyAsync(unchecked(() -> secondIssuer.grant(
                    workerD.curator(), FUND_B)));
            awaitEither(CompletableFuture.allOf(bReadTheCounter, dTookTheLease), grantToB, grantToD);
            CompletableFuture<LeaseResult> grantToC;
            try {
                assertHalted(bReadTheCounter, grantToB, "worker B's grant on fund-A", "reading the counter through "
                        + "the issuer's own client");
                assertHalted(dTookTheLease, grantToD, "worker D's grant on fund-B", "taking the lease through D's own "
                        + "client");
                ensemble().stopTwoServers();
                grantToC = CompletableFuture.supplyAsync(unchecked(() -> issuer.grant(workerC, FUND_A)));
            } finally {
                serversStopped.complete(null);
            }
            lostAfterTheRead = answerOf(grantToB, "worker B's grant (its quorum went away after it read the counter)");
            lostAfterTheLease = answerOf(grantToD, "worker D's grant (its quorum went away after it took the lease)");
            lostBefore = answerOf(grantToC, "worker C's grant without a quorum");
            // D gives back the lease it took, at the same time as holds waits for the quorum.
            CompletableFuture<Throwable> releaseOfD = CompletableFuture.supplyAsync(() -> catchThrowable(
                    () -> secondIssuer.release(workerD.curator(), new Lease(FUND_B, 2))));
            heldWithoutAQuorum = catchThrowable(() -> answerOfHolds.set(issuer.holds(workerA, leaseA))) == null
                    ? answerOfHolds.get() : null;
            releasedWithoutAQuorum = answerOf(releaseOfD, "worker D's release without a quorum");
        } finally {
            ensemble().restartStoppedServers();
        }
        long installedMeanwhile = course.state(FUND_A).generation();
        ensemble().expireSession(workerB.curator());
        LeaseResult afterRestart = issuer().grant(worker(), FUND_A);

        assertThat(lostAfterTheRead).as("worker B's grant, when two of the three servers stopped after it took the "
                + "lease and read the counter: a clear answer, not a hang and not an exception")
                .isInstanceOf(Unavailable.class).isEqualTo(new Unavailable(FUND_A, reasonOf(lostAfterTheRead)));
        assertThat(lostAfterTheLease).as("worker D's grant on fund-B, when the two servers stopped after it took the "
                + "lease and before it read the counter").isInstanceOf(Unavailable.class)
                .isEqualTo(new Unavailable(FUND_B, reasonOf(lostAfterTheLease)));
        assertThat(lostBefore).as("worker C's grant while the two servers were still stopped")
                .isInstanceOf(Unavailable.class).isEqualTo(new Unavailable(FUND_A, reasonOf(lostBefore)));
        assertThat(heldWithoutAQuorum).as("what holds answered for worker A's lease, given back before, while the two "
                + "servers were stopped (null when it threw, as it may): without a quorum nobody can be told that "
                + "they hold a lease").isNotEqualTo(Boolean.TRUE);
        assertThrown(releasedWithoutAQuorum, "worker D's release of the lease it took on fund-B, while the two servers "
                + "were stopped: nothing could be deleted, so the release fails and says why; one that returns as if "
                + "it had given the lease back leaves D holding it, and every other worker Held, until D's session "
                + "ends", "the release returned normally").isInstanceOf(KeeperException.class);
        assertThat(installedMeanwhile).as("fund-A's installed generation after the grants without a quorum")
                .isEqualTo(leaseA.generation());
        assertThat(course.state(FUND_B).generation()).as("fund-B's installed generation after D's grant")
                .isEqualTo(1);
        assertThat(leaseOf(afterRestart).generation()).as("the generation granted once the servers were back and "
                + "B's lease had ended with its session: above every generation issued before")
                .isGreaterThan(leaseA.generation());
        assertThat(course.state(FUND_A).generation()).as("fund-A's installed generation after the restart")
                .isEqualTo(leaseOf(afterRestart).generation());

        // Worker E's grant on fund-B loses the quorum right after its counter write: the number is issued, and the
        // destination, which needs no quorum, can still install it.
        ensemble().expireSession(workerD.curator());
        EnsembleClient clientOfE = connect(Identity.ISSUER);
        CuratorFramework workerE = worker();
        clientOfE.onceAfterCounterWritten(ensemble()::stopTwoServers);
        LeaseResult lostAfterTheWrite;
        try {
            lostAfterTheWrite = answerOf(CompletableFuture.supplyAsync(unchecked(() -> issuerOn(clientOfE).grant(
                    workerE, FUND_B))), "worker E's grant (its quorum went away right after its counter write)");
        } finally {
            ensemble().restartStoppedServers();
        }
        long installedForE = course.state(FUND_B).generation();
        assertThat(lostAfterTheWrite).as("worker E's grant on fund-B, when two servers stopped right after its "
                + "counter write and fund-B's installed generation is now %d: once the destination installed the "
                + "number, the grant is Granted with it; Unavailable says nothing was installed, and nothing after "
                + "the install needs ZooKeeper", installedForE)
                .isEqualTo(new Granted(new Lease(FUND_B, installedForE)));
        assertThat(installedForE).as("fund-B's installed generation after worker E's grant").isGreaterThan(1);
    }

    @Koan(edit = "LeaseIssuer.grant",
            teaches = "A generation issued but never installed leaves a gap, and the gap is harmless: the next one is "
                    + "higher and admitted, and the skipped one is never accepted.",
            hints = {
                "The issuer failed after ZooKeeper gave it a number and before the destination installed it. Who "
                        + "still holds the lease that grant took, and what does the next worker's grant meet?",
                "Everything that can fail after the lease was taken goes inside a try: on any failure, an Error "
                        + "too (catch Exception | Error), give the lease back as release does (delete the node if "
                        + "the worker's session owns it), then throw the failure on; if giving back fails as well, "
                        + "failure.addSuppressed(thatFailure), so that the first failure is the one the caller sees. "
                        + "Leave the counter alone."})
    void aGenerationIssuedButNeverInstalledLeavesAHarmlessGap() throws Exception {
        Authority authority = course.authority();
        CuratorFramework issuersOwn = connect(Identity.ISSUER).curator();
        LeaseIssuer issuer = new LeaseIssuer(issuersOwn, authority);
        FencedStore store = course.store();
        authority.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> {
            throw new InjectedFault(Checkpoint.AFTER_GENERATION_READ);
        });

        InjectedFault crash = injectedFaultFrom(() -> issuer.grant(worker(), FUND_A));
        // A grant that never reached the install leaves its fault waiting: no later grant may meet it instead.
        authority.checkpoints().clear();
        long issuedBeforeTheCrash = counter(FUND_A);
        long installedAfterTheCrash = course.state(FUND_A).generation();
        // An Error, not an Exception, the next time: the lease must come back after any failure.
        authority.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> {
            throw new InjectedError(Checkpoint.AFTER_GENERATION_READ);
        });
        AtomicReference<LeaseResult> answerToC = new AtomicReference<>();
        Throwable error = catchThrowable(() -> answerToC.set(issuer.grant(worker(), FUND_A)));
        authority.checkpoints().clear();
        // A third failure, after the leases' folder was made read-only for workers: giving the lease back fails too.
        CuratorFramework workerE = worker();
        String leases = ZKPaths.getPathAndNode(LeasePaths.lease(FUND_A)).getPath();
        authority.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> {
            unchecked(() -> issuersOwn.setACL().withACL(Identity.counterAcl()).forPath(leases)).get();
            throw new InjectedFault(Checkpoint.AFTER_GENERATION_READ);
        });
        AtomicReference<LeaseResult> answerToE = new AtomicReference<>();
        Throwable faultAndFailedGiveBack = catchThrowable(() -> answerToE.set(issuer.grant(workerE, FUND_A)));
        authority.checkpoints().clear();
        // The folder opened again, E gives back the lease its failed grant could not.
        issuersOwn.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(leases);
        issuer.release(workerE, new Lease(FUND_A, 4));
        LeaseResult grantToB = issuer.grant(worker(), FUND_A);
        ApplyResult withTheSkippedGeneration = store.apply(new ApplyRequest(FUND_A, 2, "gap-1", 5));
        ApplyResult withB = store.apply(new ApplyRequest(FUND_A, 5, "b-1", 5));
        // Worker G's session expires halfway through its grant on fund-B, worker H is granted the lease meanwhile
        // (generation 3), and then G's install fails.
        CuratorFramework workerH = worker();
        ExpiredHalfway expiredHalfway = grantExpiringHalfway(worker(), workerH, FUND_B, issuer, authority,
                () -> authority.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> {
                    throw new InjectedFault(Checkpoint.AFTER_GENERATION_READ);
                }));
        InjectedFault faultOfG = injectedFaultFrom(expiredHalfway.grantToTheExpired());
        LeaseResult grantToH = expiredHalfway.grantMeanwhile().get();
        boolean hHoldsTheLease = issuer.holds(workerH, new Lease(FUND_B, 3));

        assertThrown(crash, "worker A's grant, with a fault injected inside the install: the failure goes on to the "
                + "caller", "the grant answered normally").isInstanceOf(InjectedFault.class);
        assertThat(issuedBeforeTheCrash).as("the counter after the failed grant: generation 2 was issued")
                .isEqualTo(2);
        assertThat(installedAfterTheCrash).as("fund-A's installed generation after the failed grant: 2 never "
                + "reached the destination").isEqualTo(1);
        boolean cMetALeftLease = answerToC.get() instanceof Held;
        assertThrown(error, "worker C's grant next, with an Error (not an Exception) thrown inside the install: it "
                + "goes on to the caller too", "the grant answered " + answerToC.get() + (cMetALeftLease
                        ? ": worker A's lease was still taken after its failed grant, so C never reached the install"
                        : "")).isInstanceOf(InjectedError.class);
        boolean eMetALeftLease = answerToE.get() instanceof Held;
        assertThrown(faultAndFailedGiveBack, "worker E's grant, whose lease workers could no longer delete once a "
                + "fault came inside the install: the fault is what the caller must see, with the give-back's own "
                + "failure added to it (addSuppressed)", "the grant answered " + answerToE.get() + (eMetALeftLease
                        ? ": a lease was still taken when E asked, so E never reached the install; worker C's grant, "
                        + "which failed with an Error, did not give its lease back (catch Exception | Error)" : ""))
                .isInstanceOf(InjectedFault.class)
                .satisfies(fault -> assertThat(fault.getSuppressed()).as("the failures added to worker E's fault: "
                        + "the delete that gives the lease back was refused (NoAuth), and that failure belongs with the "
                        + "first one, not in its place and not lost").isNotEmpty());
        assertThat(grantToB).as("worker B's grant after the three failed ones: the lease must have been given back "
                + "after each, an Error as much as an Exception, and the generation is above the issued 2, 3 and 4")
                .isEqualTo(new Granted(new Lease(FUND_A, 5)));
        assertThat(withTheSkippedGeneration).as("an apply presenting the skipped generation 2")
                .isEqualTo(Rejected.stale(2, 5));
        assertThat(withB).as("worker B's apply with generation 5").isEqualTo(new Applied(5));
        assertThat(grantToH).as("worker H's grant on fund-B, once worker G's session "
                + "had expired halfway through G's grant").isEqualTo(new Granted(new Lease(FUND_B, 3)));
        assertThat(faultOfG).as("worker G's grant, whose install failed after H was granted: the fault goes on to "
                + "the caller").isNotNull();
        assertThat(hHoldsTheLease).as("whether worker H still holds fund-B's lease after G's failed grant gave back "
                + "what it took: G's lease went with G's expired session, and the node at that path is H's; the "
                + "give-back after a failure, as release, may delete only a node the worker's own session owns "
                + "(hint 2)").isTrue();
    }

    @Koan(edit = "LeaseIssuer.nextGeneration",
            teaches = "The counter survives a restart of the whole ensemble, so a new issuer never hands out a "
                    + "number twice.",
            hints = {
                "If your nextGeneration reads a persistent counter node every time, as the first koan's hints "
                        + "said, this passes as soon as you reach it: it guards that. If not: every server stops, and "
                        + "so does the issuer, whose session ends; new ones start. What did the issuer keep that the "
                        + "new one cannot see?",
                "Only what is in ZooKeeper and outlives a session survives: read the counter node every time, "
                        + "never a field of the issuer, never the clock, and create it PERSISTENT (the default), not "
                        + "EPHEMERAL like a lease."})
    void theCounterSurvivesARestartOfTheWholeEnsemble() throws Exception {
        EnsembleClient clientOfTheFirstIssuer = connect(Identity.ISSUER);
        LeaseIssuer before = issuerOn(clientOfTheFirstIssuer);
        List<Long> issuedBefore = List.of(before.nextGeneration(FUND_A), before.nextGeneration(FUND_A));
        // The first issuer stops: its session ends, and whatever it made for that session alone goes with it.
        clientOfTheFirstIssuer.close();

        ensemble().restartEveryServer();
        LeaseResult afterRestart = issuer().grant(worker(), FUND_A);

        assertThat(issuedBefore).as("the generations the first issuer took before the restart")
                .containsExactly(2L, 3L);
        assertThat(afterRestart).as("a new issuer's grant after all three servers were stopped and started again")
                .isEqualTo(new Granted(new Lease(FUND_A, 4)));
        assertThat(counter(FUND_A)).as("the counter after the restart").isEqualTo(4);

        // A counter far along, where an int would end: generations are longs, and the next is still one more.
        EnsembleClient clientOfTheIssuer = connect(Identity.ISSUER);
        clientOfTheIssuer.curator().create().creatingParentsIfNeeded().withACL(Identity.counterAcl(), true)
                .forPath(LeasePaths.counter(FUND_B), bytes(Integer.MAX_VALUE));
        assertThat(issuerOn(clientOfTheIssuer).nextGeneration(FUND_B)).as("the next generation on fund-B, whose "
                + "counter stands at %d, the largest int", Integer.MAX_VALUE).isEqualTo(Integer.MAX_VALUE + 1L);
        // Further still, past 2^53, where a double no longer holds every whole number.
        long beyondDoubles = 1L << 53;
        clientOfTheIssuer.curator().setData().forPath(LeasePaths.counter(FUND_B), bytes(beyondDoubles));
        LeaseIssuer issuerOfB = issuerOn(clientOfTheIssuer);
        assertThat(List.of(issuerOfB.nextGeneration(FUND_B), issuerOfB.nextGeneration(FUND_B))).as("the next two "
                + "generations on fund-B, whose counter stands at 2^53 = %d, beyond which a double skips whole "
                + "numbers: the counter is read and written as a long, digit for digit", beyondDoubles)
                .containsExactly(beyondDoubles + 1, beyondDoubles + 2);
    }

    @Koan(edit = "LeaseIssuer.nextGeneration",
            teaches = "Only the issuer's identity may change the counter: a worker's client is refused with NoAuth.",
            hints = {
                "If you create the counter withACL(Identity.counterAcl(), true), as the first koan's hints said, "
                        + "this passes as soon as you reach it: it guards that, unless nextGeneration starts again on "
                        + "a failure other than BadVersionException (a worker's NoAuth never goes away). If not: who "
                        + "may write the counter node, and its parent, is decided when they are created. What ACL did "
                        + "yours get?",
                "Create the counter with withACL(Identity.counterAcl(), true): the true puts the ACL on the parents "
                        + "Curator creates too, so that no worker can delete the counter and create it anew."})
    void onlyTheIssuersIdentityMayChangeTheCounter() throws Exception {
        LeaseIssuer issuer = issuer();
        long issued = issuer.nextGeneration(FUND_A);
        EnsembleClient workersClient = connect(Identity.WORKER);
        CuratorFramework worker = workersClient.curator();
        LeaseIssuer selfAppointed = new LeaseIssuer(worker, course.authority());
        String counter = LeasePaths.counter(FUND_A);

        Throwable write = catchThrowable(() -> worker.setData().forPath(counter, bytes(99)));
        Throwable delete = catchThrowable(() -> worker.delete().forPath(counter));
        Throwable openTheCounter = catchThrowable(() -> worker.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE)
                .forPath(counter));
        Throwable openItsParent = catchThrowable(() -> worker.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE)
                .forPath(ZKPaths.getPathAndNode(counter).getPath()));
        stopAfterCounterReads(workersClient);
        Throwable throughAnIssuer = catchThrowable(() -> selfAppointed.nextGeneration(FUND_A));
        AtomicReference<LeaseResult> answerOfTheSelfAppointed = new AtomicReference<>();
        stopAfterCounterReads(workersClient);
        Throwable grantThroughAnIssuer = catchThrowable(() -> answerOfTheSelfAppointed.set(selfAppointed.grant(worker,
                FUND_A)));
        // fund-B has no counter yet: the worker's create of one is refused, and that refusal never goes away.
        stopAfterCounterReads(workersClient);
        Throwable creatingACounter = catchThrowable(() -> selfAppointed.nextGeneration(FUND_B));

        assertThrown(write, "a worker's client writing the counter directly", "the write went through")
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThrown(delete, "a worker's client deleting the counter, to create it anew (ZooKeeper checks a "
                + "delete against the ACL of the node's parent)", "the delete went through")
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThrown(openTheCounter, "a worker's client opening the counter's ACL to everyone: changing an ACL takes "
                + "the ADMIN permission, and a worker that had it could open the counter and then write it", "the ACL "
                + "was changed (does the counter's ACL give the world more than READ?)")
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThrown(openItsParent, "a worker's client opening the ACL of the counter's parent: the same",
                "the ACL was changed").isInstanceOf(KeeperException.NoAuthException.class);
        assertThrown(throughAnIssuer, "an issuer running on a worker's client", "it issued a generation")
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThrown(grantThroughAnIssuer, "a grant by that issuer, which takes the lease and then meets the counter's "
                + "ACL: a refusal is no lost connection, so grant passes it on", "it answered "
                + answerOfTheSelfAppointed.get() + " instead of passing the refusal on (does grant catch more than "
                + "ConnectionLossException?)")
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThrown(creatingACounter, "an issuer running on a worker's client, on fund-B, which has no counter yet: "
                + "the counter's parent lets only the issuer create one", "it issued a generation")
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(counter(FUND_A)).as("the counter after the worker's attempts").isEqualTo(issued);
        assertThat(issuer.nextGeneration(FUND_A)).as("the issuer's next generation").isEqualTo(issued + 1);
        assertThat(issuer.grant(worker(), FUND_A)).as("the real issuer's grant to another worker next: the failed "
                + "grant had taken the lease before the counter refused it, and whatever fails after the lease gives "
                + "it back")
                .isEqualTo(new Granted(new Lease(FUND_A, issued + 2)));

        // The leases' parent made read-only for workers: now the lease's own create is refused, not lost.
        String leaseOnB = LeasePaths.lease(FUND_B);
        connect(Identity.ISSUER).curator().setACL().withACL(Identity.counterAcl())
                .forPath(leaseOnB.substring(0, leaseOnB.lastIndexOf('/')));
        AtomicReference<LeaseResult> answerToARefusedCreate = new AtomicReference<>();
        Throwable refusedCreate = catchThrowable(() -> answerToARefusedCreate.set(issuer.grant(worker(), FUND_B)));
        assertThrown(refusedCreate, "a grant whose lease create is refused by the ACL of the leases' parent: a "
                + "refusal is no lost connection, before the lease as after it, so grant passes it on", "it answered "
                + answerToARefusedCreate.get() + " instead (does grant catch more than ConnectionLossException around "
                + "the create?)").isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(course.state(FUND_B).generation()).as("fund-B's installed generation after the refused create: "
                + "nothing was issued or installed").isEqualTo(1);
    }

    @Koan(edit = "LeaseIssuer.grant",
            teaches = "The destination's rule binds the issuer too: a generation it refuses to install is no grant, "
                    + "and the lease is given back, if it is still the worker's.",
            hints = {
                "The destination already holds generation 5, installed before this issuer existed, and the counter "
                        + "starts at 1. What should a worker hold after the install is refused? And if the worker's "
                        + "session expired while the grant ran, whose lease is at that path now?",
                "When authority.install answers anything but Installed, give the lease back as release does, only "
                        + "if the worker's session owns the node now (a delete ZooKeeper refuses goes on to the "
                        + "caller), and answer new LeaseResult.NotInstalled(resource, generation, thatAnswer)."})
    void aGenerationTheDestinationRefusesIsNoGrant() throws Exception {
        course.authority().install(FUND_A, 5);
        LeaseIssuer issuer = issuer();
        CuratorFramework workerA = worker();

        LeaseResult grantToA = issuer.grant(workerA, FUND_A);
        boolean aHoldsTheLease = issuer.holds(workerA, new Lease(FUND_A, 2));
        LeaseResult grantToB = issuer.grant(worker(), FUND_A);
        CuratorFramework workerC = worker();
        LeaseResult onAnUnknownResource = issuer.grant(workerC, "fund-C");
        boolean cHoldsTheLease = issuer.holds(workerC, new Lease("fund-C", 2));
        CuratorFramework workerD = worker();
        Statement holder = course.connection().createStatement();
        holder.execute("BEGIN IMMEDIATE");
        LeaseResult whileTheDestinationIsBusy;
        try {
            whileTheDestinationIsBusy = issuer.grant(workerD, FUND_B);
        } finally {
            holder.execute("ROLLBACK");
        }
        boolean dHoldsTheLease = issuer.holds(workerD, new Lease(FUND_B, 2));
        // Checked here: worker E's grant below would meet a lease that D kept, and fail for that instead.
        assertThat(grantToA).as("worker A's grant while fund-A's installed generation, 5, is above the counter")
                .isEqualTo(new NotInstalled(FUND_A, 2, new InstallResult.NotHigher(FUND_A, 5, 2)));
        assertThat(aHoldsTheLease).as("whether worker A holds the lease after its refused grant").isFalse();
        assertThat(grantToB).as("worker B's grant next: the lease is free, and the counter has moved on")
                .isEqualTo(new NotInstalled(FUND_A, 3, new InstallResult.NotHigher(FUND_A, 5, 3)));
        assertThat(course.state(FUND_A).generation()).as("fund-A's installed generation").isEqualTo(5);
        assertThat(onAnUnknownResource).as("worker C's grant on fund-C, which the destination does not hold: every "
                + "answer of the install but Installed is a refusal, not only NotHigher")
                .isEqualTo(new NotInstalled("fund-C", 2, new InstallResult.UnknownResource("fund-C")));
        assertThat(cHoldsTheLease).as("whether worker C holds fund-C's lease after its refused grant").isFalse();
        assertThat(whileTheDestinationIsBusy).as("worker D's grant on fund-B while another connection holds the "
                + "destination's write lock: Contended is a refusal like the others, not a grant and not a reason to "
                + "keep the lease").isEqualTo(new NotInstalled(FUND_B, 2, new InstallResult.Contended(FUND_B)));
        assertThat(dHoldsTheLease).as("whether worker D holds fund-B's lease after its refused grant").isFalse();
        // Worker E's session expires right after its issuer took generation 3 on fund-B, and worker F is granted the
        // lease meanwhile, with generation 4; E's install of 3 is then refused.
        CuratorFramework workerE = worker();
        CuratorFramework workerF = worker();
        ExpiredHalfway expiredHalfway = grantExpiringHalfway(workerE, workerF, FUND_B, issuer, course.authority(),
                () -> { });
        LeaseResult grantToE = expiredHalfway.grantToTheExpired().call();
        LeaseResult grantToF = expiredHalfway.grantMeanwhile().get();
        boolean fHoldsTheLease = issuer.holds(workerF, new Lease(FUND_B, 4));
        // Worker G's grant on fund-A meets 5 there too, after workers lost the right to delete in the leases' folder.
        CuratorFramework workerG = worker();
        String leases = ZKPaths.getPathAndNode(LeasePaths.lease(FUND_A)).getPath();
        CuratorFramework issuersOwn = connect(Identity.ISSUER).curator();
        Authority authorityOfG = course.authority();
        authorityOfG.checkpoints().once(Checkpoint.AFTER_GENERATION_READ,
                () -> unchecked(() -> issuersOwn.setACL().withACL(Identity.counterAcl()).forPath(leases)).get());
        AtomicReference<LeaseResult> answerToG = new AtomicReference<>();
        Throwable refusedGiveBack = catchThrowable(
                () -> answerToG.set(new LeaseIssuer(issuersOwn, authorityOfG).grant(workerG, FUND_A)));

        assertThat(grantToF).as("worker F's grant on fund-B, once worker E's session had expired halfway "
                + "through E's grant").isEqualTo(new Granted(new Lease(FUND_B, 4)));
        assertThat(grantToE).as("worker E's grant, whose generation 3 met F's 4 at the destination")
                .isEqualTo(new NotInstalled(FUND_B, 3, new InstallResult.NotHigher(FUND_B, 4, 3)));
        assertThat(fHoldsTheLease).as("whether worker F still holds the lease after E's refused grant gave back "
                + "what it took: E's lease went with E's expired session, and the node at that path is F's; a "
                + "delete that does not ask whose node it is takes the next holder's lease").isTrue();
        assertThrown(refusedGiveBack, "worker G's grant, refused by the destination (5 is installed, G's number is "
                + "4) after workers lost the right to delete in the leases' folder: giving the lease back was refused "
                + "(NoAuth) and G still holds it, so the grant must fail with that refusal, as release does; "
                + "NotInstalled would tell G it holds nothing while its node keeps every other worker Held (hint 2)",
                "the grant answered " + answerToG.get()).isInstanceOf(KeeperException.NoAuthException.class);
    }

    /** A grant whose worker's session expired halfway, and the grant another worker was given meanwhile. */
    private record ExpiredHalfway(Callable<LeaseResult> grantToTheExpired,
            AtomicReference<LeaseResult> grantMeanwhile) {
    }

    /**
     * Prepares a grant of {@code resource} to {@code expiring}, by an issuer on a client of its own that installs
     * through {@code authority}, in which {@code expiring}'s session expires right after the counter was written; then
     * {@code meanwhile} is granted the lease by {@code issuer}, and {@code afterThat} runs, all before the expiring
     * grant's install. The grant runs when the returned grant is called.
     */
    private ExpiredHalfway grantExpiringHalfway(CuratorFramework expiring, CuratorFramework meanwhile, String resource,
            LeaseIssuer issuer, Authority authority, Runnable afterThat) throws Exception {
        EnsembleClient clientOfItsIssuer = connect(Identity.ISSUER);
        long session = expiring.getZookeeperClient().getZooKeeper().getSessionId();
        AtomicReference<LeaseResult> grantMeanwhile = new AtomicReference<>();
        // On a thread of its own, as every call made from inside a seam: Curator answers a read made on the thread
        // of another client's call with nothing.
        clientOfItsIssuer.onceAfterCounterWritten(() -> grantMeanwhile.set(
                CompletableFuture.supplyAsync(unchecked(() -> {
                    ensemble().expireSession(expiring);
                    awaitANewSession(expiring, session, "the worker whose session expired halfway through its grant");
                    LeaseResult granted = issuer.grant(meanwhile, resource);
                    afterThat.run();
                    return granted;
                })).join()));
        LeaseIssuer itsIssuer = new LeaseIssuer(clientOfItsIssuer.curator(), authority);
        return new ExpiredHalfway(() -> {
            LeaseResult answer = itsIssuer.grant(expiring, resource);
            if (grantMeanwhile.get() == null) {
                throw new AssertionError(answer instanceof Held
                        ? "the grant on " + resource + " answered " + answer + ": its lease was still taken when this "
                                + "step began. Did an earlier grant of this koan that failed or was refused keep it?"
                        : "the grant on " + resource + " answered " + answer + " without writing the counter with "
                                + "setData: this koan expires the worker's session right after that write");
            }
            return answer;
        }, grantMeanwhile);
    }

    /** Read here, not through the learner's holds, which a later koan asks for: the node and the session owning it. */
    private static boolean sessionOwnsTheLease(CuratorFramework worker, String resource) throws Exception {
        Stat lease = worker.checkExists().forPath(LeasePaths.lease(resource));
        return lease != null && lease.getEphemeralOwner() == worker.getZookeeperClient().getZooKeeper().getSessionId();
    }

    private static Lease leaseOf(LeaseResult result) {
        if (result instanceof Granted granted) {
            return granted.lease();
        }
        throw new AssertionError("expected the lease to be granted, but the grant answered: "
                + (result == null ? "null" : result.describe()) + (result instanceof Held
                        ? " (if no one should hold it now: a lease node must go when its holder releases it or its "
                        + "session ends; is it created EPHEMERAL, with the worker's client, and does release delete "
                        + "it?)" : ""));
    }

    /**
     * Reads of a counter by {@code client} from now on that stop the reading thread once there are more than
     * {@value #MORE_READS_THAN_A_RACE_NEEDS}: a nextGeneration that starts again after a failure that never goes away
     * would read for ever. Called again, it counts from zero.
     */
    private static void stopAfterCounterReads(EnsembleClient client) {
        afterEachCounterRead(client, reads -> {
            if (reads > MORE_READS_THAN_A_RACE_NEEDS) {
                throw new IllegalStateException("nextGeneration read the counter " + reads + " times: after a "
                        + "refusal (NoAuth) it started again, and a refusal does not go away on its own; only a "
                        + "lost compare-and-set (BadVersionException) is worth another try");
            }
            return true;
        });
    }

    /**
     * Runs {@code action} on the reading thread after each counter read by {@code client} from now on, with the
     * number of reads so far, for as long as it answers true.
     */
    private static void afterEachCounterRead(EnsembleClient client, IntPredicate action) {
        AtomicInteger reads = new AtomicInteger();
        client.onceAfterCounterRead(new Runnable() {
            @Override
            public void run() {
                if (action.test(reads.incrementAndGet())) {
                    client.onceAfterCounterRead(this);
                }
            }
        });
    }

    /**
     * Returns once {@code client} has replaced its expired session with a new one, which Curator does on its own
     * when it hears of the expiry; waits for the client's connection events, not for time.
     */
    private static void awaitANewSession(CuratorFramework client, long expired, String whose) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (true) {
            BlockingQueue<ConnectionState> changes = new LinkedBlockingQueue<>();
            ConnectionStateListener listener = (changed, state) -> changes.add(state);
            client.getConnectionStateListenable().addListener(listener);
            try {
                ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
                if (handle.getSessionId() != expired && handle.getState().isConnected()) {
                    return;
                }
                if (changes.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS) == null) {
                    throw new AssertionError(whose + "'s client did not open a new session within " + PATIENCE_SECONDS
                            + " s of its old one's expiry");
                }
            } finally {
                client.getConnectionStateListenable().removeListener(listener);
            }
        }
    }

    /** The reason an Unavailable answer gives, whatever it is: the koans check the resource it names. */
    private static String reasonOf(LeaseResult result) {
        return result instanceof Unavailable unavailable ? unavailable.reason() : null;
    }

    /** The injected fault if {@code work} threw it; any other exception, a stub's among them, goes on. */
    private static InjectedFault injectedFaultFrom(Callable<?> work) throws Exception {
        try {
            work.call();
            return null;
        } catch (InjectedFault fault) {
            return fault;
        }
    }

    private static byte[] bytes(long value) {
        return Long.toString(value).getBytes(StandardCharsets.UTF_8);
    }

    private static <T> java.util.function.Supplier<T> unchecked(Callable<T> work) {
        return () -> {
            try {
                return work.call();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        };
    }

    /** The numbers another issuer took while the held one waited at its checkpoint, then the held one's own. */
    private record CounterRace(List<Long> takenMeanwhile, long takenByTheHeld) {
    }

    /** Where in nextGeneration an issuer is held, and what to ask when it never gets there. */
    private enum Seam {
        AFTER_ITS_READ("right after its read", "does nextGeneration read the counter with zookeeper.getData(), "
                + "before it writes or creates one?", EnsembleClient::onceAfterCounterRead),
        BEFORE_ITS_WRITE("right before its write", "does nextGeneration write the counter with setData every time, "
                + "even right after it created the counter? Creating it reserves no number (hint 2).",
                EnsembleClient::onceBeforeCounterWritten);

        private final String where;
        private final String question;
        private final BiConsumer<EnsembleClient, Runnable> once;

        Seam(String where, String question, BiConsumer<EnsembleClient, Runnable> once) {
            this.where = where;
            this.question = question;
            this.once = once;
        }
    }

    /**
     * An issuer on a client of its own takes a number on {@code resource} and is held at {@code seam}, while
     * {@code another} takes {@code count} numbers there; then the held issuer goes on.
     */
    private CounterRace heldWhileAnotherTakes(Seam seam, String resource, LeaseIssuer another, int count)
            throws Exception {
        EnsembleClient client = connect(Identity.ISSUER);
        Pause pause = new Pause();
        seam.once.accept(client, pause::hold);
        CompletableFuture<Long> held = CompletableFuture.supplyAsync(
                unchecked(() -> issuerOn(client).nextGeneration(resource)));
        List<Long> meanwhile = new ArrayList<>();
        try {
            pause.awaitReached(held, seam.question);
            for (int taken = 0; taken < count; taken++) {
                meanwhile.add(another.nextGeneration(resource));
            }
        } finally {
            pause.release();
        }
        return new CounterRace(meanwhile, answerOf(held, "the held issuer's nextGeneration on " + resource + ", "
                + seam.where + " while another issuer took " + count + (count == 1 ? " number" : " numbers")));
    }

    /** Marks {@code reached}, then waits until {@code released}: a grant halted at a seam while the koan acts. */
    private static void haltAt(CompletableFuture<Void> reached, CompletableFuture<Void> released) {
        reached.complete(null);
        released.join();
    }

    /** Returns once {@code halted} or one of the grants is done, however it ended; a hang fails after the patience. */
    private static void awaitEither(CompletableFuture<Void> halted, CompletableFuture<?>... grants) throws Exception {
        CompletableFuture<?>[] ends = Stream.concat(Stream.of(halted), Stream.of(grants))
                .map(future -> future.handle((answer, failure) -> null)).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.anyOf(ends).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the grants neither answered nor reached the point where this koan stops two "
                    + "servers within " + PATIENCE_SECONDS + " s: does a grant wait for another one, or for ever?");
        }
    }

    /** Fails with the grant's own answer, or its exception, when it ended before the seam the koan halts it at. */
    private static void assertHalted(CompletableFuture<Void> halted, CompletableFuture<LeaseResult> grant, String what,
            String seam) throws Exception {
        if (!halted.isDone() && grant.isDone()) {
            throw new AssertionError(what + " answered " + answerOf(grant, what) + " without " + seam + ": this "
                    + "koan stops two servers right after that step");
        }
    }

    /** The answer of work running on another thread; a hang becomes a failure after the koan's patience. */
    private static <T> T answerOf(CompletableFuture<T> work, String what) throws Exception {
        try {
            return work.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause() instanceof CompletionException wrapped ? wrapped.getCause()
                    : failed.getCause();
            String why = cause instanceof KeeperException.NodeExistsException ? ": a create that finds the lease node "
                    + "taken is the answer Held, whatever a look before it saw"
                    : cause instanceof KeeperException.SessionExpiredException ? ": the session ran out while the call "
                    + "was still at work. Does it try again after a lost connection, until there is no session left? "
                    + "Without a quorum the answer comes at the first ConnectionLossException" : "";
            throw new AssertionError(what + " threw " + cause + " instead of answering" + why, cause);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " gave no answer within " + PATIENCE_SECONDS + " s: does it wait or "
                    + "retry for ever?");
        }
    }
}
