package fencingkoans.koans;

import static fencingkoans.koans.support.Thrown.answerOrFailure;
import static fencingkoans.koans.support.WhenNull.because;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.koans.support.KoansOnEveryDestination;
import fencingkoans.koans.support.UnseenRequests;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.FencedStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
/**
 * The koans of lesson 4 that hold on every destination, written in its file: {@link Lesson4DuplicateKoans} runs them on
 * SQLite, and lesson 6 runs each of them again on PostgreSQL with hints in SQL of its own.
 */
interface Lesson4OnEveryDestination extends KoansOnEveryDestination {

    ApplyRequest R1 = new ApplyRequest(FUND_A, 1, "r1", 7);
    ApplyRequest R2 = new ApplyRequest(FUND_A, 1, "r2", 5);

    @Koan(edit = "FencedStore.apply",
            teaches = "The same request sent twice under a valid generation is applied once; the repeat is replayed.",
            hints = {
                "Both sends carry the installed generation, so the generation check cannot tell them apart. "
                        + "What can?",
                "Inside the transaction, first ledger.findRecord(resource, requestId); when there is none, apply "
                        + "and then ledger.storeRecord(request, newValue).",
                "When a record exists with the same delta: return new ApplyResult.Replayed(record.resultValue())."})
    default void theSameRequestSentTwiceIsAppliedOnce() {
        Worker worker = course().worker();

        ApplyRequest large = new ApplyRequest(FUND_A, 1, "r-large", 1000);

        ApplyResult first = worker.apply(R1);
        ApplyResult second = worker.apply(R1);
        worker.apply(large);
        ApplyResult largeAgain = worker.apply(large);

        assertThat(first).as("the first send of r1 (delta 7)").isEqualTo(new Applied(7));
        assertThat(second).as("the second send of the very same r1").isEqualTo(new Replayed(7));
        assertThat(largeAgain).as("the second send of r-large, delta 1000: the deltas are equal numbers, however "
                + "large").isEqualTo(new Replayed(1007));
        assertThat(course().value(FUND_A)).as("fund-A's value: each delta counts once").isEqualTo(1007);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "The same request id with another delta is a conflict, not a replay.",
            hints = {
                "The record remembers the delta. Does your replay compare it with the one presented, and which "
                        + "delta does your conflict name?",
                "When record.delta() differs: return ApplyResult.Rejected.conflicting(request, record.delta())."})
    default void theSameIdWithAnotherDeltaIsRejectedAsConflicting() {
        Worker worker = course().worker();
        worker.apply(R1);
        ApplyResult r2Applied = worker.apply(R2);
        ApplyRequest r1Reused = new ApplyRequest(FUND_A, 1, "r1", 9);
        ApplyRequest r2Reused = new ApplyRequest(FUND_A, 1, "r2", 9);

        worker.apply(new ApplyRequest(FUND_A, 1, "r0", 0));
        ApplyRequest r0Reused = new ApplyRequest(FUND_A, 1, "r0", 9);
        // 7 + 2^32: its lowest 32 bits are r1's delta, 7, all that a cast to int would keep of it.
        ApplyRequest r1ReusedPastTheInts = new ApplyRequest(FUND_A, 1, "r1", R1.delta() + (1L << 32));
        ApplyRequest r1ReusedAsAWithdrawal = new ApplyRequest(FUND_A, 1, "r1", -R1.delta());

        ApplyResult reused = worker.apply(r1Reused);
        ApplyResult reusedR2 = worker.apply(r2Reused);
        ApplyResult reusedR0 = worker.apply(r0Reused);
        ApplyResult reusedPastTheInts = worker.apply(r1ReusedPastTheInts);
        ApplyResult reusedAsAWithdrawal = worker.apply(r1ReusedAsAWithdrawal);

        assertThat(reused).as("r1 presented again with delta 9 instead of 7")
                .isEqualTo(Rejected.conflicting(r1Reused, R1.delta()));
        assertThat(reusedR2).as("r2 presented again with delta 9 instead of %d. r2 was answered %s: the conflict names "
                + "the delta that was recorded for r2, so that the worker learns what its first request asked for, "
                + "not the value that request left behind", R2.delta(), r2Applied.describe())
                .isEqualTo(Rejected.conflicting(r2Reused, R2.delta()));
        assertThat(reusedR0).as("r0, which added 0, presented again with delta 9: a request that changed no value is "
                + "recorded like any other").isEqualTo(Rejected.conflicting(r0Reused, 0));
        assertThat(reusedPastTheInts).as("r1 presented again with delta %d, which is %d + 2^32: compared as ints "
                + "the two deltas would be equal, and a different request would pass for a replay",
                r1ReusedPastTheInts.delta(), R1.delta())
                .isEqualTo(Rejected.conflicting(r1ReusedPastTheInts, R1.delta()));
        assertThat(reusedAsAWithdrawal).as("r1 presented again with delta %d, a withdrawal where r1 was a deposit of "
                + "%d: the same amount the other way is another request, and a replay would tell the worker that money "
                + "moved which never did", r1ReusedAsAWithdrawal.delta(), R1.delta())
                .isEqualTo(Rejected.conflicting(r1ReusedAsAWithdrawal, R1.delta()));
        assertThat(course().value(FUND_A)).as("fund-A's value after the conflicts: only r1 and r2 counted")
                .isEqualTo(R1.delta() + R2.delta());
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A replay answers with the original result, not the present value: a replay is never a read.",
            hints = {
                "Where does your Replayed value come from: the record, or the resource's value now? And what did "
                        + "you store in the record as the result?",
                "The record's resultValue is what r1 was answered with when it was applied."})
    default void aReplayAnswersWithTheOriginalResult() {
        Worker worker = course().worker();
        worker.apply(R1);
        worker.apply(R2);

        ApplyResult replay = worker.apply(R1);
        ApplyResult replayOfR2 = worker.apply(R2);
        ApplyRequest fill = new ApplyRequest(FUND_B, 1, "fill", Long.MAX_VALUE - FUND_B_START_VALUE);
        worker.apply(fill);
        Object replayOfTheFill = answerOrFailure(worker, fill);

        assertThat(replay).as("r1 returned 7 and r2 then took the value to 12; replaying r1").isEqualTo(new Replayed(7));
        assertThat(replayOfR2).as("replaying r2, whose delta was 5 and whose apply took the value to 12: the stored "
                + "result is what the original was answered with, which is not the delta it asked for")
                .isEqualTo(new Replayed(12));
        assertThat(course().value(FUND_A)).as("fund-A's value after the replay: still 12, nothing reduced; to learn "
                + "the present value, a worker reads it").isEqualTo(12);
        assertThat(replayOfTheFill).as("the request that took fund-B to Long.MAX_VALUE, sent again: a replay adds "
                + "nothing, so it cannot overflow; the record answers before any sum is tried")
                .isEqualTo(new Replayed(Long.MAX_VALUE));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "Request ids are per resource: r1 on fund-A and r1 on fund-B are two requests.",
            hints = {
                "Which key do you look the record up by?",
                "ledger.findRecord(request.resource(), request.requestId()): both parts of the key, each as it "
                        + "was sent, neither folded nor trimmed."})
    default void requestIdsArePerResource() {
        Worker worker = course().worker();
        // The last three: a full-width digit one, then é as one character and as an e with a combining accent.
        List<String> lookAlikes = List.of("R1", "r1 ", "r_", "r\uFF11", "caf\u00E9", "cafe\u0301");

        ApplyResult onA = worker.apply(R1);
        ApplyResult onB = worker.apply(new ApplyRequest(FUND_B, 1, R1.requestId(), R1.delta()));
        List<ApplyResult> onAAgain = lookAlikes.stream()
                .map(id -> worker.apply(new ApplyRequest(FUND_A, 1, id, R1.delta()))).toList();
        ApplyResult onBAgain = worker.apply(new ApplyRequest(FUND_B, 1, R1.requestId(), R1.delta()));

        assertThat(onA).as("r1 on fund-A").isEqualTo(new Applied(R1.delta()));
        assertThat(onB).as("r1 on fund-B, a different resource")
                .isEqualTo(new Applied(FUND_B_START_VALUE + R1.delta()));
        assertThat(onAAgain).as("\"%s\" on fund-A after r1, each with r1's delta: a request id is compared exactly "
                + "as sent, so each is a request of its own; an id folded, trimmed, normalized (NFKC reads the "
                + "full-width one as 1, and both spellings of é as one) or matched as a LIKE pattern (where _ stands "
                + "for any character) would make another worker's request a duplicate of an earlier one",
                        String.join("\", \"", lookAlikes))
                .containsExactly(new Applied(2 * R1.delta()), new Applied(3 * R1.delta()), new Applied(4 * R1.delta()),
                        new Applied(5 * R1.delta()), new Applied(6 * R1.delta()), new Applied(7 * R1.delta()));
        assertThat(onBAgain).as("r1 on fund-B again, answered from fund-B's own record: the record that answers is "
                + "found by resource and request id together, not only the record that says a repeat exists")
                .isEqualTo(new Replayed(FUND_B_START_VALUE + R1.delta()));

        // An id is a value, never part of the query's text: a quote in it is a character like any other.
        List<String> quoted = List.of("o'clock-1", "x' OR request_id <> '");
        long before = course().value(FUND_A);
        List<Object> answers = quoted.stream()
                .map(id -> answerOrFailure(worker, new ApplyRequest(FUND_A, 1, id, 1))).toList();
        assertThat(answers).as("\"%s\" on fund-A, after the requests above took it to %d: each is a request of its "
                + "own. A lookup that pastes the id into its SQL text fails on the first quote, and with the second "
                + "id finds another worker's record; a store that refuses quotes refuses a well-formed id",
                String.join("\", \"", quoted), before)
                .containsExactly(new Applied(before + 1), new Applied(before + 2));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A generation is not a duplicate check: two different requests in one generation both apply.",
            hints = {
                "A worker keeps its generation for many requests. What would 'one apply per generation' break?",
                "Decide duplicates by the record for (resource, requestId) only, never by the generation."})
    default void aGenerationIsNotADuplicateCheck() {
        Worker worker = course().worker();

        ApplyResult first = worker.apply(R1);
        ApplyResult second = worker.apply(R2);

        assertThat(first).as("r1 in generation 1").isEqualTo(new Applied(7));
        assertThat(second).as("r2, another request in the same generation 1").isEqualTo(new Applied(12));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A worker whose response was lost learns the truth by replay, even after a new generation.",
            hints = {
                "r1 was applied, the answer never reached the worker, and then generation 2 was installed. If "
                        + "the generation is checked first, what is the worker told about an effect that happened?",
                "Look up the record before checking the generation: the record answers whatever is installed now."})
    default void aLostResponseIsRecoveredByReplayEvenAfterANewGeneration() {
        Worker worker = course().worker();
        worker.apply(R1);
        course().install(FUND_A, 2);

        ApplyResult retry = worker.apply(R1);

        assertThat(retry).as("the worker retries r1 with generation 1 after its first answer was lost and "
                + "generation 2 was installed: r1 did happen, and the answer must say so").isEqualTo(new Replayed(7));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A conflicting reuse of an id is reported as a conflict even after a new generation.",
            hints = {
                "Same order as the koan before: what does the record say, before any generation check?",
                "Record found with another delta: Rejected.conflicting, whatever generation is installed."})
    default void aConflictIsReportedAsConflictEvenAfterANewGeneration() {
        Worker worker = course().worker();
        worker.apply(R1);
        course().install(FUND_A, 2);
        ApplyRequest reused = new ApplyRequest(FUND_A, 1, "r1", 9);
        ApplyRequest reusedUnderTheNewGeneration = new ApplyRequest(FUND_A, 2, "r1", 9);
        ApplyRequest reusedAheadOfTheInstall = new ApplyRequest(FUND_A, 3, "r1", 9);

        ApplyResult result = worker.apply(reused);
        ApplyResult underTheNewGeneration = worker.apply(reusedUnderTheNewGeneration);
        ApplyResult aheadOfTheInstall = worker.apply(reusedAheadOfTheInstall);

        assertThat(result).as("r1 reused with delta 9 after generation 2 was installed")
                .isEqualTo(Rejected.conflicting(reused, 7));
        assertThat(underTheNewGeneration).as("r1 reused with delta 9 and generation 2: the conflict names the "
                + "generation this request presented, not the one its record was applied under")
                .isEqualTo(Rejected.conflicting(reusedUnderTheNewGeneration, 7));
        assertThat(aheadOfTheInstall).as("r1 reused with delta 9 and generation 3, which was never installed: the "
                + "record answers before any generation check, for a conflict as for a replay")
                .isEqualTo(Rejected.conflicting(reusedAheadOfTheInstall, 7));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A retry sent under a newer generation is still answered from the record: the generation is not part of a request's identity.",
            hints = {
                "r1 was applied under generation 1, its answer was lost, and the worker sends r1 again after it got "
                        + "generation 2. Which request is that: a new one, or r1?",
                "A request is (resource, requestId). When a record exists, answer from it whatever generation the "
                        + "retry presents: compare the deltas only, never the generations."})
    default void aRetryUnderANewerGenerationIsAnsweredFromTheRecord() {
        Worker worker = course().worker();
        worker.apply(R1);
        ApplyResult aheadOfTheInstall = worker.apply(new ApplyRequest(FUND_A, 2, "r1", 7));
        course().install(FUND_A, 2);

        ApplyResult retry = worker.apply(new ApplyRequest(FUND_A, 2, "r1", 7));
        worker.apply(new ApplyRequest(FUND_A, 2, "r2", 3));
        ApplyResult olderRepeat = worker.apply(new ApplyRequest(FUND_A, 1, "r2", 3));

        assertThat(aheadOfTheInstall).as("r1 sent again with generation 2 before the destination has installed it: "
                + "the record answers first, whatever generation the repeat presents, even one not installed yet")
                .isEqualTo(new Replayed(7));
        assertThat(retry).as("r1 was applied under generation 1 and its answer lost; the worker, now holding "
                + "generation 2, sends r1 again: it is the same request, and it did happen").isEqualTo(new Replayed(7));
        assertThat(olderRepeat).as("r2, applied under generation 2, sent again with generation 1, older than the "
                + "one its record was applied under: still r2, answered from its record").isEqualTo(new Replayed(10));
        assertThat(course().value(FUND_A)).as("fund-A's value: r1's and r2's deltas count once each").isEqualTo(10);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A rejected request, stale or unissued, leaves no record: sent again with the installed generation, "
                    + "it applies.",
            hints = {
                "r1 came with a stale generation and was rejected: nothing happened. What may the worker do once it "
                        + "holds the installed generation, and what must your store have kept of the rejection?",
                "Store a record only together with an applied delta (ledger.storeRecord after ledger.addToValue): "
                        + "a record says 'this happened', and a rejection did not happen."})
    default void aRejectedRequestLeavesNoRecord() {
        Worker worker = course().worker();
        course().install(FUND_A, 2);
        ApplyResult stale = worker.apply(R1);

        ApplyResult resent = worker.apply(new ApplyRequest(FUND_A, 2, "r1", 7));

        assertThat(stale).as("r1 under generation 1 once generation 2 is installed").isEqualTo(Rejected.stale(1, 2));
        assertThat(resent).as("the same r1 sent again by a worker that now holds generation 2: the rejection "
                + "changed nothing, so r1 is new and applies").isEqualTo(new Applied(7));

        // Too early is rejected too: r2 under generation 3, before 3 is installed, must leave no record either.
        ApplyResult early = worker.apply(new ApplyRequest(FUND_A, 3, "r2", 5));
        course().install(FUND_A, 3);
        ApplyResult afterInstall = worker.apply(new ApplyRequest(FUND_A, 3, "r2", 5));

        assertThat(early).as("r2 under generation 3 while 2 is installed").isEqualTo(Rejected.unissued(3, 2));
        assertThat(afterInstall).as("the same r2 sent again once generation 3 is installed: its unissued rejection "
                + "changed nothing, so r2 is new and applies (a Replayed here means a record was kept for the "
                + "rejection, and the payment would never happen)").isEqualTo(new Applied(12));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "Duplicates are answered from the record for every request, not only for those the koans wrote: a repeat replays, a reuse with another delta conflicts, whatever generation is installed by then.",
            hints = {
                "Nothing new to write: the message names the step your store answered differently, and the steps "
                        + "before it on the same resource. Work them out by hand with the lesson's rules.",
                "Was the failing step's request id used before on that resource, and under which generation? The record answers first. Graded runs draw a new sequence each time."})
    default void duplicatesAreAnsweredFromTheRecordOnRequestsNoKoanWrote() {
        UnseenRequests.assertTheStoreFollowsTheContract(course(), UnseenRequests.Scope.DUPLICATES);
    }
}

