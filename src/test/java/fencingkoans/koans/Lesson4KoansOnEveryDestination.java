package fencingkoans.koans;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.harness.AlsoOnPostgres;
import fencingkoans.harness.Koan;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.koans.support.KoansOnEveryDestination;

/**
 * Lesson 4's koans that hold on every destination: {@link Lesson4DuplicateKoans} runs them on SQLite, and lesson 6
 * runs them again on PostgreSQL under their {@code @AlsoOnPostgres} numbers.
 */
interface Lesson4KoansOnEveryDestination extends KoansOnEveryDestination {

    ApplyRequest R1 = new ApplyRequest(FUND_A, 1, "r1", 7);
    ApplyRequest R2 = new ApplyRequest(FUND_A, 1, "r2", 5);

    @Koan(value = "4.1", edit = "FencedStore.apply",
            teaches = "The same request sent twice under a valid generation is applied once; the repeat is replayed.",
            hints = {
                "Both sends carry the installed generation, so the generation check cannot tell them apart. "
                        + "What can?",
                "Inside the transaction, first ledger.findRecord(resource, requestId); when there is none, apply "
                        + "and then ledger.storeRecord(request, newValue).",
                "When a record exists with the same delta: return new ApplyResult.Replayed(record.resultValue())."})
    @AlsoOnPostgres(value = "6.13", hints = {
        "Both sends carry the installed generation, so the generation check cannot tell them apart. Which table "
                + "remembers a request?",
        "SELECT the record FROM fencing.request_records for (p_resource, p_request_id); when found with the "
                + "same delta: outcome := 'replayed'; answer := its result_value. When applying, INSERT INTO "
                + "fencing.request_records (resource, request_id, delta, generation, result_value) in the same call."})
    default void theSameRequestSentTwiceIsAppliedOnce() {
        Worker worker = course().worker();

        ApplyResult first = worker.apply(R1);
        ApplyResult second = worker.apply(R1);

        assertThat(first).as("the first send of r1 (delta 7)").isEqualTo(new Applied(7));
        assertThat(second).as("the second send of the very same r1").isEqualTo(new Replayed(7));
        assertThat(course().value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }

    @Koan(value = "4.2", edit = "FencedStore.apply",
            teaches = "The same request id with another delta is a conflict, not a replay.",
            hints = {
                "The record remembers the delta. Does your replay compare it with the one presented?",
                "When record.delta() differs: return ApplyResult.Rejected.conflicting(request, record.delta())."})
    @AlsoOnPostgres(value = "6.14", hints = {
        "Your record lookup found r1. Does it compare the stored delta with p_delta?",
        "When they differ: outcome := 'conflicting'; stored_delta := the record's delta; RETURN;"})
    default void theSameIdWithAnotherDeltaIsRejectedAsConflicting() {
        Worker worker = course().worker();
        worker.apply(R1);

        ApplyResult reused = worker.apply(new ApplyRequest(FUND_A, 1, "r1", 9));

        assertThat(reused).as("r1 presented again with delta 9 instead of 7").isEqualTo(Rejected.conflicting(
                new ApplyRequest(FUND_A, 1, "r1", 9), 7));
        assertThat(course().value(FUND_A)).as("fund-A's value after the conflict").isEqualTo(7);
    }

    @Koan(value = "4.3", edit = "FencedStore.apply",
            teaches = "A replay answers with the original result, not the present value: a replay is never a read.",
            hints = {
                "Where does your Replayed value come from: the record, or the resource's value now?",
                "The record's resultValue is what r1 was answered with when it was applied."})
    @AlsoOnPostgres(value = "6.15", hints = {
        "Where does your answer for a replay come from: the record, or the row's value now?",
        "answer := the record's result_value, the value r1 was answered with when it was applied."})
    default void aReplayAnswersWithTheOriginalResult() {
        Worker worker = course().worker();
        worker.apply(R1);
        worker.apply(R2);

        ApplyResult replay = worker.apply(R1);

        assertThat(replay).as("r1 returned 7 and r2 then took the value to 12; replaying r1").isEqualTo(new Replayed(7));
        assertThat(course().value(FUND_A)).as("fund-A's value after the replay: still 12, nothing reduced; to learn "
                + "the present value, a worker reads it").isEqualTo(12);
    }

    @Koan(value = "4.4", edit = "FencedStore.apply",
            teaches = "Request ids are per resource: r1 on fund-A and r1 on fund-B are two requests.",
            hints = {
                "Which key do you look the record up by?",
                "ledger.findRecord(request.resource(), request.requestId()): both parts of the key."})
    @AlsoOnPostgres(value = "6.16", hints = {
        "Which columns does your record lookup compare?",
        "WHERE resource = p_resource AND request_id = p_request_id: both parts of the key."})
    default void requestIdsArePerResource() {
        Worker worker = course().worker();

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
    @AlsoOnPostgres(value = "6.17", hints = {
        "A worker keeps its generation for many requests. What would 'one apply per generation' break?",
        "Decide duplicates by the record for (p_resource, p_request_id) only, never by the generation."})
    default void aGenerationIsNotADuplicateCheck() {
        Worker worker = course().worker();

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
    @AlsoOnPostgres(value = "6.18", hints = {
        "r1 was applied, its answer was lost, and then generation 2 was installed. Does your function look at "
                + "the record before or after the generation check?",
        "Look the record up right after locking the row, before comparing generations."})
    default void aLostResponseIsRecoveredByReplayEvenAfterANewGeneration() {
        Worker worker = course().worker();
        worker.apply(R1);
        course().install(FUND_A, 2);

        ApplyResult retry = worker.apply(R1);

        assertThat(retry).as("the worker retries r1 with generation 1 after its first answer was lost and "
                + "generation 2 was installed: r1 did happen, and the answer must say so").isEqualTo(new Replayed(7));
    }

    @Koan(value = "4.7", edit = "FencedStore.apply",
            teaches = "A conflicting reuse of an id is reported as a conflict even after a new generation.",
            hints = {
                "Same order as 4.6: what does the record say, before any generation check?",
                "Record found with another delta: Rejected.conflicting, whatever generation is installed."})
    @AlsoOnPostgres(value = "6.19", hints = {
        "Same order as 6.18: what does the record say, before any generation check?",
        "Record found with another delta: outcome := 'conflicting', whatever generation is installed."})
    default void aConflictIsReportedAsConflictEvenAfterANewGeneration() {
        Worker worker = course().worker();
        worker.apply(R1);
        course().install(FUND_A, 2);
        ApplyRequest reused = new ApplyRequest(FUND_A, 1, "r1", 9);

        ApplyResult result = worker.apply(reused);

        assertThat(result).as("r1 reused with delta 9 after generation 2 was installed")
                .isEqualTo(Rejected.conflicting(reused, 7));
    }

    @Koan(value = "4.10", edit = "FencedStore.apply",
            teaches = "A retry sent under a newer generation is still answered from the record: the generation is not part of a request's identity.",
            hints = {
                "r1 was applied under generation 1, its answer was lost, and the worker sends r1 again after it got "
                        + "generation 2. Which request is that: a new one, or r1?",
                "A request is (resource, requestId). When a record exists, answer from it whatever generation the "
                        + "retry presents: compare the deltas only, never the generations."})
    @AlsoOnPostgres(value = "6.28", hints = {
        "r1 was applied under generation 1, and the worker sends r1 again under generation 2. Does your record "
                + "lookup, or the test after it, look at the generation?",
        "IF FOUND: compare earlier.delta with p_delta alone; the stored generation plays no part in the answer."})
    default void aRetryUnderANewerGenerationIsAnsweredFromTheRecord() {
        Worker worker = course().worker();
        worker.apply(R1);
        course().install(FUND_A, 2);

        ApplyResult retry = worker.apply(new ApplyRequest(FUND_A, 2, "r1", 7));

        assertThat(retry).as("r1 was applied under generation 1 and its answer lost; the worker, now holding "
                + "generation 2, sends r1 again: it is the same request, and it did happen").isEqualTo(new Replayed(7));
        assertThat(course().value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }

    @Koan(value = "4.12", edit = "FencedStore.apply",
            teaches = "A rejected request leaves no record: sent again with the installed generation, it applies.",
            hints = {
                "r1 came with a stale generation and was rejected: nothing happened. What may the worker do once it "
                        + "holds the installed generation, and what must your store have kept of the rejection?",
                "Store a record only together with an applied delta (ledger.storeRecord after ledger.addToValue): "
                        + "a record says 'this happened', and a rejection did not happen."})
    @AlsoOnPostgres(value = "6.29", hints = {
        "r1 came with a stale generation and was rejected. Does your function write anything before it returns "
                + "'stale'?",
        "INSERT INTO fencing.request_records only next to the UPDATE that applies the delta, never on a rejection."})
    default void aRejectedRequestLeavesNoRecord() {
        Worker worker = course().worker();
        course().install(FUND_A, 2);
        ApplyResult stale = worker.apply(R1);

        ApplyResult resent = worker.apply(new ApplyRequest(FUND_A, 2, "r1", 7));

        assertThat(stale).as("r1 under generation 1 once generation 2 is installed").isEqualTo(Rejected.stale(1, 2));
        assertThat(resent).as("the same r1 sent again by a worker that now holds generation 2: the rejection "
                + "changed nothing, so r1 is new and applies").isEqualTo(new Applied(7));
    }
}
