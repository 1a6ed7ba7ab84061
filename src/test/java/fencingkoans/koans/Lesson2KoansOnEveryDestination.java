package fencingkoans.koans;

import static fencingkoans.koans.support.Refusals.assertRefusedBeforeAnyEffect;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.RejectionReason;
import fencingkoans.harness.AlsoOnPostgres;
import fencingkoans.harness.Koan;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.koans.support.KoansOnEveryDestination;
import java.util.List;

/**
 * Lesson 2's koans that hold on every destination: {@link Lesson2ContractPerResourceKoans} runs them on SQLite,
 * and lesson 6 runs them again on PostgreSQL under their {@code @AlsoOnPostgres} numbers.
 */
interface Lesson2KoansOnEveryDestination extends KoansOnEveryDestination {

    /** How the admitting function refuses a malformed request; the Java side turns it into IllegalArgumentException. */
    String SQL_REFUSAL = "RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = ";

    @Koan(value = "2.4", edit = "FencedStore.apply",
            teaches = "The destination requires equality: a larger generation invented by a worker is rejected.",
            hints = {
                "Which reason does your apply give a generation above the installed one? Stale means it was "
                        + "installed once and replaced since; a number above the installed one was never installed.",
                "Only the authority issues generations. A higher number than the installed one was never issued: "
                        + "return ApplyResult.Rejected.unissued(presented, installed)."})
    @AlsoOnPostgres(value = "6.5", hints = {
        "Which outcome does your function give a generation above the row's? 'stale' means installed once and "
                + "replaced since, and the check must be 'exactly', not 'at least'.",
        "A generation above the row's was never issued: outcome := 'unissued'; installed := the row's generation; "
                + "RETURN;"})
    default void aLargerGenerationInventedByTheWorkerIsRejected() {
        Worker worker = course().worker();

        ApplyResult result = worker.apply(new ApplyRequest(FUND_A, 99, "bold-1", 5));

        assertThat(result).as("generation 1 is installed and a worker presents generation 99, which no authority "
                + "issued: a bigger number is not more authority")
                .isEqualTo(Rejected.unissued(99, 1));
        assertThat(course().value(FUND_A)).as("fund-A's value after the rejection").isZero();
    }

    @Koan(value = "2.5", edit = "FencedStore.apply",
            teaches = "Generations are per resource: generation 3 on fund-A gives no authority over fund-B.",
            hints = {
                "Is generation 3 admitted on fund-B, where generation 1 is installed? Koan 2.4 has the same "
                        + "cause, seen from another side.",
                "Read ledger.installedGeneration(request.resource()) and admit only that exact number."})
    @AlsoOnPostgres(value = "6.6", hints = {
        "Generation 3 is installed on fund-A only. Which row does your function compare p_generation with?",
        "Select the row WHERE name = p_resource, and compare with that row's generation alone."})
    default void aGenerationCountsOnlyOnItsOwnResource() {
        course().install(FUND_A, 3);
        Worker worker = course().worker();

        ApplyResult onB = worker.apply(new ApplyRequest(FUND_B, 3, "b-1", 5));

        assertThat(onB).as("generation 3 is installed on fund-A only; fund-B still holds generation 1")
                .isEqualTo(Rejected.unissued(3, 1));
        assertThat(worker.apply(new ApplyRequest(FUND_B, 1, "b-2", 5)))
                .as("fund-B's own generation 1 is still the one to present").isEqualTo(new Applied(FUND_B_START_VALUE + 5));
    }