/**
 * Lesson 4 on the SQLite file. The koans of {@link Lesson4OnEveryDestination}, at the start of this file, hold on
 * every destination, and lesson 6 runs them again on PostgreSQL. The koans here use SQLite's seams, so they run on
 * SQLite only; lesson 6 has its own koans for a duplicate in flight and for the order of lock and lookup.
 */
@Lesson(value = 4, title = "Authority does not remove duplicates", page = "docs/lessons/4-duplicates.md")
class Lesson4DuplicateKoans extends CourseKoans implements Lesson4OnEveryDestination {

    @Interleaving
    @Koan(edit = "FencedStore.apply",
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

    @Koan(edit = "FencedStore.apply",
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

    @Interleaving
    @Koan(edit = "FencedStore.apply",
            teaches = "The record is looked up under the lock: a duplicate arriving right after the lookup waits its turn.",
            hints = {
                "Lesson 1's stale read, again: 'there is no record for r1' is a fact about the moment of the lookup. "
                        + "What can happen between that moment and your storeRecord, if no lock is held yet?",
                "Call ledger.findRecord inside the ImmediateTransaction.run of apply, as the first step of the work, "
                        + "not before BEGIN IMMEDIATE: then the duplicate meets the lock, and its retry finds the record."})
    void theRecordIsLookedUpUnderTheLock() {
        FencedStore original = course.store();
        FencedStore duplicate = course.store();
        AtomicReference<ApplyResult> duplicateAfterLookup = new AtomicReference<>();
        AtomicReference<ApplyResult> originalResult = new AtomicReference<>();
        original.checkpoints().once(Checkpoint.AFTER_RECORD_LOOKUP,
                () -> duplicateAfterLookup.set(duplicate.apply(R1)));

        Throwable originalFailure = catchThrowable(() -> originalResult.set(original.apply(R1)));
        ApplyResult duplicateRetry = duplicate.apply(R1);

        assertThat(duplicateAfterLookup.get()).as("the duplicate of r1, sent just after the original looked for r1's "
                + "record and found none: if the original holds no lock yet, the duplicate applies, and the "
                + "original's 'no record' is stale before it writes%s", because(duplicateAfterLookup.get(),
                        "apply never called ledger.findRecord, where this moment is scripted"))
                .isEqualTo(new Contended(FUND_A));
        assertThat(originalFailure).as("what the original apply of r1 threw: a duplicate that committed after its "
                + "lookup ends in a broken unique key instead of an answer").isNull();
        assertThat(originalResult.get()).as("the original r1").isEqualTo(new Applied(7));
        assertThat(duplicateRetry).as("the duplicate's retry after the original committed").isEqualTo(new Replayed(7));
        assertThat(course.value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }
}
