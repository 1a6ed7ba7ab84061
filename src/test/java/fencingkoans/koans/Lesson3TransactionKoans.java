package fencingkoans.koans;

import static fencingkoans.koans.support.Thrown.assertThrown;
import static fencingkoans.koans.support.WhenNull.because;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.koans.support.UnseenRequests;
import fencingkoans.koans.support.Pause;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedError;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.StoreException;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

@Interleaving
@Lesson(value = 3, title = "Apply the decision in the transaction", page = "docs/lessons/3-decide-in-the-transaction.md")
class Lesson3TransactionKoans extends CourseKoans {

    private static final ApplyRequest WORKER_A = new ApplyRequest(FUND_A, 1, "a-1", 7);
    private static final ApplyRequest WORKER_B = new ApplyRequest(FUND_A, 1, "b-1", 5);
    private static final ApplyRequest B_AFTER_A = new ApplyRequest(FUND_A, 1, "b-3", 3);
    private static final ApplyRequest ON_FUND_B = new ApplyRequest(FUND_B, 1, "b-2", 5);
    private static final ApplyRequest UNDER_GENERATION_2 = new ApplyRequest(FUND_A, 2, "b-4", 5);
    /** Long enough for any apply that waits for nothing; a worker that waits for the paused one never answers. */
    private static final long B_PATIENCE_SECONDS = 10;
    private static final String NEVER_SCRIPTED = "apply never called ledger.installedGeneration, where this moment "
            + "is scripted";

    @Koan(edit = "ImmediateTransaction.run, FencedStore.apply and Authority.install",
            teaches = "While apply sits between its check and its effect, the authority cannot install a generation.",
            hints = {
                "This is lesson 1's last koan again, inside your apply. What must still be held when the check is done?",
                "Write ImmediateTransaction.run (BEGIN IMMEDIATE, work, COMMIT; ROLLBACK on failure) and do "
                        + "apply's check and effect inside it. Authority.install needs the same: its own check and "
                        + "update inside ImmediateTransaction.run, answering InstallResult.Contended.",
                "return ImmediateTransaction.run(ledger, () -> { /* your check and effect */ }, "
                        + "() -> new ApplyResult.Contended(request.resource()));"})
    void whileApplySitsBetweenCheckAndEffectTheAuthorityCannotInstall() {
        FencedStore workerA = course.store();
        Authority authority = course.authority();
        AtomicReference<InstallResult> installInTheGap = new AtomicReference<>();
        workerA.checkpoints().once(Checkpoint.AFTER_GENERATION_READ,
                () -> installInTheGap.set(authority.install(FUND_A, 2)));

        ApplyResult result = workerA.apply(WORKER_A);

        assertThat(installInTheGap.get()).as("the authority's install, attempted while worker A's apply sat "
                + "between reading generation 1 and applying its delta: it must find the write lock taken%s",
                        because(installInTheGap.get(), NEVER_SCRIPTED))
                .isEqualTo(new InstallResult.Contended(FUND_A));
        assertThat(result).as("worker A's apply, which held the lock").isEqualTo(new Applied(7));
        assertThat(course.generation(FUND_A)).as("fund-A's generation after both").isEqualTo(1);
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "BEGIN IMMEDIATE takes the write lock before the check; a deferred BEGIN would not.",
            hints = {
                "A plain BEGIN takes no lock until the first write. Which lock does the check need to hold?",
                "ledger.execute(\"BEGIN IMMEDIATE\") must be the first statement, before installedGeneration."})
    void noOtherConnectionCanReserveTheWriteLockDuringTheCheck() {
        FencedStore workerA = course.store();
        Connection probe = course.connection();
        AtomicReference<String> probeOutcome = new AtomicReference<>();
        workerA.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> probeOutcome.set(tryToReserve(probe)));

        workerA.apply(WORKER_A);

