package fencingkoans.koans;

import static fencingkoans.koans.Lesson4OnEveryDestination.R1;
import static fencingkoans.pg.PgRole.BYSTANDER;
import static fencingkoans.koans.support.Thrown.answerOrFailure;
import static fencingkoans.pg.PgRole.OWNER;
import static fencingkoans.pg.PgRole.WORKER;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.Destination;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.harness.AgainOnPostgres;
import fencingkoans.harness.Koan;
import fencingkoans.harness.KoanGroup;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.KoansOnEveryDestination;
import fencingkoans.koans.support.PgCourseKoans;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgFencedStore;
import fencingkoans.pg.SqlState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestClassOrder;

/**
 * Lesson 6 (extension): the destination is a PostgreSQL database. The koans of lessons 1, 2 and 4 that hold on every
 * destination run here again, unchanged, under their lesson 6 numbers; then contention the PostgreSQL way, and the
 * direct-write path closed by roles and privileges.
 */
@Lesson(value = 6, title = "Closing the paths on PostgreSQL (extension)", page = "docs/lessons/6-postgresql.md")
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class Lesson6PostgresKoans extends PgCourseKoans {

    /**
     * The koans with this tag hold several sessions at once. They are not {@code @Interleaving}: each repeat
     * round here creates a whole database, so the course check repeats them only when asked, with
     * {@code -Dtest=RepeatRunCheck -Dcourse-check.repeat-tag=postgresql-contention}.
     */
    static final String CONTENTION_TAG = "postgresql-contention";

    /** How long a koan waits for the worker's call, as lesson 3's koans do. */
    private static final long PATIENCE_SECONDS = 30;
    private static final long LOCK_POLL_MILLIS = 5;
    /** Type names a function body may write that are no keywords, so that the search_path decides what they mean. */
    private static final List<String> CALLERS_TYPES = List.of("text", "int8", "int4", "bool", "name", "timestamptz");
    /** Who ran a caller's code that noted it (in the setting callers.ran_as), or nobody. */
    private static final String RAN_AS = "SELECT coalesce(nullif(pg_catalog.current_setting('callers.ran_as', true), "
            + "''), 'nobody')";
    /** Without a WHERE clause it needs the UPDATE privilege alone: a WHERE on a column would need SELECT too. */
    private static final String DIRECT_UPDATE = "UPDATE fencing.resources SET value = 1000";

    /** How the admitting function refuses a malformed request; the Java side turns it into IllegalArgumentException. */
    private static final String SQL_REFUSAL = "RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = ";

    /**
     * The koans of an earlier lesson, run on this lesson's database: each class below overrides every one of them
     * with {@code @AgainOnPostgres}, which gives its hints in SQL, and calls the body written in that lesson.
     */
    abstract class OnThisDatabase implements KoansOnEveryDestination {

        @Override
        public Destination course() {
            return Lesson6PostgresKoans.this.course;
        }
    }

    @Nested
    @Order(1)
    @KoanGroup("lesson 1 again, on PostgreSQL")
    class StaleAuthority extends OnThisDatabase implements Lesson1OnEveryDestination {

        @Override
        @AgainOnPostgres(hints = {
            "The worker now calls fencing.apply_request, and all the checking happens inside the server. The comment "
                    + "at the top of apply_request.sql lists the answers the Java side understands.",
            "SELECT * INTO a variable FROM fencing.resources WHERE name = p_resource; if p_generation equals its "
                    + "generation: UPDATE fencing.resources SET value = value + p_delta WHERE name = p_resource "
                    + "RETURNING value INTO answer; outcome := 'applied'."})
        public void aWorkerHoldingTheInstalledGenerationApplies() {
            Lesson1OnEveryDestination.super.aWorkerHoldingTheInstalledGenerationApplies();
        }

        @Override
        @AgainOnPostgres(hints = {
            "The authority's install is given code here. Which outcome does your function give when p_generation is "
                    + "below the generation in the row?",
            "IF p_generation < the row's generation THEN outcome := 'stale'; installed := the row's generation; RETURN; "
                    + "END IF; and no UPDATE before it."})
        public void aWorkerWhoseGenerationWasReplacedIsRejected() {
            Lesson1OnEveryDestination.super.aWorkerWhoseGenerationWasReplacedIsRejected();
        }

        @Override
        @AgainOnPostgres(hints = {
            "The Java side builds the rejection from your OUT parameters. Which one carries the installed generation?",
            "Set installed := the row's generation before you RETURN with outcome 'stale'."})
        public void theRejectionNamesThePresentedAndTheInstalledGeneration() {
            Lesson1OnEveryDestination.super.theRejectionNamesThePresentedAndTheInstalledGeneration();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Generation 2 is now in fund-A's row. Does your function compare with that row, or with a fixed number?",
            "Compare p_generation with the generation you selected from resources for p_resource, and nothing else."})
        public void theWorkerHoldingTheNewGenerationIsAdmitted() {
            Lesson1OnEveryDestination.super.theWorkerHoldingTheNewGenerationIsAdmitted();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Lesson 1's sequence of requests no koan wrote, now through fencing.apply_request: the message names the "
                    + "step your function answered differently and the steps before it on fund-A.",
            "Does your function compare p_generation with the generation it selected from the row, for any numbers? "
                    + "Graded runs draw a new sequence each time."})
        public void staleAuthorityIsRejectedOnRequestsNoKoanWrote() {
            Lesson1OnEveryDestination.super.staleAuthorityIsRejectedOnRequestsNoKoanWrote();
        }
    }

    @Nested
    @Order(2)
    @KoanGroup("lesson 2 again, on PostgreSQL")
    class ContractPerResource extends OnThisDatabase implements Lesson2OnEveryDestination {

        @Override
        @AgainOnPostgres(hints = {
            "Which outcome does your function give a generation above the row's? 'stale' means installed once and "
                    + "replaced since, and the check must be 'exactly', not 'at least'.",
            "A generation above the row's was never issued: outcome := 'unissued'; installed := the row's generation; "
                    + "RETURN;"})
        public void aLargerGenerationInventedByTheWorkerIsRejected() {
            Lesson2OnEveryDestination.super.aLargerGenerationInventedByTheWorkerIsRejected();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Generation 3 is installed on fund-A only. Which row does your function compare p_generation with?",
            "Select the row WHERE name = p_resource, and compare with that row's generation alone."})
        public void aGenerationCountsOnlyOnItsOwnResource() {
            Lesson2OnEveryDestination.super.aGenerationCountsOnlyOnItsOwnResource();
        }

        @Override
        @AgainOnPostgres(hints = {
            "What does SELECT ... INTO leave in FOUND when no row matches? (The koan also installs generation 2 on fund-C, through given code.)",
            "IF NOT FOUND THEN outcome := 'unknown-resource'; RETURN; END IF; before any INSERT or UPDATE."})
        public void anUnknownResourceIsRejectedAndNothingIsCreated() {
            Lesson2OnEveryDestination.super.anUnknownResourceIsRejectedAndNothingIsCreated();
        }

        @Override
        @AgainOnPostgres(hints = {
            "The function trusts nothing it is sent. What should happen, before any row is touched, when p_request_id "
                    + "is NULL or blank?",
            "IF p_request_id IS NULL OR btrim(p_request_id) = '' THEN " + SQL_REFUSAL + "'requestId must not be null "
                    + "or blank'; END IF; the Java side turns SQLSTATE 22023 into an IllegalArgumentException."})
        public void aRequestWithoutARequestIdIsRefusedBeforeAnyEffect() {
            Lesson2OnEveryDestination.super.aRequestWithoutARequestIdIsRefusedBeforeAnyEffect();
        }

        @Override
        @AgainOnPostgres(hints = {
            "The same check as the koan before, for p_resource. Without it, a NULL resource is simply not found.",
            "IF p_resource IS NULL OR btrim(p_resource) = '' THEN " + SQL_REFUSAL + "'resource must not be null or "
                    + "blank'; END IF;"})
        public void aRequestWithoutAResourceIsRefusedBeforeAnyEffect() {
            Lesson2OnEveryDestination.super.aRequestWithoutAResourceIsRefusedBeforeAnyEffect();
        }

        @Override
        @AgainOnPostgres(hints = {
            "ApplyRequest.MAX_REQUEST_ID_LENGTH is 128. The function is the destination now: does it enforce the limit?",
            "IF length(p_request_id) > 128 THEN " + SQL_REFUSAL + "'requestId is longer than 128 characters'; "
                    + "END IF; an id of exactly 128 characters is allowed."})
        public void anOversizedRequestIdIsRefused() {
            Lesson2OnEveryDestination.super.anOversizedRequestIdIsRefused();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Is 0 stale, unissued, or simply not a generation at all? And NULL, which a caller from SQL can send: "
                    + "what does p_generation < 1 make of it?",
            "IF p_generation IS NULL OR p_generation < 1 THEN " + SQL_REFUSAL + "'generation must be at least 1'; "
                    + "END IF; (NULL < 1 is not true but NULL: a worker calling the function from SQL can send it.)"})
        public void aGenerationBelowOneIsRefused() {
            Lesson2OnEveryDestination.super.aGenerationBelowOneIsRefused();
            // r1 is applied now; from SQL, unlike from Java, a generation can be NULL.
            String withoutAGeneration = refusalOf(course.session(WORKER),
                    "SELECT * FROM fencing.apply_request('fund-A', NULL, 'r1', 5)");
            assertThat(withoutAGeneration).as("the SQLSTATE and message of a call with a NULL generation, under r1's "
                    + "id (\"ok\" when it answered): it is malformed, refused with %s like generation 0, with a "
                    + "message that names the generation, not answered from r1's record",
                    SqlState.INVALID_PARAMETER_VALUE)
                    .startsWith(SqlState.INVALID_PARAMETER_VALUE).contains("generation");
        }

        @Override
        @AgainOnPostgres(hints = {
            "An overflowing bigint sum raises numeric_value_out_of_range (22003), which the Java side reports as a "
                    + "refused delta. Does your function catch that error, or keep anything it wrote before it?",
            "Let the error leave the function (no EXCEPTION block that swallows it): the failed call then undoes "
                    + "everything it did."})
        public void aDeltaThatWouldOverflowTheValueIsRefusedAndChangesNothing() {
            Lesson2OnEveryDestination.super.aDeltaThatWouldOverflowTheValueIsRefusedAndChangesNothing();
            // Fund-A holds Long.MAX_VALUE - 1 under generation 2 now. From SQL the error itself shows.
            List<String> before = course.contents();
            String overflow = sqlStateOf(course.session(WORKER),
                    "SELECT * FROM fencing.apply_request('fund-A', 2, 'two-more-from-sql', 2)");
            assertThat(overflow).as("the SQLSTATE of a call from SQL adding 2 to fund-A's Long.MAX_VALUE - 1 (\"ok\" "
                    + "when it answered): a sum beyond bigint is %s (numeric_value_out_of_range), not %s: the request "
                    + "is well formed, and the same one may fit after a withdrawal",
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE, SqlState.INVALID_PARAMETER_VALUE).isEqualTo(SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
            assertThat(course.contents()).as("every row of both tables after that call").isEqualTo(before);
        }

        @Override
        @AgainOnPostgres(hints = {
            "The function refuses a malformed request id, resource or generation, and a sum beyond bigint. Does it "
                    + "refuse anything else?",
            "A delta below zero is a withdrawal: the one IF on p_delta refuses NULL (IF p_delta IS NULL THEN "
                    + SQL_REFUSAL + "'delta must not be null'; END IF;), and value + p_delta raises 22003 only when "
                    + "the sum leaves bigint."})
        public void aWithdrawalIsAnOrdinaryRequest() {
            Lesson2OnEveryDestination.super.aWithdrawalIsAnOrdinaryRequest();
            // From SQL, unlike from Java, a delta can be NULL: no deposit, no withdrawal, and no record to store.
            List<String> before = course.contents();
            String withoutADelta = refusalOf(course.session(WORKER),
                    "SELECT * FROM fencing.apply_request('fund-A', 1, 'no-delta', NULL)");
            String reachedAWrite = withoutADelta.startsWith("23502") ? " (23502 is not_null_violation: the NULL got "
                    + "as far as the UPDATE or the record's INSERT; refuse it with the other checks, before the lock)"
                    : "";
            assertThat(withoutADelta).as("the SQLSTATE and message of a call with a NULL delta under a new id (\"ok\" "
                    + "when it answered): it is malformed, refused with %s like a NULL generation, with a message that "
                    + "names the delta, before anything is touched (hint 2)%s", SqlState.INVALID_PARAMETER_VALUE,
                    reachedAWrite).startsWith(SqlState.INVALID_PARAMETER_VALUE).contains("delta");
            assertThat(course.contents()).as("every row of both tables after the call with a NULL delta")
                    .isEqualTo(before);
            // The same under w-1's id, which has a record: the request is malformed whatever the record says.
            String withoutADeltaUnderW1 = sqlStateOf(course.session(WORKER),
                    "SELECT * FROM fencing.apply_request('fund-B', 1, 'w-1', NULL)");
            assertThat(withoutADeltaUnderW1).as("the SQLSTATE of a call with a NULL delta under w-1's id, which was "
                    + "applied (\"ok\" when it answered, conflicting say): a NULL delta is refused before the record is "
                    + "looked up, as every check of the request comes before the lock").isEqualTo(
                    SqlState.INVALID_PARAMETER_VALUE);
        }

        @Override
        @AgainOnPostgres(hints = {
            "Lesson 2's sequence of requests no koan wrote, now through fencing.apply_request: the message names the "
                    + "step your function answered differently and the steps before it on the same resource.",
            "Does your function select the row WHERE name = p_resource and judge the request by that row alone, "
                    + "unknown, stale and unissued each answered? Graded runs draw a new sequence each time."})
        public void eachResourceKeepsItsContractOnRequestsNoKoanWrote() {
            Lesson2OnEveryDestination.super.eachResourceKeepsItsContractOnRequestsNoKoanWrote();
        }
    }

    @Nested
    @Order(3)
    @KoanGroup("lesson 4 again, on PostgreSQL")
    class Duplicates extends OnThisDatabase implements Lesson4OnEveryDestination {

        @Override
        @AgainOnPostgres(hints = {
            "Both sends carry the installed generation, so the generation check cannot tell them apart. Which table "
                    + "remembers a request?",
            "SELECT the record FROM fencing.request_records for (p_resource, p_request_id); when found with the "
                    + "same delta: outcome := 'replayed'; answer := its result_value. When applying, INSERT INTO "
                    + "fencing.request_records (resource, request_id, delta, generation, result_value) in the same call."})
        public void theSameRequestSentTwiceIsAppliedOnce() {
            Lesson4OnEveryDestination.super.theSameRequestSentTwiceIsAppliedOnce();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Your record lookup found the request. Does it compare the stored delta with p_delta, and which column "
                    + "goes into stored_delta?",
            "When they differ: outcome := 'conflicting'; stored_delta := the record's delta; RETURN;"})
        public void theSameIdWithAnotherDeltaIsRejectedAsConflicting() {
            Lesson4OnEveryDestination.super.theSameIdWithAnotherDeltaIsRejectedAsConflicting();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Where does your answer for a replay come from: the record, or the row's value now?",
            "answer := the record's result_value, the value r1 was answered with when it was applied."})
        public void aReplayAnswersWithTheOriginalResult() {
            Lesson4OnEveryDestination.super.aReplayAnswersWithTheOriginalResult();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Which columns does your record lookup compare, and with which operator?",
            "WHERE resource = p_resource AND request_id = p_request_id: both parts of the key, with =, as sent (LIKE "
                    + "would read _ and % in an id as wildcards)."})
        public void requestIdsArePerResource() {
            Lesson4OnEveryDestination.super.requestIdsArePerResource();
        }

        @Override
        @AgainOnPostgres(hints = {
            "A worker keeps its generation for many requests. What would 'one apply per generation' break?",
            "Decide duplicates by the record for (p_resource, p_request_id) only, never by the generation."})
        public void aGenerationIsNotADuplicateCheck() {
            Lesson4OnEveryDestination.super.aGenerationIsNotADuplicateCheck();
        }

        @Override
        @AgainOnPostgres(hints = {
            "r1 was applied, its answer was lost, and then generation 2 was installed. Does your function look at "
                    + "the record before or after the generation check?",
            "Look the record up right after locking the row, before comparing generations."})
        public void aLostResponseIsRecoveredByReplayEvenAfterANewGeneration() {
            Lesson4OnEveryDestination.super.aLostResponseIsRecoveredByReplayEvenAfterANewGeneration();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Same order as the koan before: what does the record say, before any generation check?",
            "Record found with another delta: outcome := 'conflicting', whatever generation is installed."})
        public void aConflictIsReportedAsConflictEvenAfterANewGeneration() {
            Lesson4OnEveryDestination.super.aConflictIsReportedAsConflictEvenAfterANewGeneration();
        }

        @Override
        @AgainOnPostgres(hints = {
            "r1 was applied under generation 1, and the worker sends r1 again under generation 2. Does your record "
                    + "lookup, or the test after it, look at the generation?",
            "IF FOUND: compare earlier.delta with p_delta alone; the stored generation plays no part in the answer."})
        public void aRetryUnderANewerGenerationIsAnsweredFromTheRecord() {
            Lesson4OnEveryDestination.super.aRetryUnderANewerGenerationIsAnsweredFromTheRecord();
        }

        @Override
        @AgainOnPostgres(hints = {
            "r1 came with a stale generation and was rejected. Does your function write anything before it returns "
                    + "'stale'?",
            "INSERT INTO fencing.request_records only next to the UPDATE that applies the delta, never on a rejection."})
        public void aRejectedRequestLeavesNoRecord() {
            Lesson4OnEveryDestination.super.aRejectedRequestLeavesNoRecord();
        }

        @Override
        @AgainOnPostgres(hints = {
            "Lesson 4's sequence of requests no koan wrote, now through fencing.apply_request: the message names the "
                    + "step your function answered differently and the steps before it on the same resource.",
            "Is the record looked up by resource and request id before the generation is compared, and its stored "
                    + "answer returned whatever generation is installed? Graded runs draw a new sequence each time."})
        public void duplicatesAreAnsweredFromTheRecordOnRequestsNoKoanWrote() {
            Lesson4OnEveryDestination.super.duplicatesAreAnsweredFromTheRecordOnRequestsNoKoanWrote();
        }
    }

    @Nested
    @Order(4)
    @Tag(CONTENTION_TAG)
    @KoanGroup("contention, the PostgreSQL way")
    class Contention {

        @Koan(edit = "apply_request.sql",
                teaches = "A row locked by another transaction answers lock-not-available (55P03) at once: Contended.",
                hints = {
                    "The authority's install holds fund-A's row until it commits. Which statement of your function "
                            + "waits for it: a SELECT ... FOR UPDATE without NOWAIT, or, with no lock of its own, "
                            + "the UPDATE? In PostgreSQL, lock_timeout 0 means wait for ever, not 'do not wait'.",
                    "SELECT ... FROM resources WHERE name = p_resource FOR UPDATE NOWAIT: a held row raises 55P03, "
                            + "which the Java side turns into Contended. After the commit, the same request is stale."})
        void aWorkerMeetingAHeldRowIsContendedAtOnceNotRejected() throws Exception {
            Worker workerA = course.worker();
            Connection authority = course.session(OWNER);
            authority.setAutoCommit(false);
            PgDatabase.execute(authority, "UPDATE fencing.resources SET generation = 2 WHERE name = 'fund-A'");

            CompletableFuture<ApplyResult> call = CompletableFuture.supplyAsync(() -> workerA.apply(R1));
            boolean waited = waitsBeforeItAnswersThenCommit(course.session(WORKER), call, authority);
            ApplyResult duringInstall = answerOf(call);
            ApplyResult afterInstall = workerA.apply(R1);

            assertThat(waited).as("whether worker A's call waited while the authority's uncommitted install held "
                    + "fund-A's row (PostgreSQL showed it waiting for a lock or in pg_sleep; the install then "
                    + "committed): contention is answered at once, and a wait of any length, a lock_timeout's or a "
                    + "pause before another try included, is no answer").isFalse();
            assertThat(duringInstall).as("worker A's apply while the authority's uncommitted install holds fund-A's "
                    + "row: nothing was decided, so it is neither applied nor rejected").isEqualTo(new Contended(FUND_A));
            assertThat(afterInstall).as("the same request once the install committed: contention is retried away, "
                    + "staleness is not").isEqualTo(Rejected.stale(1, 2));

            // While the row is held, nothing is decided, not even what the committed row seems to settle already:
            // r2's record answers before any generation, and generation 4 may be about to be installed.
            ApplyRequest r2 = new ApplyRequest(FUND_A, 2, "r2", 5);
            ApplyRequest underTheNext = new ApplyRequest(FUND_A, 4, "r4", 3);
            ApplyResult r2Applied = workerA.apply(r2);
            course.install(FUND_A, 3);
            Connection nextInstall = course.session(OWNER);
            nextInstall.setAutoCommit(false);
            PgDatabase.execute(nextInstall, "UPDATE fencing.resources SET generation = 4 WHERE name = 'fund-A'");
            Object r2WhileHeld = answerOrFailure(workerA, r2);
            Object nextWhileHeld = answerOrFailure(course.worker(), underTheNext);
            nextInstall.commit();
            nextInstall.setAutoCommit(true);

            assertThat(r2Applied).as("r2 under generation 2, once installed").isEqualTo(new Applied(5));
            String recordReadFirst = r2WhileHeld instanceof Replayed ? ". Here r2 was answered from its record while "
                    + "the row was held: the function read request_records before it locked fund-A's row. Lock the "
                    + "row first (FOR UPDATE NOWAIT), then look the record up" : "";
            assertThat(List.of(r2WhileHeld, nextWhileHeld)).as("r2 sent again with generation 2 after generation 3 "
                    + "was installed, and r4 with generation 4, both while an uncommitted install of 4 holds fund-A's "
                    + "row: a function that judges the committed row without its lock answers r2 stale (but r2 was "
                    + "applied: its record answers first) and r4 unissued (but 4 is being installed). Whatever the "
                    + "row seems to say, a held row is contention%s", recordReadFirst).containsExactly(
                    new Contended(FUND_A), new Contended(FUND_A));
            assertThat(List.of(workerA.apply(r2), course.worker().apply(underTheNext))).as("the same two requests "
                    + "once the install of 4 committed").containsExactly(new Replayed(5), new Applied(8));
        }

        @Koan(edit = "apply_request.sql",
                teaches = "A duplicate sent while the original is uncommitted is Contended, then replayed.",
                hints = {
                    "The original's transaction has updated the value and stored the record, but not committed. "
                            + "What does the duplicate's function meet first?",
                    "Lock the resource's row (FOR UPDATE NOWAIT) before looking up the record: the duplicate meets "
                            + "the lock, and its retry after the commit finds the record. Here a lookup before the "
                            + "lock still meets the lock after it; a koan of the next group catches that order."})
        void aDuplicateInFlightIsContendedThenReplayed() throws Exception {
            Connection originalSession = course.session(WORKER);
            PgFencedStore original = new PgFencedStore(originalSession);
            Worker duplicate = course.worker();
            originalSession.setAutoCommit(false);

            ApplyResult first = original.apply(R1);
            ApplyResult inFlight = duplicate.apply(R1);
            // Another resource meanwhile, under the same id: only fund-A's row is locked, and ids are per resource,
            // so fund-B's r1 goes through at once.
            CompletableFuture<ApplyResult> onFundB = CompletableFuture.supplyAsync(() -> duplicate.apply(
                    new ApplyRequest(FUND_B, 1, R1.requestId(), 5)));
            boolean fundBWaited = waitsBeforeItAnswersThenCommit(course.session(WORKER), onFundB, originalSession);
            ApplyResult fundBAnswer = answerOf(onFundB);
            ApplyResult retry = duplicate.apply(R1);

            assertThat(first).as("the original r1, inside a transaction not yet committed").isEqualTo(new Applied(7));
            assertThat(inFlight).as("the duplicate of r1 while the original is uncommitted").isEqualTo(new Contended(FUND_A));
            assertThat(fundBWaited).as("whether a request on fund-B waited for a lock while r1 on fund-A was "
                    + "uncommitted (pg_locks showed the wait; r1 then committed): the function locks the one row it "
                    + "needs, never a whole table (hint 2)").isFalse();
            assertThat(fundBAnswer).as("r1 on fund-B, meanwhile: a request of its own, as ids are per resource, and "
                    + "nothing holds fund-B's row; anything that locks by the id alone makes it wait or contend (hint "
                    + "2)").isEqualTo(new Applied(105));
            assertThat(retry).as("the duplicate's retry after the original committed").isEqualTo(new Replayed(7));
            assertThat(course.records()).as("request records").containsExactlyInAnyOrder(FUND_A + "/r1",
                    FUND_B + "/r1");
        }

        @Koan(edit = "apply_request.sql",
                teaches = "The value and its record commit together: a record the table refuses undoes the delta as "
                        + "well.",
                hints = {
                    "Here the owner has just added a rule by which request_records refuses the id r-unstorable. Your "
                            + "function adds the delta, then stores the record, and the INSERT fails. What becomes of "
                            + "the delta, and what does the worker hear?",
                    "Let the INSERT's error leave the function: no EXCEPTION block around it. The failed call then "
                            + "undoes the UPDATE as well, and the worker hears of the failure, not an Applied with no "
                            + "record behind it, which its retry would apply a second time."})
        void theValueAndItsRecordCommitTogether() throws SQLException {
            Connection owner = course.session(OWNER);
            Worker worker = course.worker();
            ApplyRequest unstorable = new ApplyRequest(FUND_A, 1, "r-unstorable", 7);
            List<String> before = course.contents();
            Object refused;
            List<String> afterTheRefusal;
            PgDatabase.execute(owner, "ALTER TABLE fencing.request_records ADD CONSTRAINT refuses_one_id "
                    + "CHECK (request_id <> 'r-unstorable')");
            try {
                refused = answerOrFailure(worker, unstorable);
                afterTheRefusal = course.contents();
            } finally {
                PgDatabase.execute(owner, "ALTER TABLE fencing.request_records DROP CONSTRAINT refuses_one_id");
            }
            Object retried = answerOrFailure(worker, unstorable);

            assertThat(refused).as("the answer to r-unstorable, whose record the table refused (a CHECK the owner "
                    + "added): the call must fail; an answer means the delta stood without its record")
                    .isNotInstanceOf(ApplyResult.class);
            assertThat(afterTheRefusal).as("every row of both tables after r-unstorable's refused record: the delta "
                    + "goes with it").isEqualTo(before);
            assertThat(retried).as("r-unstorable sent again once the rule was gone").isEqualTo(new Applied(7));
        }
    }

    @Nested
    @Order(5)
    @KoanGroup("the direct-write path closed by privileges")
    class DirectWritePath {

        @Koan(edit = "grants.sql",
                teaches = "The worker's direct writes fail with insufficient privilege (42501) and change nothing.",
                hints = {
                    "As found, every role may read both tables (PUBLIC may) and the worker may write them too, as "
                            + "every program holding the SQLite file could (lesson 5 writes around the store). Which "
                            + "statement takes every privilege away, reading included, from both?",
                    "REVOKE ALL ON ALL TABLES IN SCHEMA fencing FROM ${worker}, PUBLIC; and at the same time declare "
                        + "the function SECURITY DEFINER (the next koan), or every apply fails with 42501 too."})
        void theWorkersDirectWritesFailWithInsufficientPrivilege() {
            Connection worker = course.session(WORKER);
            List<String> before = course.contents();

            String update = sqlStateOf(worker, DIRECT_UPDATE);
            String forge = sqlStateOf(worker, "INSERT INTO fencing.request_records VALUES ('fund-A', 'forged', 0, 1, 0)");
            String erase = sqlStateOf(worker, "DELETE FROM fencing.request_records");
            String read = sqlStateOf(worker, "SELECT request_id, result_value FROM fencing.request_records");
            String readResources = sqlStateOf(worker, "SELECT name, generation, value FROM fencing.resources");
            // Who may read the records, as grants.sql left them: "=r/" is PUBLIC's SELECT, which the worker holds too.
            String recordsPrivileges = firstValue(course.session(OWNER), "SELECT coalesce(relacl::text, 'the "
                    + "owner''s alone') FROM pg_catalog.pg_class WHERE oid = "
                    + "'fencing.request_records'::pg_catalog.regclass");

            assertThat(List.of(update, forge, erase)).as("the SQLSTATE of the worker's direct UPDATE of a value, INSERT "
                    + "of a made-up request record and DELETE of every record (\"ok\" when the statement ran): each must "
                    + "be refused with %s, insufficient privilege", SqlState.INSUFFICIENT_PRIVILEGE)
                    .containsOnly(SqlState.INSUFFICIENT_PRIVILEGE);
            assertThat(read).as("the SQLSTATE of the worker's direct SELECT of every request record, which would show "
                    + "it every other worker's ids and answers: the worker keeps no privilege on the tables at all, "
                    + "only the function. The table's privileges, as grants.sql left them: %s ('=r/' is PUBLIC's "
                    + "SELECT, which every role holds, the worker included)", recordsPrivileges)
                    .isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE);
            assertThat(readResources).as("the SQLSTATE of the worker's direct SELECT of fencing.resources: no "
                    + "privilege on that table either").isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE);
            // Every table and view of the database, in any schema but the system's: a view runs with its owner's
            // rights, so SELECT or UPDATE on one that shows the tables reads or writes them as surely as a grant on them.
            assertThat(firstValue(course.session(OWNER), "SELECT coalesce(pg_catalog.string_agg(c.oid::"
                    + "pg_catalog.regclass::text, ', '), 'none') FROM pg_catalog.pg_class c WHERE c.relkind IN ('r', "
                    + "'p', 'v', 'm', 'f') AND c.relnamespace NOT IN ('pg_catalog'::pg_catalog.regnamespace, "
                    + "'information_schema'::pg_catalog.regnamespace) AND c.relpersistence <> 't' AND ("
                    + "pg_catalog.has_table_privilege('" + course.roleName(WORKER) + "', c.oid, 'SELECT, INSERT, "
                    + "UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') OR pg_catalog.has_any_column_privilege('"
                    + course.roleName(WORKER) + "', c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'))"))
                    .as("the tables and views, in any schema, on which the worker keeps any privilege, on the "
                            + "relation or on one of its columns (a column grant reads or writes as surely as a table "
                            + "grant, and a view reads and writes its tables with its owner's rights)")
                    .isEqualTo("none");
            assertThat(firstValue(course.session(OWNER), "SELECT pg_catalog.has_schema_privilege('"
                    + course.roleName(WORKER) + "', 'fencing', 'CREATE')")).as("may the worker create objects in "
                    + "schema fencing? The function looks names up there, with its owner's rights, and so does every "
                    + "migration: the worker keeps USAGE, which PUBLIC holds, and nothing more").isEqualTo("f");
            assertThat(course.contents()).as("every row of both tables after the refused writes").isEqualTo(before);
        }

        @Koan(edit = "apply_request.sql",
                teaches = "A worker with no privilege on the tables still applies: the function runs with its owner's rights.",
                hints = {
                    "Once the grants are revoked, a function that runs with the caller's rights fails like the direct "
                            + "UPDATE did. Whose rights should it run with?",
                    "Declare the function SECURITY DEFINER: it runs as the role that created it, the owner."})
        void theWorkerAppliesThroughTheFunctionWithoutPrivilegesOnTheTables() {
            Connection worker = course.session(WORKER);
            String canUpdate = firstValue(worker,
                    "SELECT pg_catalog.has_table_privilege('fencing.resources', 'UPDATE')");

            ApplyResult result = new PgFencedStore(worker).apply(R1);

            assertThat(canUpdate).as("may the worker role UPDATE fencing.resources directly?").isEqualTo("f");
            assertThat(result).as("the same worker's apply through fencing.apply_request").isEqualTo(new Applied(7));
        }

        @Koan(edit = "grants.sql",
                teaches = "A role without the grant cannot call the function: EXECUTE is revoked from PUBLIC, and the "
                        + "worker cannot pass it on.",
                hints = {
                    "PostgreSQL gives EXECUTE on every new function to PUBLIC, that is to every role on the server. "
                            + "And a role that holds a privilege WITH GRANT OPTION may give it to anyone.",
                    "REVOKE ALL ON FUNCTION fencing.apply_request(text, bigint, text, bigint) FROM PUBLIC; then "
                            + "GRANT EXECUTE ON FUNCTION ... TO ${worker}; and nothing more."})
        void aRoleWithoutTheGrantCannotCallTheFunction() {
            Connection bystander = course.session(BYSTANDER);
            Connection worker = course.session(WORKER);
            List<String> before = course.contents();
            // The function's privileges as grants.sql left them, for the message: "=X/" is PUBLIC's EXECUTE, and a
            // "*" after an X is a grant option.
            String privileges = firstValue(course.session(OWNER), "SELECT coalesce(proacl::text, 'the "
                    + "defaults, PUBLIC included') FROM pg_catalog.pg_proc WHERE oid = "
                    + "'fencing.apply_request(text, bigint, text, bigint)'::pg_catalog.regprocedure");

            // Without the grant option PostgreSQL only warns that nothing was granted: the bystander's call tells.
            sqlStateOf(worker, "GRANT EXECUTE ON FUNCTION fencing.apply_request(text, bigint, text, bigint) TO "
                    + course.roleName(BYSTANDER));
            // The owner lets the bystander into the schema, for some other object one day: only EXECUTE decides now.
            PgDatabase.execute(course.session(OWNER), "GRANT USAGE ON SCHEMA fencing TO "
                    + course.roleName(BYSTANDER));
            String call = sqlStateOf(bystander, "SELECT * FROM fencing.apply_request('fund-A', 1, 'by-1', 5)");
            // Any other function that runs with its owner's rights is a door of its own, in whatever schema it was
            // created (a name written without one lands in public).
            String otherDoors = firstValue(course.session(OWNER), "SELECT coalesce(pg_catalog.string_agg("
                    + "p.oid::pg_catalog.regprocedure::text, ', '), 'none') FROM pg_catalog.pg_proc p WHERE "
                    + "p.pronamespace NOT IN ('pg_catalog'::pg_catalog.regnamespace, "
                    + "'information_schema'::pg_catalog.regnamespace) AND p.prosecdef AND p.oid <> "
                    + "'fencing.apply_request(text, bigint, text, bigint)'::pg_catalog.regprocedure AND ("
                    + "pg_catalog.has_function_privilege('" + course.roleName(BYSTANDER) + "', p.oid, 'EXECUTE') OR "
                    + "pg_catalog.has_function_privilege('" + course.roleName(WORKER) + "', p.oid, 'EXECUTE'))");

            assertThat(call).as("the SQLSTATE when %s, a role that was granted nothing, calls fencing.apply_request "
                    + "after the worker tried to grant it EXECUTE and the owner let it use the schema (\"ok\" when the "
                    + "call ran): the worker may call the function, never hand the right on, and PUBLIC may not call "
                    + "it at all. The function's privileges, as grants.sql left them: %s ('=X' is PUBLIC's "
                    + "EXECUTE; 'X*' is EXECUTE with the grant option)", course.roleName(BYSTANDER), privileges)
                    .isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE);
            assertThat(course.contents()).as("every row of both tables after the refused call").isEqualTo(before);
            assertThat(otherDoors).as("the other functions, in any schema, that run with their owner's rights "
                    + "(SECURITY DEFINER) and that the worker or %s may call: each is a way to the tables around "
                    + "fencing.apply_request's checks. Revoke EXECUTE on it from PUBLIC as well; apply_request runs as "
                    + "the owner, so it may still call it", course.roleName(BYSTANDER)).isEqualTo("none");
        }

        @Koan(edit = "apply_request.sql",
                teaches = "A fixed search_path keeps a caller's temporary table, or its own operator, from standing in for the real one.",
                hints = {
                    "A session's own temporary schema is searched first for tables and types unless the search_path "
                            + "names it. Here the worker creates a temporary table called resources with generation 99 "
                            + "and temporary types named text and int8, then puts a schema of its own, with its own + "
                            + "for bigints, before pg_catalog.",
                    "Add SET search_path = fencing, pg_temp to the function's declaration: pg_temp last, written out. "
                            + "Writing fencing.resources in full is not enough: operators and functions are looked "
                            + "up on the path too."})
        void aCallersTemporaryTableCannotStandInForTheRealOne() {
            Connection worker = course.session(WORKER);
            PgDatabase.execute(worker, "CREATE TEMPORARY TABLE resources (name text, generation bigint, value bigint)");
            PgDatabase.execute(worker, "INSERT INTO resources VALUES ('fund-A', 99, 0)");
            PgDatabase.execute(worker, "GRANT ALL ON resources TO PUBLIC");
            List<String> before = course.contents();

            ApplyResult result = new PgFencedStore(worker).apply(new ApplyRequest(FUND_A, 99, "fake-1", 5));
            List<String> afterTheTable = course.contents();

            // Types are looked up in pg_temp first too. In a session of its own, the worker creates its own text,
            // int8 and others, as domains whose check notes who ran it when that is not the worker itself.
            Connection typed = course.session(WORKER);
            PgDatabase.execute(typed, """
                    CREATE FUNCTION pg_temp.noted(anyelement) RETURNS boolean LANGUAGE plpgsql AS $$
                    BEGIN
                        IF current_user <> session_user THEN
                            PERFORM pg_catalog.set_config('callers.ran_as', current_user, false);
                        END IF;
                        RETURN true;
                    END $$""");
            for (String type : CALLERS_TYPES) {
                PgDatabase.execute(typed, "CREATE DOMAIN pg_temp." + type + " AS pg_catalog." + type
                        + " CHECK (pg_temp.noted(VALUE))");
            }
            Object throughTheCallersTypes = answerOrFailure(new PgFencedStore(typed)::apply,
                    new ApplyRequest(FUND_B, 1, "r-types", 5));
            String typesRanAs = firstValue(typed, RAN_AS);

            // A caller with a schema of its own (granted here by the owner), listed before pg_catalog: its + for
            // bigints notes who ran it. In a function that takes the caller's path, it runs with the owner's rights.
            Connection owner = course.session(OWNER);
            PgDatabase.execute(owner, "CREATE SCHEMA callers");
            PgDatabase.execute(owner, "GRANT USAGE, CREATE ON SCHEMA callers TO " + course.roleName(WORKER));
            PgDatabase.execute(worker, """
                    CREATE FUNCTION callers.plus(bigint, bigint) RETURNS bigint LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_catalog.set_config('callers.ran_as', current_user, false);
                        RETURN pg_catalog.int8pl($1, $2);
                    END $$""");
            PgDatabase.execute(worker, "CREATE OPERATOR callers.+ (LEFTARG = bigint, RIGHTARG = bigint, "
                    + "FUNCTION = callers.plus)");
            // A path set inside the body comes too late: the call that sets it is looked up on the caller's path.
            PgDatabase.execute(worker, """
                    CREATE FUNCTION callers.set_config(text, text, boolean) RETURNS text LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_catalog.set_config('callers.ran_as', current_user, false);
                        RETURN pg_catalog.set_config($1, $2, $3);
                    END $$""");
            PgDatabase.execute(worker, "SET search_path = callers, pg_catalog, fencing");
            ApplyResult throughTheCallersPath = new PgFencedStore(worker).apply(new ApplyRequest(FUND_A, 1, "r-path",
                    5));
            String ranAs = firstValue(worker, RAN_AS);
            PgDatabase.execute(owner, "DROP SCHEMA callers CASCADE");

            // Until PostgreSQL 15 every role may create in public, and here the owner lets the worker do so: a path
            // that lists public (as the default "$user", public does) finds the worker's table before fencing's.
            PgDatabase.execute(owner, "GRANT CREATE ON SCHEMA public TO " + course.roleName(WORKER));
            Connection inPublic = course.session(WORKER);
            PgDatabase.execute(inPublic, "DROP TABLE IF EXISTS public.resources");
            PgDatabase.execute(inPublic, "CREATE TABLE public.resources (name text, generation bigint, value bigint)");
            PgDatabase.execute(inPublic, "INSERT INTO public.resources VALUES ('fund-A', 99, 0)");
            PgDatabase.execute(inPublic, "GRANT ALL ON public.resources TO PUBLIC");
            List<String> beforePublic = course.contents();
            Object throughPublic = answerOrFailure(new PgFencedStore(inPublic)::apply,
                    new ApplyRequest(FUND_A, 99, "fake-2", 5));
            List<String> afterPublic = course.contents();
            PgDatabase.execute(inPublic, "DROP TABLE public.resources");
            PgDatabase.execute(owner, "REVOKE CREATE ON SCHEMA public FROM " + course.roleName(WORKER));

            assertThat(result).as("generation 99 exists only in the worker's own temporary table; the function must "
                    + "judge by the real fencing.resources, where generation 1 is installed")
                    .isEqualTo(Rejected.unissued(99, 1));
            assertThat(afterTheTable).as("every row of both tables after the attempt").isEqualTo(before);
            assertThat(ranAs).as("who ran the worker's own + operator or set_config inside the function: a "
                    + "function that takes its caller's search_path runs the caller's operators and functions, and "
                    + "with SECURITY DEFINER it runs them as the owner, whatever table names it writes in full and "
                    + "whatever path its body sets once it runs")
                    .isEqualTo("nobody");
            assertThat(typesRanAs).as("who ran the check of the worker's temporary types (domains named %s) inside "
                    + "the function, which answered %s: a path that leaves out pg_temp searches it first for types as "
                    + "well as tables, so a body that declares a text runs the caller's domain, as the owner",
                    String.join(", ", CALLERS_TYPES), throughTheCallersTypes).isEqualTo("nobody");
            assertThat(throughTheCallersPath).as("the worker's apply of r-path, its own schema first on its path")
                    .isEqualTo(new Applied(5));
            assertThat(throughPublic).as("the worker's apply with generation 99 once it has a table public.resources "
                    + "that says so: a function path that lists public (\"$user\", public, fencing, say) reads the "
                    + "worker's table; only fencing and pg_temp belong on it")
                    .isEqualTo(Rejected.unissued(99, 1));
            assertThat(afterPublic).as("every row of both tables after that apply").isEqualTo(beforePublic);
        }

        @Koan(edit = "grants.sql",
                teaches = "The owner can still write directly: the guarantee now depends on who holds which role.",
                hints = {
                    "This koan passes once the worker's direct writes are refused (the first koan here). Read it for "
                            + "its second half.",
                    "No grant binds the owner of a table. Whoever holds the owner role (a migration, an administrator, "
                            + "a leaked password) writes around the function, and nothing in the database can tell."})
        void theOwnerCanStillWriteDirectly() {
            Connection worker = course.session(WORKER);
            Connection owner = course.session(OWNER);

            String asWorker = sqlStateOf(worker, DIRECT_UPDATE);
            String asOwner = sqlStateOf(owner, DIRECT_UPDATE);

            assertThat(asWorker).as("the SQLSTATE of the worker's direct UPDATE (\"ok\" when it ran)")
                    .isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE);
            assertThat(asOwner).as("the SQLSTATE of the very same UPDATE by the owner").isEqualTo("ok");
            assertThat(course.state(FUND_A)).as("fund-A after the owner's direct write: no generation was checked")
                    .isEqualTo(new ResourceState(FUND_A, 1, 1000));
        }
    }

    @Nested
    @Order(6)
    @Tag(CONTENTION_TAG)
    @KoanGroup("the row lock comes before everything the function decides")
    class TheLockComesFirst {

        @Koan(edit = "apply_request.sql",
                teaches = "A row another session holds FOR SHARE is contention too: the function's lock excludes every sharer.",
                hints = {
                    "FOR SHARE lets several sessions hold a row together, and none of them may change it meanwhile. "
                            + "If your function only shares fund-A's row, where does its UPDATE then wait?",
                    "Lock with FOR UPDATE NOWAIT, the mode that conflicts with every other row lock: a session that "
                            + "shares the row is met at once, with 55P03, before anything is decided."})
        void aRowHeldForShareIsContendedAtOnce() throws SQLException {
            Connection reader = holdFundA("SELECT value FROM fencing.resources WHERE name = 'fund-A' FOR SHARE");
            Worker worker = course.worker();

            Object whileShared = answerOrFailure(worker, R1);
            reader.commit();
            // The weakest row lock: an owner's uncommitted record of r1 holds fund-A's row FOR KEY SHARE, through
            // its foreign key. FOR NO KEY UPDATE would let the function in, to wait at its own INSERT of r1.
            Connection importer = holdFundA("INSERT INTO fencing.request_records "
                    + "(resource, request_id, delta, generation, result_value) VALUES ('fund-A', 'r1', 7, 1, 7)");
            Object whileKeyShared = answerOrFailure(worker, R1);
            importer.rollback();
            ApplyResult afterwards = worker.apply(R1);

            assertThat(whileShared).as("the worker's apply while another session holds fund-A's row FOR SHARE: a "
                    + "function that shares the row as well is let in, and then waits at its UPDATE for the other "
                    + "sharer, until the statement guard cancels it").isEqualTo(new Contended(FUND_A));
            assertThat(whileKeyShared).as("the worker's apply of r1 while an owner's uncommitted record of r1 holds "
                    + "fund-A's row FOR KEY SHARE: only FOR UPDATE conflicts with every row lock; a weaker mode is let "
                    + "in and then waits for the other record (hint 2)").isEqualTo(new Contended(FUND_A));
            assertThat(afterwards).as("the same request once the sharer committed").isEqualTo(new Applied(7));
        }

        @Koan(edit = "apply_request.sql",
                teaches = "The function locks the row before it reads the request record: a held row is met before any lookup.",
                hints = {
                    "Lesson 4's last koan, on SQLite: 'r1 has no record' stays true only while nobody else can store r1. Does your "
                            + "function read fencing.request_records before or after it holds the row?",
                    "SELECT ... FROM fencing.resources ... FOR UPDATE NOWAIT first, the record lookup after it: here a "
                            + "second session holds the whole record table, and only a function that meets the held "
                            + "row first answers at once."})
        void theRowIsLockedBeforeTheRecordIsRead() throws SQLException {
            Worker worker = course.worker();
            // An earlier call compiles the function in the worker's session: compiling reads the record table's type.
            worker.apply(new ApplyRequest(FUND_B, 1, "b-1", 5));
            Connection authority = holdFundA("UPDATE fencing.resources SET generation = 2 WHERE name = 'fund-A'");
            Connection migration = course.session(OWNER);
            migration.setAutoCommit(false);
            PgDatabase.execute(migration, "LOCK TABLE fencing.request_records IN ACCESS EXCLUSIVE MODE");

            Object whileHeld = answerOrFailure(worker, R1);
            migration.rollback();
            authority.rollback();

            assertThat(whileHeld).as("the worker's apply of r1 while an uncommitted install holds fund-A's row and "
                    + "a migration holds the record table: a function that locks the row first is told 55P03 at "
                    + "once; one that looks for r1's record first waits for the table, and whatever it finds there "
                    + "can be stale before it locks").isEqualTo(new Contended(FUND_A));
        }

        @Koan(edit = "apply_request.sql",
                teaches = "The function decides from what it read under the row lock: a read made before the lock is "
                        + "stale once a commit lands in between.",
                hints = {
                    "Here a maintenance transaction holds the whole resources table (reads go on, row locks wait), "
                            + "changes fund-A, and commits while your function waits for its lock. Does your function "
                            + "read fencing.resources anywhere before that lock?",
                    "Take generation and value from the locking statement itself, SELECT * INTO target FROM "
                            + "resources WHERE name = p_resource FOR UPDATE NOWAIT, and let the UPDATE compute the "
                            + "answer: SET value = value + p_delta RETURNING value."})
        void theFunctionDecidesFromWhatItReadUnderTheLock() throws Exception {
            Worker worker = course.worker();

            Object afterAnInstall = answerAcrossACommit(worker,
                    "UPDATE fencing.resources SET generation = 2 WHERE name = 'fund-A'",
                    new ApplyRequest(FUND_A, 1, "r1", 7));
            Object afterACorrection = answerAcrossACommit(worker,
                    "UPDATE fencing.resources SET value = value + 5 WHERE name = 'fund-A'",
                    new ApplyRequest(FUND_A, 2, "r2", 7));

            assertThat(afterAnInstall).as("r1 with generation 1, sent while a transaction that installs generation 2 "
                    + "held the table; it committed while the function waited for its row lock. Admitted means the "
                    + "generation was checked from a read made before the lock").isEqualTo(Rejected.stale(1, 2));
            assertThat(afterACorrection).as("r2 adding 7 with generation 2, sent while a transaction that adds 5 to "
                    + "fund-A's value 0 held the table, committing while the function waited: 7 means the answer was "
                    + "worked out from the value read before the lock").isEqualTo(new Applied(12));
            assertThat(course.state(FUND_A)).as("fund-A after both calls: the 5 must not be lost")
                    .isEqualTo(new ResourceState(FUND_A, 2, 12));

            // The maintenance transaction now only shares the table: the row lock is the function's at once, and its
            // UPDATE waits. Meanwhile the owner tries to lock fund-A's row.
            Connection maintenance = course.session(OWNER);
            maintenance.setAutoCommit(false);
            PgDatabase.execute(maintenance, "LOCK TABLE fencing.resources IN SHARE MODE");
            CompletableFuture<Object> call = CompletableFuture.supplyAsync(() -> answerOrFailure(worker,
                    new ApplyRequest(FUND_A, 2, "r3", 1)));
            boolean waited;
            String rowWhileItWaited;
            try {
                waited = waitsBeforeItAnswers(course.session(WORKER), call);
                rowWhileItWaited = sqlStateOf(course.session(OWNER),
                        "SELECT FROM fencing.resources WHERE name = 'fund-A' FOR UPDATE NOWAIT");
            } finally {
                maintenance.commit();
            }
            assertThat(waited).as("whether r3's call waited while a transaction held the resources table in SHARE "
                    + "mode (its UPDATE must wait for it)").isTrue();
            assertThat(rowWhileItWaited).as("the SQLSTATE of another session's FOR UPDATE NOWAIT on fund-A's row "
                    + "while r3's call, past its lock, waited at its UPDATE (\"ok\" when it got the row): the row "
                    + "stays the function's until its transaction ends; a lock taken inside a BEGIN ... EXCEPTION "
                    + "block is given back when that block catches an error, and the function then goes on without "
                    + "it").isEqualTo(SqlState.LOCK_NOT_AVAILABLE);
            assertThat(call.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("r3, adding 1 under generation 2")
                    .isEqualTo(new Applied(13));
        }

        @Koan(edit = "apply_request.sql",
                teaches = "A malformed request is refused even while its row is held: no retry can make it well-formed.",
                hints = {
                    "Lesson 3's last koan, on SQLite. An uncommitted install holds fund-A's row, and a request with a blank id "
                            + "arrives. What does your function do first: check the request, or lock the row?",
                    "Every RAISE of invalid_parameter_value comes before the SELECT ... FOR UPDATE NOWAIT."})
        void aMalformedRequestIsRefusedEvenWhileItsRowIsHeld() throws SQLException {
            Connection authority = holdFundA("UPDATE fencing.resources SET generation = 2 WHERE name = 'fund-A'");

            record Malformed(String what, String field, ApplyRequest request) {}
            List<Malformed> malformed = List.of(
                    new Malformed("a blank request id", "requestId", new ApplyRequest(FUND_A, 1, " ", 7)),
                    new Malformed("generation 0", "generation", new ApplyRequest(FUND_A, 0, "r1", 7)),
                    new Malformed("a request id one character over the limit", "requestId", new ApplyRequest(FUND_A,
                            1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH + 1), 7)));
            List<Object> answers = malformed.stream().map(each -> answerOrFailure(course.worker(), each.request()))
                    .toList();
            // From SQL a generation or a delta can be NULL: on the held fund-A, and on fund-C, which does not exist.
            List<String> nullsFromSql = Stream.of("'fund-A', NULL, 'n1', 5", "'fund-A', 1, 'n2', NULL",
                    "'fund-C', NULL, 'n3', 5", "'fund-C', 1, 'n4', NULL").map(arguments -> sqlStateOf(
                            course.session(WORKER), "SELECT * FROM fencing.apply_request(" + arguments + ")")).toList();
            authority.rollback();

            for (int i = 0; i < malformed.size(); i++) {
                assertThat(answers.get(i)).as("a request with %s, sent while fund-A's row is held: every check of "
                        + "the request comes before the lock, and its refusal names the field, whatever the lock",
                        malformed.get(i).what()).asString().startsWith(IllegalArgumentException.class.getName())
                        .contains(malformed.get(i).field());
            }
            assertThat(nullsFromSql).as("the SQLSTATEs of calls from SQL with a NULL generation, then a NULL delta, on "
                    + "fund-A while its row is held, then the same on fund-C, which does not exist (\"ok\" when a call "
                    + "answered): each is malformed, refused with %s before the lock and before the resource is looked "
                    + "up, not answered 55P03 (try again) or as an unknown resource", SqlState.INVALID_PARAMETER_VALUE)
                    .containsExactly(SqlState.INVALID_PARAMETER_VALUE, SqlState.INVALID_PARAMETER_VALUE,
                            SqlState.INVALID_PARAMETER_VALUE, SqlState.INVALID_PARAMETER_VALUE);
        }

        /**
         * The worker's answer to {@code request}, sent while an owner's transaction holds fencing.resources in
         * EXCLUSIVE mode (plain reads go on, row locks wait) and has made {@code change}. That transaction commits
         * as soon as the worker's call waits for the table, so the commit lands inside the function's call.
         */
        private Object answerAcrossACommit(Worker worker, String change, ApplyRequest request) throws Exception {
            Connection maintenance = course.session(OWNER);
            maintenance.setAutoCommit(false);
            PgDatabase.execute(maintenance, "LOCK TABLE fencing.resources IN EXCLUSIVE MODE");
            PgDatabase.execute(maintenance, change);
            CompletableFuture<Object> call = CompletableFuture.supplyAsync(() -> answerOrFailure(worker, request));
            waitsBeforeItAnswersThenCommit(course.session(WORKER), call, maintenance);
            return call.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        }

        /** A session of the owner that holds fund-A's row, inside a transaction the koan ends. */
        private Connection holdFundA(String lockingStatement) throws SQLException {
            Connection holder = course.session(OWNER);
            holder.setAutoCommit(false);
            PgDatabase.execute(holder, lockingStatement);
            return holder;
        }
    }

    /** {@link #waitsBeforeItAnswers}, then {@code holder}'s transaction commits, whatever the watch found. */
    private static boolean waitsBeforeItAnswersThenCommit(Connection observer, CompletableFuture<?> call,
            Connection holder) throws Exception {
        try {
            return waitsBeforeItAnswers(observer, call);
        } finally {
            holder.commit();
        }
    }

    /**
     * Whether a session of this database waits, for a lock or in pg_sleep, before {@code call} has answered: true as
     * soon as one does, false once the call answered without a wait. pg_locks and pg_stat_activity are the only
     * places a wait inside a function shows, so they are read until one of the two. The {@code observer} is a
     * session of the worker's role: pg_stat_activity shows a session's wait only to its own role (or a superuser).
     */
    private static boolean waitsBeforeItAnswers(Connection observer, CompletableFuture<?> call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        try (Statement statement = observer.createStatement()) {
            while (!call.isDone()) {
                try (ResultSet waiting = statement.executeQuery("SELECT pg_catalog.count(*) FROM "
                        + "pg_catalog.pg_stat_activity a WHERE a.datname = pg_catalog.current_database() AND "
                        + "(a.wait_event = 'PgSleep' OR EXISTS (SELECT FROM pg_catalog.pg_locks l "
                        + "WHERE l.pid = a.pid AND NOT l.granted))")) {
                    waiting.next();
                    if (waiting.getLong(1) > 0) {
                        return true;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the worker's call neither answered nor waited for a lock within "
                            + PATIENCE_SECONDS + " s");
                }
                Thread.sleep(LOCK_POLL_MILLIS);
            }
        }
        return false;
    }

    /** What {@code call} answered, or the very exception its apply threw, so that a failure points at its line. */
    private static ApplyResult answerOf(CompletableFuture<ApplyResult> call) {
        try {
            return call.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException thrown) {
                throw thrown;
            }
            throw e;
        }
    }

    /** The worker's answer, or what its apply threw, as text: a koan compares the one and quotes the other. */

    /** Runs {@code sql} and gives "ok", or the SQLSTATE it failed with. */
    private static String sqlStateOf(Connection session, String sql) {
        return refusalOf(session, sql).split(" ", 2)[0];
    }

    /** Runs {@code sql} and gives "ok", or the SQLSTATE it failed with and the server's message, after a space. */
    private static String refusalOf(Connection session, String sql) {
        try (Statement statement = session.createStatement()) {
            statement.execute(sql);
            return "ok";
        } catch (SQLException e) {
            return e.getSQLState() + " " + e.getMessage();
        }
    }

    private static String firstValue(Connection session, String query) {
        try (Statement statement = session.createStatement(); var row = statement.executeQuery(query)) {
            row.next();
            return row.getString(1);
        } catch (SQLException e) {
            throw new AssertionError(query + " failed", e);
        }
    }
}