    @Koan(value = "2.6", edit = "FencedStore.apply and Authority.install",
            teaches = "A resource the destination does not hold is rejected, and nothing is created for it.",
            hints = {
                "What does ledger.installedGeneration return for a resource that does not exist?",
                "An empty OptionalLong: answer Rejected.unknownResource(request) in apply, and "
                        + "new InstallResult.UnknownResource(resource) in install, before anything is written."})
    @AlsoOnPostgres(value = "6.7", hints = {
        "What does SELECT ... INTO leave in FOUND when no row matches? (The install on fund-C is given code here.)",
        "IF NOT FOUND THEN outcome := 'unknown-resource'; RETURN; END IF; before any INSERT or UPDATE."})
    default void anUnknownResourceIsRejectedAndNothingIsCreated() {
        Worker worker = course().worker();
        List<String> before = course().contents();

        ApplyResult applied = worker.apply(new ApplyRequest("fund-C", 1, "c-1", 5));
        InstallResult installed = course().install("fund-C", 2);

        assertThat(applied).as("an apply on fund-C, which does not exist").isInstanceOf(Rejected.class)
                .extracting(result -> ((Rejected) result).reason()).isEqualTo(RejectionReason.UNKNOWN_RESOURCE);
        assertThat(installed).as("an install on fund-C, which does not exist")
                .isEqualTo(new InstallResult.UnknownResource("fund-C"));
        assertThat(course().contents()).as("every row of the database: nothing may be created or changed")
                .isEqualTo(before);
    }

    @Koan(value = "2.7", edit = "FencedStore.apply",
            teaches = "A request without a request id is refused with an error naming the field, before any effect.",
            hints = {
                "The destination trusts nothing it is sent. What should happen before any SQL runs?",
                "At the top of apply: if requestId is null or blank, throw new IllegalArgumentException(\"requestId "
                        + "must not be null or blank\")."})
    @AlsoOnPostgres(value = "6.8", hints = {
        "The function trusts nothing it is sent. What should happen, before any row is touched, when p_request_id "
                + "is NULL or blank?",
        "IF p_request_id IS NULL OR btrim(p_request_id) = '' THEN " + SQL_REFUSAL + "'requestId must not be null "
                + "or blank'; END IF; the Java side turns SQLSTATE 22023 into an IllegalArgumentException."})
    default void aRequestWithoutARequestIdIsRefusedBeforeAnyEffect() {
        assertRefusedBeforeAnyEffect(course(), "requestId",
                new ApplyRequest(FUND_A, 1, null, 5), new ApplyRequest(FUND_A, 1, "  ", 5));
    }

    @Koan(value = "2.8", edit = "FencedStore.apply",
            teaches = "A request without a resource is refused with an error naming the field, before any effect.",
            hints = {
                "The same check as 2.7, for another field.",
                "If resource is null or blank, throw new IllegalArgumentException(\"resource must not be null or "
                        + "blank\")."})
    @AlsoOnPostgres(value = "6.9", hints = {
        "The same check as 6.8, for p_resource. Without it, a NULL resource is simply not found.",
        "IF p_resource IS NULL OR btrim(p_resource) = '' THEN " + SQL_REFUSAL + "'resource must not be null or "
                + "blank'; END IF;"})
    default void aRequestWithoutAResourceIsRefusedBeforeAnyEffect() {
        assertRefusedBeforeAnyEffect(course(), "resource",
                new ApplyRequest(null, 1, "r1", 5), new ApplyRequest("", 1, "r1", 5));
    }

    @Koan(value = "2.9", edit = "FencedStore.apply",
            teaches = "An oversized request id is refused: the destination bounds what it is asked to remember.",
            hints = {
                "ApplyRequest declares a limit for request ids. Do you enforce it?",
                "The limit itself is allowed: only an id longer than the limit is refused.",
                "If requestId.length() > ApplyRequest.MAX_REQUEST_ID_LENGTH, throw an IllegalArgumentException "
                        + "whose message starts with \"requestId\"."})
    @AlsoOnPostgres(value = "6.10", hints = {
        "ApplyRequest.MAX_REQUEST_ID_LENGTH is 128. The function is the destination now: does it enforce the limit?",
        "IF length(p_request_id) > 128 THEN " + SQL_REFUSAL + "'requestId is longer than 128 characters'; "
                + "END IF; an id of exactly 128 characters is allowed."})
    default void anOversizedRequestIdIsRefused() {
        assertRefusedBeforeAnyEffect(course(), "requestId",
                new ApplyRequest(FUND_A, 1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH + 1), 5));

