package fencingkoans.koans;

import static fencingkoans.koans.support.Thrown.assertThrown;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.ResourceState;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.outside.ExternalService;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Database;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.Counterexamples;
import fencingkoans.store.FencedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

@Lesson(value = 5, title = "Counterexamples bound the protection", page = "docs/lessons/5-counterexamples.md")
class Lesson5CounterexampleKoans extends CourseKoans {

    private static final ApplyRequest R1 = new ApplyRequest(FUND_A, 1, "r1", 7);
    private static final ApplyRequest ON_FUND_B = new ApplyRequest(FUND_B, 1, "b1", 7);
    private static final String AS_LENT = "open, committing each statement on its own";
    private static final String LENT = "the caller opened it and closes it, and gets it back as it lent it; a "
            + "setAutoCommit(false) left in place would hold the caller's next statements in a transaction that "
            + "nobody commits, and they would be lost when it closes";

    @Koan(edit = "ImmediateTransaction.run",
            teaches = "A fault between the value update and the request record rolls both back: no half-done apply.",
            hints = {
                "The fault comes after UPDATE and before the record. What is left if the update was committed alone?",
                "One transaction for the update and the record, and ROLLBACK on any exception."})
    void aFaultBetweenUpdateAndRecordLeavesNothingBehind() {
        FencedStore worker = course.store();
        worker.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> {
            throw new InjectedFault(Checkpoint.AFTER_VALUE_UPDATE);
        });

        Throwable failure = catchThrowable(() -> worker.apply(R1));
        assertThrown(failure, "what apply throws when a fault is injected after its update: the fault itself",
                "apply swallowed the fault and returned normally").isInstanceOf(InjectedFault.class);
        ApplyResult retry = worker.apply(R1);