        assertThat(probeOutcome.get()).as("another connection trying BEGIN IMMEDIATE while apply has only read "
                + "the generation: the lock must already be apply's%s", because(probeOutcome.get(), NEVER_SCRIPTED))
                .startsWith("busy");
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "A second worker meeting the held lock is told Contended at once, not rejected.",
            hints = {
                "With a busy timeout of 0, BEGIN IMMEDIATE fails at once when the lock is held. What does the "
                        + "exception look like?",
                "Catch StoreException around BEGIN IMMEDIATE; if e.isContention(), return whenContended.get() "
                        + "without running the work."})
    void aSecondWorkerMeetingTheLockIsContendedNotRejected() {
        FencedStore workerA = course.store();
        Ledger connectionOfB = course.ledger();
        FencedStore workerB = new FencedStore(connectionOfB);
        AtomicReference<ApplyResult> bInTheGap = new AtomicReference<>();
        AtomicReference<ApplyResult> onFundBInTheGap = new AtomicReference<>();
        // What B's connection would wait for a held lock, read right before each BEGIN it makes.
        List<Long> busyTimeoutAtEachBegin = new ArrayList<>();
        connectionOfB.checkpoints().on(Checkpoint.BEFORE_BEGIN,
                () -> busyTimeoutAtEachBegin.add(connectionOfB.busyTimeout().toMillis()));
        workerA.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> {
            bInTheGap.set(workerB.apply(WORKER_B));
            onFundBInTheGap.set(workerB.apply(ON_FUND_B));
        });

        workerA.apply(WORKER_A);

        assertThat(bInTheGap.get()).as("worker B's apply while A holds the lock: nothing is wrong with B's "
                + "request, it only has to wait its turn%s", because(bInTheGap.get(), NEVER_SCRIPTED))
                .isEqualTo(new Contended(FUND_A));
        assertThat(onFundBInTheGap.get()).as("worker B's apply on fund-B while A holds the lock: SQLite's write lock "
                + "is the whole file's, so fund-B waits too, and the answer names the resource B asked for")
                .isEqualTo(new Contended(FUND_B));
        assertThat(course.value(FUND_A)).as("fund-A's value: only A's delta of 7 was applied").isEqualTo(7);
        assertThat(connectionOfB.busyTimeout().toMillis()).as("how many milliseconds worker B's connection now "
                + "waits for a lock held elsewhere before BEGIN IMMEDIATE fails (PRAGMA busy_timeout): at once means "
                + "no wait at all, and the worker decides what to do with Contended").isZero();
        assertThat(busyTimeoutAtEachBegin).as("worker B's busy timeout, in milliseconds, at each BEGIN IMMEDIATE of "
                + "its two applies in the gap: one BEGIN per apply, with no wait; waiting, or trying again, is the "
                + "worker's decision, made after it hears Contended").containsExactly(0L, 0L);
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "Once the lock is released, the contended worker's retry goes through.",
            hints = {
                "After a Contended answer, is the connection left inside a transaction?",
                "When BEGIN IMMEDIATE itself failed, there is nothing to roll back: just answer Contended."})
    void afterReleaseTheContendedWorkerProgresses() {
        FencedStore workerA = course.store();
        FencedStore workerB = course.store();
        AtomicReference<ApplyResult> bInTheGap = new AtomicReference<>();
        workerA.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> bInTheGap.set(workerB.apply(WORKER_B)));
        workerA.apply(WORKER_A);

        ApplyResult retry = workerB.apply(WORKER_B);

        assertThat(bInTheGap.get()).as("worker B's first try, during A's transaction").isEqualTo(new Contended(FUND_A));
        assertThat(retry).as("worker B's retry after A committed: 7 from A plus B's 5").isEqualTo(new Applied(12));
    }

    @Koan(edit = "ImmediateTransaction.run, FencedStore.apply and Authority.install",
            teaches = "Contention and a stale generation are different causes: only contention is fixed by retrying.",
            hints = {
                "Here the authority holds the lock while it installs generation 2. What must worker A hear then, "
                        + "and what after the install committed?",
                "Contended during the install (the authority's transaction holds the lock); Rejected as stale "
                        + "afterwards, however often A retries."})
    void contentionAndStalenessAreDifferentCauses() {
        Authority authority = course.authority();
        Authority rival = course.authority();
        FencedStore workerA = course.store();
        FencedStore workerB = course.store();
        AtomicReference<ApplyResult> duringInstall = new AtomicReference<>();
        AtomicReference<ApplyResult> underTheGenerationBeingInstalled = new AtomicReference<>();
        AtomicReference<InstallResult> rivalAfterCommit = new AtomicReference<>();
        authority.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> {
            duringInstall.set(workerA.apply(WORKER_A));
            underTheGenerationBeingInstalled.set(workerB.apply(UNDER_GENERATION_2));
        });
        authority.checkpoints().once(Checkpoint.AFTER_COMMIT,
                () -> rivalAfterCommit.set(rival.install(FUND_A, 3)));

        InstallResult installed = authority.install(FUND_A, 2);
        ApplyResult afterInstall = workerA.apply(WORKER_A);
        ApplyResult retriedAgain = workerA.apply(WORKER_A);

        assertThat(duringInstall.get()).as("A's apply, made while the authority's install sat at its "
                + "generation check%s", because(duringInstall.get(), "install never read the generation, so that "
                        + "moment never came"))
                .isEqualTo(new Contended(FUND_A));
        assertThat(underTheGenerationBeingInstalled.get()).as("worker B's apply with generation 2, made while the "
                + "install of 2 sat at its generation check: the committed generation, 1, is not the last word while "
                + "another transaction holds the lock, and a rejection is final (UNISSUED here would turn B away for "
                + "good from the generation about to be installed). Nothing was decided: Contended")
                .isEqualTo(new Contended(FUND_A));
        assertThat(installed).as("the answer to installing generation 2. A second install made 3 just after its "
                + "COMMIT, so 3 is what fund-A holds by the time the answer is given: does your install answer what "
                + "its own transaction did, or read the generation again afterwards?%s",
                        because(rivalAfterCommit.get(), "install never ran COMMIT through ledger.execute"))
                .isEqualTo(new InstallResult.Installed(FUND_A, 2));
        assertThat(afterInstall).as("A's retry once generations 2 and 3 are installed").isEqualTo(Rejected.stale(1, 3));
        assertThat(retriedAgain).as("A's next retry: a stale generation stays stale (a Replayed answer here means "
                + "that A's rejected apply left a request record behind: only an applied request gets one, koan 4.9)")
                .isEqualTo(Rejected.stale(1, 3));
    }

    @Koan(edit = "ImmediateTransaction.run and FencedStore.apply",
            teaches = "Nobody sees the effect before the commit, and the answer is the value the transaction made: "
                    + "the check, the effect and the answer land together.",
            hints = {
                "Another connection reads fund-A while apply has updated the value but not yet finished. What "
                        + "does it see if each statement commits on its own?",
                "Inside one transaction, other connections keep seeing the last committed value until COMMIT.",
                "Worker B writes just before A's BEGIN and just after A's COMMIT. A value read outside A's "
                        + "transaction is B's, not A's: answer with what addToValue returned inside it."})
    void aReaderSeesNothingBeforeTheCommit() {
        FencedStore workerA = course.store();
        FencedStore workerB = course.store();
        FencedStore reader = course.store();
        AtomicReference<ApplyResult> bBeforeBegin = new AtomicReference<>();
        AtomicReference<Long> seenMidway = new AtomicReference<>();
        AtomicReference<ApplyResult> bAfterCommit = new AtomicReference<>();
        workerA.checkpoints().once(Checkpoint.BEFORE_BEGIN, () -> bBeforeBegin.set(workerB.apply(WORKER_B)));
        workerA.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE,
                () -> seenMidway.set(reader.read(FUND_A).orElseThrow().value()));
        workerA.checkpoints().once(Checkpoint.AFTER_COMMIT, () -> bAfterCommit.set(workerB.apply(B_AFTER_A)));

        ApplyResult result = workerA.apply(WORKER_A);

        assertThat(seenMidway.get()).as("fund-A's value read by another connection after A's UPDATE but before its "
                + "COMMIT: B's 5 is committed, A's 7 is not yet%s", because(bBeforeBegin.get(), "A's apply never ran "
                        + "BEGIN through ledger.execute, where B's first write is scripted")).isEqualTo(5);
        assertThat(result).as("A's answer. B added 5 just before A's BEGIN and 3 just after A's COMMIT, so A's "
                + "transaction turned 5 into 12, and fund-A now holds 15. An answer of 7 was worked out before the "
                + "transaction; 15 was read after it. Which value did your apply see inside it? (hint 3)%s",
                        because(bAfterCommit.get(), "A's apply never ran COMMIT through ledger.execute"))
                .isEqualTo(new Applied(12));
        assertThat(reader.read(FUND_A).orElseThrow().value()).as("fund-A after A's and both of B's applies")
                .isEqualTo(15);
    }

    @Koan(edit = "ImmediateTransaction.run, FencedStore.apply and Authority.install",
            teaches = "A worker paused on its own thread keeps the lock for the whole pause, however long.",
            hints = {
                "The pause here is a real thread blocked on a latch, like a garbage-collection pause or a slow "
                        + "network. Does your transaction end before the pause or after it?",
                "Everything between BEGIN IMMEDIATE and COMMIT, pause included, happens under the lock.",
                "The lock is the database's alone: another worker meets it and hears Contended at once. A lock of "
                        + "the JVM (synchronized) would make that worker wait, and workers in other processes would "
                        + "not see it at all."})
    void aPausedWorkerHoldsTheLockUntilItResumes() throws Exception {
        FencedStore workerA = course.store();
        FencedStore workerB = course.store();
        Authority authority = course.authority();
        Pause pause = new Pause();
        workerA.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, pause::hold);

        CompletableFuture<ApplyResult> aOnItsThread = CompletableFuture.supplyAsync(() -> workerA.apply(WORKER_A));
        pause.awaitReached(aOnItsThread);
        InstallResult duringPause = authority.install(FUND_A, 2);
        InstallResult onFundBDuringPause = authority.install(FUND_B, 2);
        ApplyResult bDuringPause;
        try {
            bDuringPause = CompletableFuture.supplyAsync(() -> workerB.apply(ON_FUND_B),
                    Lesson3TransactionKoans::onItsOwnThread).get(B_PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException waitedForA) {
            throw new AssertionError("worker B's apply on fund-B, on its own connection and its own thread, made "
                    + "while worker A is paused inside apply: no answer within " + B_PATIENCE_SECONDS + " s. B waited "
                    + "for A inside this JVM (a synchronized block or a lock of its own around apply?). The lock "
                    + "that matters is the database's: workers in other processes never see a lock of this JVM, and "
                    + "meeting the database's lock is answered Contended at once.");
        } catch (ExecutionException failed) {
            throw new AssertionError("worker B's apply on fund-B during A's pause threw " + failed.getCause(),
                    failed.getCause());
        } finally {
            pause.release();
        }
        ApplyResult aResult = aOnItsThread.get(30, TimeUnit.SECONDS);
        InstallResult afterPause = authority.install(FUND_A, 2);

        assertThat(duringPause).as("the install while worker A is paused inside apply")
                .isEqualTo(new InstallResult.Contended(FUND_A));
        assertThat(onFundBDuringPause).as("an install on fund-B during the same pause: the lock is the whole file's, "
                + "and the answer names the resource the install was asked for")
                .isEqualTo(new InstallResult.Contended(FUND_B));
        assertThat(bDuringPause).as("worker B's apply on fund-B during A's pause: the file is locked, so B is told "
                + "at once to come back").isEqualTo(new Contended(FUND_B));
        assertThat(aResult).as("worker A's apply once it resumes").isEqualTo(new Applied(7));
        assertThat(afterPause).as("the install retried after A committed")
                .isEqualTo(new InstallResult.Installed(FUND_A, 2));
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "A failure inside apply rolls the transaction back, so the lock is freed and the store works on.",
            hints = {
                "After an exception, is your connection still inside BEGIN IMMEDIATE? Who else is then locked out?",
                "Wrap the work and COMMIT in try { ... } catch (RuntimeException | Error e) { "
                        + "ledger.execute(\"ROLLBACK\"); throw e; }."})
    void aFailedApplyLeavesTheStoreUsable() {
        FencedStore workerA = course.store();
        workerA.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> {
            throw new InjectedFault(Checkpoint.AFTER_VALUE_UPDATE);
        });

        Throwable failure = catchThrowable(() -> workerA.apply(WORKER_A));
        long valueAfterFailure = course.value(FUND_A);
        InstallResult install = course.authority().install(FUND_A, 2);

        assertThrown(failure, "what apply throws when a fault is injected after its update: the fault itself "
                + "(hint 2)",
                "apply swallowed the fault and returned normally").isInstanceOf(InjectedFault.class);
        assertThat(valueAfterFailure).as("fund-A's value right after the failed apply: its update must not "
                + "have been committed").isZero();
        assertThat(install).as("another connection's install after the failed apply: the lock must be free, so "
                + "the failed transaction must have been rolled back")
                .isEqualTo(new InstallResult.Installed(FUND_A, 2));
        ApplyResult next = workerA.apply(new ApplyRequest(FUND_A, 2, "a-2", 3));
        assertThat(next).as("the same store's next apply: no transaction may be left open")
                .isEqualTo(new Applied(3));
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "Only a lock held elsewhere is contention: a transaction that cannot start, or breaks off, for another reason fails, with its own error.",
            hints = {
                "Contended promises that a retry may succeed. Would any retry help a store whose connection is closed?",
                "Around BEGIN IMMEDIATE, and in the catch after the work, answer whenContended.get() only when "
                        + "e.isContention(); otherwise let the StoreException go on to the caller.",
                "On a closed connection the ROLLBACK fails too. Give it a try of its own: catch its StoreException, "
                        + "failure.addSuppressed(it), and throw the failure that broke the work, not the ROLLBACK's."})
    void onlyALockHeldElsewhereIsContention() {
        FencedStore closedStore = course.store();
        Authority closedAuthority = course.authority();
        FencedStore closedMidway = course.store();
        closedMidway.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, closedMidway::close);
        FencedStore closedBeforeTheCommit = course.store();
        closedBeforeTheCommit.checkpoints().once(Checkpoint.BEFORE_COMMIT, closedBeforeTheCommit::close);

        closedStore.close();
        closedAuthority.close();
        Throwable applyFailure = catchThrowable(() -> closedStore.apply(WORKER_A));
        Throwable installFailure = catchThrowable(() -> closedAuthority.install(FUND_A, 2));
        Throwable midwayFailure = catchThrowable(() -> closedMidway.apply(WORKER_A));
        AtomicReference<ApplyResult> answerAtTheCommit = new AtomicReference<>();
        Throwable commitFailure = catchThrowable(() -> answerAtTheCommit.set(closedBeforeTheCommit.apply(WORKER_A)));

        assertThrown(applyFailure, "what an apply on a store whose connection is closed throws: no retry can "
                + "help, so it must fail, not answer Contended", "apply answered instead")
                .isInstanceOf(StoreException.class);
        assertThrown(installFailure, "what an install on an authority whose connection is closed throws: the "
                + "same", "install answered instead").isInstanceOf(StoreException.class);
        assertThrown(midwayFailure, "what an apply throws when its connection is closed right after it read the "
                + "generation: a StoreException from inside the work is contention only if isContention() says so",
                "apply answered instead").isInstanceOf(StoreException.class);
        assertThat(midwayFailure.getMessage()).as("the message of that StoreException: it must be the work's own "
                + "failure (the statement after the read, on the closed connection), not the ROLLBACK's. The ROLLBACK "
                + "fails on the closed connection too; add its failure to the work's with addSuppressed, and throw "
                + "the work's (hint 3)")
                .doesNotStartWith("ROLLBACK");
        assertThat(midwayFailure.getSuppressed()).as("the failures attached to it: the ROLLBACK's, which failed on "
                + "the closed connection too, and must not be lost (hint 3)").isNotEmpty();
        assertThrown(commitFailure, "what an apply throws when its connection is closed after the work, so that its "
                + "COMMIT fails: a failed COMMIT is contention only if isContention() says so, like any other",
                "apply answered " + answerAtTheCommit.get()).isInstanceOf(StoreException.class);
        assertThat(course.state(FUND_A)).as("fund-A after the four failures")
                .isEqualTo(new ResourceState(FUND_A, 1, 0));
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "A reader inside an open transaction blocks the commit: apply answers Contended and leaves nothing.",
            hints = {
                "BEGIN IMMEDIATE only reserves the write lock. Before COMMIT can write the file, every reader still "
                        + "inside a transaction must finish. What does your COMMIT do when one has not?",
                "The failure can come from COMMIT too: in the catch after the work, ROLLBACK, and when the failure is "
                        + "a StoreException with isContention(), answer whenContended.get() instead of throwing."})
    void aCommitThatMeetsAnOpenReaderIsContended() throws SQLException {
        FencedStore workerA = course.store();
        Statement reader = course.connection().createStatement();
        List<String> before = course.contents();
        reader.execute("BEGIN");
        reader.executeQuery("SELECT value FROM resources").close();
        AtomicInteger begins = new AtomicInteger();
        workerA.checkpoints().on(Checkpoint.BEFORE_BEGIN, begins::incrementAndGet);

        ApplyResult whileReading = workerA.apply(WORKER_A);
        int beginsWhileReading = begins.get();
        reader.execute("COMMIT");
        List<String> afterContention = course.contents();
        ApplyResult retry = workerA.apply(WORKER_A);

        assertThat(whileReading).as("worker A's apply while another connection is inside a read transaction: its "
                + "commit cannot wait with a busy timeout of 0, and a retry may succeed").isEqualTo(new Contended(FUND_A));
        assertThat(beginsWhileReading).as("BEGINs made by the contended apply: one, trying again is the worker's decision")
                .isEqualTo(1);
        assertThat(afterContention).as("every row after the contended apply: no value change, no record")
                .isEqualTo(before);
        assertThat(retry).as("worker A's retry once the reader finished").isEqualTo(new Applied(7));
    }

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "Every failure rolls back, an Error as much as an exception, at COMMIT as much as before it: no "
                    + "transaction stays open holding the lock.",
            hints = {
                "An OutOfMemoryError or a StackOverflowError is no RuntimeException. Which failures does your catch "
                        + "after BEGIN IMMEDIATE roll back, and what happens to the lock after the others?",
                "catch (RuntimeException | Error failure) { ROLLBACK, then throw failure; }: every Throwable that "
                        + "can leave work.get() unchecked ends the transaction first, and a ROLLBACK that fails as "
                        + "well is attached to the Error (addSuppressed), as the koan on closed connections asked "
                        + "for exceptions."})
    void anErrorInsideApplyRollsBackToo() {
        FencedStore workerA = course.store();
        Connection probe = course.connection();
        workerA.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> {
            throw new InjectedError(Checkpoint.AFTER_VALUE_UPDATE);
        });

        Throwable failure = catchThrowable(() -> workerA.apply(WORKER_A));
        String lockAfterFailure = tryToReserve(probe);
        long valueAfterFailure = course.value(FUND_A);
        ApplyResult next = workerA.apply(new ApplyRequest(FUND_A, 1, "a-2", 3));
        // A COMMIT can fail as well (a full disk, an I/O error), and that failure must end the transaction too.
        workerA.checkpoints().once(Checkpoint.BEFORE_COMMIT, () -> {
            throw new InjectedError(Checkpoint.BEFORE_COMMIT);
        });
        Throwable commitFailure = catchThrowable(() -> workerA.apply(new ApplyRequest(FUND_A, 1, "a-3", 4)));
        String lockAfterCommitFailure = tryToReserve(probe);
        ApplyResult afterCommitFailure = workerA.apply(new ApplyRequest(FUND_A, 1, "a-4", 5));
        // An Error once the connection is closed: the ROLLBACK fails as well.
        FencedStore closedThenAnError = course.store();
        closedThenAnError.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> {
            closedThenAnError.close();
            throw new InjectedError(Checkpoint.AFTER_VALUE_UPDATE);
        });
        Throwable errorOnAClosedConnection = catchThrowable(() -> closedThenAnError.apply(WORKER_A));

        assertThrown(failure, "what apply throws when an Error is raised after its update: the Error itself",
                "apply swallowed the Error and returned normally").isInstanceOf(InjectedError.class);
        assertThat(lockAfterFailure).as("another connection trying BEGIN IMMEDIATE after the failed apply: a "
                + "transaction left open would still hold the write lock").startsWith("reserved");
        assertThat(valueAfterFailure).as("fund-A's value after the failed apply").isZero();
        assertThat(next).as("the same store's next apply: its connection must not be inside a transaction still")
                .isEqualTo(new Applied(3));
        assertThrown(commitFailure, "what apply throws when its COMMIT fails with an Error: the Error itself",
                "apply swallowed the COMMIT's Error and returned normally").isInstanceOf(InjectedError.class);
        assertThat(lockAfterCommitFailure).as("another connection trying BEGIN IMMEDIATE after a COMMIT failed with "
                + "something other than contention: a failure at COMMIT must roll back as well, or the lock stays "
                + "held and every other worker is answered Contended for ever").startsWith("reserved");
        assertThat(afterCommitFailure).as("the same store's next apply after the failed COMMIT: a-3 was rolled back, "
                + "so fund-A holds 3 and a-4 brings it to 8").isEqualTo(new Applied(8));
        assertThrown(errorOnAClosedConnection, "what an apply throws when an Error comes from its work after its "
                + "connection was closed: the Error itself, with the failed ROLLBACK attached to it (addSuppressed), "
                + "as for any other failure of the work (hint 2)", "apply answered instead")
                .isInstanceOf(InjectedError.class)
                .satisfies(error -> assertThat(error.getSuppressed()).as("the failures attached to the Error: the "
                        + "ROLLBACK's, which failed on the closed connection (hint 2)").isNotEmpty());
        assertThat(course.value(FUND_A)).as("fund-A's value after the Error on the closed connection").isEqualTo(8);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A malformed request is refused at once, even while the lock is held: Contended would invite a retry that cannot help.",
            hints = {
                "Another connection holds the write lock, and a malformed request arrives (a blank resource, no "
                        + "request id, generation 0, ...). What does its sender do with Contended, and will that ever "
                        + "succeed?",
                "Check the request before ImmediateTransaction.run, not inside the work: a refusal needs no lock, "
                        + "and the lock cannot make a malformed request well-formed."})
    void aMalformedRequestIsRefusedEvenWhileTheLockIsHeld() throws SQLException {
        FencedStore worker = course.store();
        Statement holder = course.connection().createStatement();
        holder.execute("BEGIN IMMEDIATE");

        Map<String, ApplyRequest> malformed = new LinkedHashMap<>();
        malformed.put("a blank resource", new ApplyRequest(" ", 1, "r1", 7));
        malformed.put("no resource", new ApplyRequest(null, 1, "r1", 7));
        malformed.put("a resource ending in a line feed", new ApplyRequest(FUND_A + "\n", 1, "r1", 7));
        malformed.put("a resource ending in half a surrogate pair", new ApplyRequest(FUND_A + "\uDC00", 1, "r1", 7));
        malformed.put("a blank request id", new ApplyRequest(FUND_A, 1, " ", 7));
        malformed.put("no request id", new ApplyRequest(FUND_A, 1, null, 7));
        malformed.put("generation 0", new ApplyRequest(FUND_A, 0, "r1", 7));
        malformed.put("a request id ending in a line feed", new ApplyRequest(FUND_A, 1, "r1\n", 7));
        malformed.put("a request id ending in half a surrogate pair", new ApplyRequest(FUND_A, 1, "r\uD800", 7));
        malformed.put("a request id one character over the limit",
                new ApplyRequest(FUND_A, 1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH + 1), 7));
        Map<String, Throwable> refusals = new LinkedHashMap<>();
        Map<String, ApplyResult> answers = new LinkedHashMap<>();
        malformed.forEach((what, request) -> refusals.put(what, catchThrowable(() -> answers.put(what,
                worker.apply(request)))));
        holder.execute("ROLLBACK");

        refusals.forEach((what, refusal) -> assertThrown(refusal, "a request with " + what + ", sent while another "
                + "connection holds the write lock: every check of the request comes before the transaction, "
                + "whatever the lock" + (refusal == null ? "" : ", but apply threw " + refusal), "apply returned "
                + answers.get(what)).isInstanceOf(IllegalArgumentException.class));
    }

    private static String tryToReserve(Connection probe) {
        try (Statement statement = probe.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            statement.execute("ROLLBACK");
            return "reserved: the write lock was free";
        } catch (SQLException e) {
            return "busy: " + e.getMessage();
        }
    }

    @Koan(edit = "ImmediateTransaction.run, FencedStore.apply and Authority.install",
            teaches = "The transaction holds for every request, not only for those the koans wrote: an install in the "
                    + "gap is contended, a lock held elsewhere or a reader at the commit gets Contended and changes "
                    + "nothing, and a failure after the update leaves nothing behind.",
            hints = {
                "Nothing new to write: the message names the step your store answered differently, what disturbed "
                        + "it, and the steps before it on the same resource. Which koan of this lesson showed that "
                        + "disturbance?",
                "A store whose whole check and effect run in one ImmediateTransaction.run, which answers Contended "
                        + "only for a lock held elsewhere and rolls back every failure, passes with any sequence. "
                        + "Graded runs draw a new sequence each time."})
    void theTransactionHoldsOnRequestsNoKoanWrote() {
        UnseenRequests.assertTheStoreFollowsTheContract(course, UnseenRequests.Scope.TRANSACTION);
    }

    /** A thread of B's own: a thread pool shared with A (or with an earlier koan's stuck worker) could leave B none. */
    private static void onItsOwnThread(Runnable work) {
        Thread thread = new Thread(work, "worker B");
        thread.setDaemon(true);
        thread.start();
    }
}