        assertThat(course().worker().apply(
                        new ApplyRequest(FUND_A, 1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH), 5)))
                .as("a request id of exactly %d characters: the limit itself is allowed",
                        ApplyRequest.MAX_REQUEST_ID_LENGTH)
                .isEqualTo(new Applied(5));
    }

    @Koan(value = "2.10", edit = "FencedStore.apply",
            teaches = "A generation below 1 is malformed: generations start at 1 and only grow.",
            hints = {
                "Is 0 stale, unissued, or simply not a generation at all?",
                "If generation <= 0, throw an IllegalArgumentException whose message starts with \"generation\"."})
    @AlsoOnPostgres(value = "6.11", hints = {
        "Is 0 stale, unissued, or simply not a generation at all?",
        "IF p_generation < 1 THEN " + SQL_REFUSAL + "'generation must be at least 1'; END IF;"})
    default void aGenerationBelowOneIsRefused() {
        assertRefusedBeforeAnyEffect(course(), "generation",
                new ApplyRequest(FUND_A, 0, "r1", 5), new ApplyRequest(FUND_A, -1, "r1", 5));
    }

    @Koan(value = "2.11", edit = "FencedStore.apply",
            teaches = "A delta that would overflow the value is refused, and the value stays as it was.",
            hints = {
                "ledger.addToValue already refuses an overflow. Does anything in your apply swallow that error, "
                        + "or write something before it?",
                "Let the IllegalArgumentException from addToValue reach the caller, and write nothing before it."})
    @AlsoOnPostgres(value = "6.12", hints = {
        "An overflowing bigint sum raises numeric_value_out_of_range (22003), which the Java side reports as a "
                + "refused delta. Does your function catch that error, or keep anything it wrote before it?",
        "Let the error leave the function (no EXCEPTION block that swallows it): the failed call then undoes "
                + "everything it did."})
    default void aDeltaThatWouldOverflowTheValueIsRefusedAndChangesNothing() {
        course().worker().apply(new ApplyRequest(FUND_A, 1, "big", Long.MAX_VALUE));

        assertRefusedBeforeAnyEffect(course(), "delta", new ApplyRequest(FUND_A, 1, "one-more", 1));
    }

    @Koan(value = "2.15", edit = "FencedStore.apply",
            teaches = "A negative delta is an ordinary request: a withdrawal is admitted like a deposit.",
            hints = {
                "The contract bounds the generation, the request id and the resource, and refuses only a sum that "
                        + "overflows. Does your apply refuse anything else?",
                "A delta below zero is a withdrawal, not a malformed request: check it no differently from a deposit, "
                        + "and let ledger.addToValue refuse only an overflow."})
    @AlsoOnPostgres(value = "6.27", hints = {
        "The function refuses a malformed request id, resource or generation, and a sum beyond bigint. Does it "
                + "refuse anything else?",
        "A delta below zero is a withdrawal: no IF on p_delta at all; value + p_delta raises 22003 only when the sum "
                + "leaves bigint."})
    default void aWithdrawalIsAnOrdinaryRequest() {
        Worker worker = course().worker();

        ApplyResult withdrawal = worker.apply(new ApplyRequest(FUND_B, 1, "w-1", -30));

        assertThat(withdrawal).as("a withdrawal of 30 from fund-B, which holds %d: a delta below zero is as ordinary "
                + "as one above", FUND_B_START_VALUE).isEqualTo(new Applied(FUND_B_START_VALUE - 30));
        assertThat(course().value(FUND_B)).as("fund-B's value after the withdrawal").isEqualTo(FUND_B_START_VALUE - 30);
    }
}
