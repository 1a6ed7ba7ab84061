package fencingkoans.koans;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.FencedStore;
import java.util.concurrent.atomic.AtomicReference;

@Lesson(value = 4, title = "Authority does not remove duplicates", page = "docs/lessons/4-duplicates.md")
class Lesson4DuplicateKoans extends CourseKoans {

    private static final ApplyRequest R1 = new ApplyRequest(FUND_A, 1, "r1", 7);
    private static final ApplyRequest R2 = new ApplyRequest(FUND_A, 1, "r2", 5);

    @Koan(value = "4.1", edit = "FencedStore.apply",
            teaches = "The same request sent twice under a valid generation is applied once; the repeat is replayed.",
            hints = {
                "Both sends carry the installed generation, so the generation check cannot tell them apart. "
                        + "What can?",
                "Inside the transaction, first ledger.findRecord(resource, requestId); when there is none, apply "
                        + "and then ledger.storeRecord(request, newValue).",
                "When a record exists with the same delta: return new ApplyResult.Replayed(record.resultValue())."})
    void theSameRequestSentTwiceIsAppliedOnce() {
        FencedStore worker = course.store();

        ApplyResult first = worker.apply(R1);
        ApplyResult second = worker.apply(R1);

        assertThat(first).as("the first send of r1 (delta 7)").isEqualTo(new Applied(7));
        assertThat(second).as("the second send of the very same r1").isEqualTo(new Replayed(7));
        assertThat(course.value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }

    @Koan(value = "4.2", edit = "FencedStore.apply",
            teaches = "The same request id with another delta is a conflict, not a replay.",
            hints = {
                "The record remembers the delta. Does your replay compare it with the one presented?",
                "When record.delta() differs: return ApplyResult.Rejected.conflicting(request, record.delta())."})
    void theSameIdWithAnotherDeltaIsRejectedAsConflicting() {
        FencedStore worker = course.store();
        worker.apply(R1);

        ApplyResult reused = worker.apply(new ApplyRequest(FUND_A, 1, "r1", 9));

        assertThat(reused).as("r1 presented again with delta 9 instead of 7").isEqualTo(Rejected.conflicting(
                new ApplyRequest(FUND_A, 1, "r1", 9), 7));
        assertThat(course.value(FUND_A)).as("fund-A's value after the conflict").isEqualTo(7);
    }

    @Koan(value = "4.3", edit = "FencedStore.apply",
            teaches = "A replay answers with the original result, not the present value: a replay is never a read.",
            hints = {
                "Where does your Replayed value come from: the record, or the resource's value now?",
                "The record's resultValue is what r1 was answered with when it was applied."})
    void aReplayAnswersWithTheOriginalResult() {
        FencedStore worker = course.store();
        worker.apply(R1);
        worker.apply(R2);

        ApplyResult replay = worker.apply(R1);

        assertThat(replay).as("r1 returned 7 and r2 then took the value to 12; replaying r1").isEqualTo(new Replayed(7));
        assertThat(course.value(FUND_A)).as("fund-A's value after the replay: still 12, nothing reduced")
                .isEqualTo(12);
        assertThat(worker.read(FUND_A).orElseThrow().value()).as("to learn the present value, read").isEqualTo(12);
    }

    @Koan(value = "4.4", edit = "FencedStore.apply",
            teaches = "Request ids are per resource: r1 on fund-A and r1 on fund-B are two requests.",
            hints = {
                "Which key do you look the record up by?",
                "ledger.findRecord(request.resource(), request.requestId()): both parts of the key."})
    void requestIdsArePerResource() {
        FencedStore worker = course.store();

        ApplyResult onA = worker.apply(R1);
        ApplyResult onB = worker.apply(new ApplyRequest(FUND_B, 1, "r1", 7));

        assertThat(onA).as("r1 on fund-A").isEqualTo(new Applied(7));
        assertThat(onB).as("r1 on fund-B, a different resource").isEqualTo(new Applied(FUND_B_START_VALUE + 7));
    }

    @Koan(value = "4.5", edit = "FencedStore.apply",
            teaches = "A generation is not a duplicate check: two different requests in one generation both apply.",
            hints = {
                "A worker keeps its generation for many requests. What would 'one apply per generation' break?",
                "Decide duplicates by the record for (resource, requestId) only, never by the generation."})
    void aGenerationIsNotADuplicateCheck() {
        FencedStore worker = course.store();

        ApplyResult first = worker.apply(R1);
        ApplyResult second = worker.apply(R2);

        assertThat(first).as("r1 in generation 1").isEqualTo(new Applied(7));
        assertThat(second).as("r2, another request in the same generation 1").isEqualTo(new Applied(12));
    }

    @Koan(value = "4.6", edit = "FencedStore.apply",
            teaches = "A worker whose response was lost learns the truth by replay, even after a new generation.",
            hints = {
                "r1 was applied, the answer never reached the worker, and then generation 2 was installed. If "
                        + "the generation is checked first, what is the worker told about an effect that happened?",
                "Look up the record before checking the generation: the record answers whatever is installed now."})
    void aLostResponseIsRecoveredByReplayEvenAfterANewGeneration() {
        FencedStore worker = course.store();
        worker.apply(R1);
        course.authority().install(FUND_A, 2);

        ApplyResult retry = worker.apply(R1);

        assertThat(retry).as("the worker retries r1 with generation 1 after its first answer was lost and "
                + "generation 2 was installed: r1 did happen, and the answer must say so").isEqualTo(new Replayed(7));
    }

    @Koan(value = "4.7", edit = "FencedStore.apply",
            teaches = "A conflicting reuse of an id is reported as a conflict even after a new generation.",
            hints = {
                "Same order as 4.6: what does the record say, before any generation check?",
                "Record found with another delta: Rejected.conflicting, whatever generation is installed."})
    void aConflictIsReportedAsConflictEvenAfterANewGeneration() {
        FencedStore worker = course.store();
        worker.apply(R1);
        course.authority().install(FUND_A, 2);
        ApplyRequest reused = new ApplyRequest(FUND_A, 1, "r1", 9);

        ApplyResult result = worker.apply(reused);

        assertThat(result).as("r1 reused with delta 9 after generation 2 was installed")
                .isEqualTo(Rejected.conflicting(reused, 7));
    }

    @Interleaving
    @Koan(value = "4.8", edit = "FencedStore.apply",
            teaches = "The record is stored in the effect's transaction: a duplicate in flight waits, then replays.",
            hints = {
                "The duplicate arrives on another connection while the original has applied its delta but not "
                        + "committed. What protects against a double apply then?",
                "Store the record inside the same ImmediateTransaction.run as the effect; the duplicate meets the "
                        + "lock, and its retry finds the record."})
    void aDuplicateInFlightIsContendedThenReplayed() {
        FencedStore original = course.store();
        FencedStore duplicate = course.store();
        AtomicReference<ApplyResult> duplicateInFlight = new AtomicReference<>();
        original.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> duplicateInFlight.set(duplicate.apply(R1)));

        original.apply(R1);
        ApplyResult duplicateRetry = duplicate.apply(R1);

        assertThat(duplicateInFlight.get()).as("the duplicate of r1 sent while the original is mid-transaction")
                .isEqualTo(new Contended(FUND_A));
        assertThat(duplicateRetry).as("the duplicate's retry after the original committed").isEqualTo(new Replayed(7));
        assertThat(course.records()).as("request records").containsExactly(FUND_A + "/r1");
    }

    @Koan(value = "4.9", edit = "FencedStore.apply",
            teaches = "The effect and its record commit together: a failure after the record is stored undoes both.",
            hints = {
                "Suppose the delta is committed first and the record stored in a later transaction. What does a "
                        + "failure between the two leave behind, and what does the worker's retry then do?",
                "Call ledger.addToValue and ledger.storeRecord inside the one ImmediateTransaction.run of apply, "
                        + "with no COMMIT in between."})
    void theEffectAndItsRecordCommitTogether() {
        FencedStore worker = course.store();
        worker.checkpoints().once(Checkpoint.AFTER_RECORD_STORED, () -> {
            throw new InjectedFault(Checkpoint.AFTER_RECORD_STORED);
        });

        assertThatThrownBy(() -> worker.apply(R1)).as("the fault injected after r1's record was stored, before "
                + "anything was committed, reaches the caller").isInstanceOf(InjectedFault.class);
        ApplyResult retry = worker.apply(R1);

        assertThat(retry).as("r1 retried after the failed try: if the delta had been committed without its "
                + "record, the retry would find no record and apply it a second time").isEqualTo(new Applied(7));
        assertThat(course.value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }
}