        assertThat(course.records()).as("request records after the retry: the aborted try left none of its own")
                .containsExactly(FUND_A + "/r1");
        assertThat(retry).as("r1 retried after the fault: the aborted try must not count")
                .isEqualTo(new Applied(7));
        assertThat(course.value(FUND_A)).as("fund-A's value: the delta applied exactly once").isEqualTo(7);
    }

    @Koan(edit = "Counterexamples.writeAroundTheStore",
            teaches = "A direct SQL write skips apply, and nothing stops it: every write path is part of the guarantee.",
            hints = {
                "You are writing the attack, not a defence. Any program that can open the file can run SQL.",
                "A PreparedStatement: UPDATE resources SET value = ? WHERE name = ?. The method declares no "
                        + "checked exception: wrap an SQLException, for example in new StoreException(\"...\", e)."})
    void aDirectSqlWriteBypassesTheContract() throws Exception {
        course.authority().install(FUND_B, 2);
        FencedStore staleWorker = course.store();
        ApplyResult throughTheStore = staleWorker.apply(ON_FUND_B);
        Connection direct = course.connection();
        // A look-alike: SQLite's LIKE ignores the case of ASCII letters, so only = names the one resource.
        try (Statement statement = direct.createStatement()) {
            statement.execute("INSERT INTO resources (name, generation, value) VALUES ('FUND-B', 1, 5)");
            statement.execute("INSERT INTO resources (name, generation, value) VALUES ('o''clock', 1, 5)");
        }

        Counterexamples.writeAroundTheStore(direct, FUND_B, 1_000);
        // A name is data, never SQL text: one with a quote in it, and one that would widen a pasted WHERE.
        Counterexamples.writeAroundTheStore(direct, "o'clock", 6);
        Counterexamples.writeAroundTheStore(direct, "nobody' OR name <> '", 2_000);
        String directAsLeft = asLent(direct);

        assertThat(throughTheStore).as("the stale worker through apply").isEqualTo(Rejected.stale(1, 2));
        assertThat(course.state(FUND_A)).as("fund-A after the writes on fund-B, o'clock and a resource named "
                + "\"nobody' OR name <> '\", which does not exist: the counterexample writes the one resource it "
                + "names, and nothing else; a name pasted into the SQL would have written every row")
                .isEqualTo(new ResourceState(FUND_A, 1, 0));
        assertThat(course.value(FUND_B)).as("fund-B's value, %d before, after the same worker wrote 1000 around the "
                + "store: the fence only guards the door it stands in", FUND_B_START_VALUE).isEqualTo(1_000);
        assertThat(course.state(FUND_B)).as("fund-B after the direct write: its value changed, and its generation, "
                + "2, is still the one installed; a write that puts the whole row back (INSERT OR REPLACE) would "
                + "also hand the stale worker its generation again").isEqualTo(new ResourceState(FUND_B, 2, 1_000));
        assertThat(course.state("FUND-B")).as("the resource FUND-B, named like fund-B but for the case of its "
                + "letters: a name is matched exactly (=), not as a LIKE pattern")
                .isEqualTo(new ResourceState("FUND-B", 1, 5));
        assertThat(course.state("o'clock")).as("the resource o'clock after the write of 6 on it: the name goes in "
                + "as a parameter (?), so its quote is a character of the name and not the end of a string in the SQL")
                .isEqualTo(new ResourceState("o'clock", 1, 6));
        assertThat(course.read("nobody' OR name <> '")).as("the resource \"nobody' OR name <> '\" after the write "
                + "on it: it did not exist, and a write around the store changes a value; it creates no resource")
                .isEmpty();
        assertThat(directAsLeft).as("the connection the koan lent to writeAroundTheStore, after the calls: %s",
                LENT).isEqualTo(AS_LENT);
        assertThat(course.records()).as("request records: the direct write left no trace").isEmpty();

        long pastTheInts = (1L << 32) + 6;
        Counterexamples.writeAroundTheStore(direct, "o'clock", pastTheInts);
        assertThat(course.value("o'clock")).as("o'clock's value after a write of %d, 2^32 + 6: a value is a long, "
                + "and bound as an int (setInt) only its lowest 32 bits, 6, would be written", pastTheInts)
                .isEqualTo(pastTheInts);
    }

    @Koan(edit = "Counterexamples.restoreGeneration",
            teaches = "A recovery that restores an old generation makes the old worker's requests acceptable again.",
            hints = {
                "The generation lives in the same table as the value. What does a restore from last night put back?",
                "UPDATE resources SET generation = ? WHERE name = ?, with the old generation, on the one resource."})
    void restoringAnOldGenerationReadmitsAStaleWorker() throws Exception {
        course.authority().install(FUND_A, 2);
        course.authority().install(FUND_A, 4);
        Connection lent = course.connection();
        // A look-alike: SQLite's LIKE ignores the case of ASCII letters, so only = names the one resource.
        try (Statement statement = lent.createStatement()) {
            statement.execute("INSERT INTO resources (name, generation, value) VALUES ('FUND-A', 5, 0)");
        }
        FencedStore staleWorker = course.store();
        ApplyRequest underGeneration2 = new ApplyRequest(FUND_A, 2, "r2", 7);
        ApplyResult beforeRestore = staleWorker.apply(underGeneration2);
        ApplyRequest underGeneration4 = new ApplyRequest(FUND_A, 4, "r4", 3);
        ApplyResult byTheHolder = course.store().apply(underGeneration4);

        Counterexamples.restoreGeneration(lent, FUND_A, 2);
        Counterexamples.restoreGeneration(lent, "nobody' OR name <> '", 3);
        String lentAsLeft = asLent(lent);
        ApplyResult afterRestore = staleWorker.apply(underGeneration2);
        ApplyResult holdersRetry = course.store().apply(underGeneration4);

        assertThat(beforeRestore).as("the worker that still holds generation 2, before the bad recovery")
                .isEqualTo(Rejected.stale(2, 4));
        assertThat(course.state(FUND_B)).as("fund-B after the recovery on fund-A and one on a resource named "
                + "\"nobody' OR name <> '\", which does not exist: the counterexample restores the one resource it "
                + "names, as a parameter (?), and nothing else")
                .isEqualTo(new ResourceState(FUND_B, 1, FUND_B_START_VALUE));
        assertThat(course.generation(FUND_A)).as("fund-A's generation after the recovery put back generation 2, "
                + "last week's").isEqualTo(2);
        assertThat(course.state("FUND-A")).as("the resource FUND-A, named like fund-A but for the case of its "
                + "letters, after the recovery of fund-A: a name is matched exactly (=), not as a LIKE pattern")
                .isEqualTo(new ResourceState("FUND-A", 5, 0));
        assertThat(lentAsLeft).as("the connection the koan lent to restoreGeneration, after the calls: %s", LENT)
                .isEqualTo(AS_LENT);
        assertThat(byTheHolder).as("r4, by the worker holding generation 4, before the recovery")
                .isEqualTo(new Applied(3));
        assertThat(afterRestore).as("the same request after generation 2 was put back: the destination can only "
                + "be as right as the generation it holds").isEqualTo(new Applied(10));
        assertThat(holdersRetry).as("r4 retried after the recovery: the counterexample puts back the generation "
                + "only, so r4's record is still there and answers it; forgetting records is another counterexample, "
                + "the restored copy's").isEqualTo(new Replayed(3));

        long pastTheInts = (1L << 32) + 2;
        course.authority().install(FUND_B, pastTheInts + 1);
        Counterexamples.restoreGeneration(course.connection(), FUND_B, pastTheInts);
        assertThat(course.generation(FUND_B)).as("fund-B's generation after a recovery put back %d, 2^32 + 2, over "
                + "%d: a generation is a long, and bound as an int (setInt) only its lowest 32 bits, 2, would be put "
                + "back", pastTheInts, pastTheInts + 1).isEqualTo(pastTheInts);
    }

    @Koan(edit = "Counterexamples.restoreCopy",
            teaches = "Restoring an old copy of the file forgets request records, so a replay applies again.",
            hints = {
                "The request records live in the database file too. What does an older copy of the file not know?",
                "Files.copy(oldCopy, liveFile, StandardCopyOption.REPLACE_EXISTING); every connection is already "
                        + "closed when the koan calls you. Wrap the IOException in an UncheckedIOException."})
    void restoringAnOldCopyForgetsRequestRecords() throws Exception {
        Path oldCopy = course.file().resolveSibling("last-night.db");
        Database.snapshot(course.connection(), oldCopy);
        ApplyResult original = course.store().apply(R1);
        course.close();

        Counterexamples.restoreCopy(oldCopy, course.file());
        boolean copyKept = Files.isRegularFile(oldCopy);
        ApplyResult retryAfterRestore = course.store().apply(R1);

        assertThat(original).as("r1 applied before the restore").isEqualTo(new Applied(7));
        assertThat(retryAfterRestore).as("r1 retried after the old copy was restored: the record is gone, so the "
                + "same intent is applied a second time").isEqualTo(new Applied(7));
        assertThat(copyKept).as("whether last night's copy is still there after the restore: a restore copies the "
                + "backup over the live file, it does not use it up (Files.copy, not Files.move)").isTrue();
    }

    @Koan(edit = "Counterexamples.applyWithExternalCallInside",
            teaches = "A call to an outside service made inside the transaction is not undone by its rollback.",
            hints = {
                "Register an action at Checkpoint.AFTER_VALUE_UPDATE on store.checkpoints(), then apply.",
                "try (Checkpoints.Registration charge = store.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () "
                        + "-> service.call(\"charged \" + request.delta()))) { return store.apply(request); }: closing "
                        + "the registration forgets a call that never came, so a rejected request leaves none behind."})
    void anExternalCallInsideTheTransactionIsNotRolledBack() {
        FencedStore worker = course.store();
        ExternalService payments = new ExternalService();
        AtomicInteger callsBeforeTheUpdate = new AtomicInteger(-1);
        AtomicInteger callsInsideTheTransaction = new AtomicInteger(-1);
        worker.checkpoints().once(Checkpoint.AFTER_GENERATION_READ,
                () -> callsBeforeTheUpdate.set(payments.calls().size()));
        worker.checkpoints().once(Checkpoint.AFTER_RECORD_STORED, () -> {
            callsInsideTheTransaction.set(payments.calls().size());
            throw new InjectedFault(Checkpoint.AFTER_RECORD_STORED);
        });

        Throwable failure = catchThrowable(() -> Counterexamples.applyWithExternalCallInside(worker, R1, payments));
        long valueAfterRollback = course.value(FUND_A);
        List<String> recordsAfterRollback = course.records();
        List<String> callsAfterRollback = payments.calls();
        ApplyResult retry = Counterexamples.applyWithExternalCallInside(worker, R1, payments);

        assertThrown(failure, "what the apply throws when a fault is injected before its commit",
                "the apply swallowed the fault and returned normally").isInstanceOf(InjectedFault.class);
        assertThat(valueAfterRollback).as("fund-A's value after the failed try: the database rolled back").isZero();
        assertThat(recordsAfterRollback).as("request records after the failed try: rolled back too").isEmpty();
        assertThat(callsBeforeTheUpdate.get()).as("calls the outside service had received when the transaction "
                + "had begun and read the generation, before the update: a call made before apply is not inside the "
                + "transaction, and shows nothing about its rollback (-1: that moment never came)").isZero();
        assertThat(callsInsideTheTransaction.get()).as("calls the outside service had received while the "
                + "transaction was still open (-1: the transaction never got that far)").isEqualTo(1);
        assertThat(callsAfterRollback).as("calls the outside service received from the failed try: it was "
                + "charged, and no ROLLBACK reaches it").hasSize(1);
        assertThat(retry).as("r1 retried: the database kept nothing of the failed try, so r1 applies now")
                .isEqualTo(new Applied(7));
        assertThat(payments.calls()).as("calls the outside service received in all: two charges for one effect")
                .hasSize(2);

        course.install(FUND_A, 2);
        FencedStore afterTheInstall = course.store();
        ApplyResult stale = Counterexamples.applyWithExternalCallInside(afterTheInstall,
                new ApplyRequest(FUND_A, 1, "r2", 5), payments);
        List<String> callsAfterTheStale = List.copyOf(payments.calls());
        Throwable malformed = catchThrowable(() -> Counterexamples.applyWithExternalCallInside(afterTheInstall,
                new ApplyRequest(FUND_A, 2, " ", 5), payments));
        ApplyResult replayed = Counterexamples.applyWithExternalCallInside(afterTheInstall, R1, payments);
        ApplyResult direct = afterTheInstall.apply(new ApplyRequest(FUND_A, 2, "r3", 1));

        assertThat(stale).as("r2 with generation 1, sent the same way once generation 2 is installed")
                .isEqualTo(Rejected.stale(1, 2));
        assertThat(callsAfterTheStale).as("calls the outside service had received after the stale r2 too: the call "
                + "comes after the update, so a request that updates nothing is charged nothing").hasSize(2);
        assertThrown(malformed, "a request without an id sent the same way: apply refuses it",
                "it was answered").isInstanceOf(IllegalArgumentException.class);
        assertThat(replayed).as("r1 sent the same way once more: answered from its record").isEqualTo(new Replayed(7));
        assertThat(direct).as("r3, applied next on the same store directly, not through "
                + "applyWithExternalCallInside").isEqualTo(new Applied(8));
        assertThat(payments.calls()).as("calls the outside service had received after r3 too: the call registered "
                + "for the stale r2, the request apply refused by throwing or the replayed r1 (none of them updated "
                + "anything) must not stay behind on the store and charge its next request").hasSize(2);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "Reopening the file keeps committed work and records, which proves a clean close, not a crash.",
            hints = {
                "If this fails, something was not committed before the store was closed.",
                "A close with an open transaction rolls it back. Real crash evidence needs a process that dies "
                        + "mid-write; reopening only shows what a clean close keeps."})
    void reopeningTheFileKeepsCommittedWorkButIsNoCrashTest() throws Exception {
        course.store().apply(R1);
        course.close();

        FencedStore reopened = course.store();

        assertThat(reopened.read(FUND_A).orElseThrow().value()).as("fund-A's value after reopening").isEqualTo(7);
        assertThat(reopened.apply(R1)).as("r1 replayed after reopening: the record survived")
                .isEqualTo(new Replayed(7));
    }

    private static String asLent(Connection connection) throws SQLException {
        if (connection.isClosed()) {
            return "closed";
        }
        return connection.getAutoCommit() ? AS_LENT : "open, with autocommit off";
    }
}
