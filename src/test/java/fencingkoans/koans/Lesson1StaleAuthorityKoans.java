package fencingkoans.koans;

import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.RejectionReason;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.koans.support.KoansOnEveryDestination;
import fencingkoans.koans.support.UnseenRequests;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.Authority;
/**
 * The koans of lesson 1 that hold on every destination, written in its file: {@link Lesson1StaleAuthorityKoans} runs them on
 * SQLite, and lesson 6 runs each of them again on PostgreSQL with hints in SQL of its own.
 */
interface Lesson1OnEveryDestination extends KoansOnEveryDestination {

    @Koan(edit = "FencedStore.apply",
            teaches = "A request that carries the installed generation is admitted and its delta applied.",
            hints = {
                "fund-A starts at generation 1 with value 0. What must apply return for a delta of 7?",
                "ledger.installedGeneration(resource) gives the generation; ledger.addToValue(resource, delta) "
                        + "applies the delta and returns the new value.",
                "If request.generation() equals the installed generation, return "
                        + "new ApplyResult.Applied(ledger.addToValue(request.resource(), request.delta()))."})
    default void aWorkerHoldingTheInstalledGenerationApplies() {
        Worker worker = course().worker();

        ApplyResult result = worker.apply(new ApplyRequest(FUND_A, 1, "r1", 7));

        assertThat(result).as("fund-A holds generation 1 and value 0; a request with generation 1 and delta 7")
                .isEqualTo(new Applied(7));
        assertThat(course().value(FUND_A)).as("fund-A's committed value after the apply").isEqualTo(7);
    }

    @Koan(edit = "FencedStore.apply and Authority.install",
            teaches = "Authority read earlier can be stale: the destination rejects the old generation.",
            hints = {
                "Two things to write: Authority.install must make the new generation the installed one, and "
                        + "apply must compare the request's generation with the installed one.",
                "ledger.setGeneration(resource, generation) installs; return new InstallResult.Installed(...). "
                        + "In apply, a lower generation is stale.",
                "In apply: if (request.generation() != installed) return "
                        + "ApplyResult.Rejected.stale(request.generation(), installed); lesson 2 will tell a higher "
                        + "number apart from a lower one."})
    default void aWorkerWhoseGenerationWasReplacedIsRejected() {
        Worker workerA = course().worker();
        long generationA = course().generation(FUND_A);

        course().install(FUND_A, 2);
        long installed = course().generation(FUND_A);
        ApplyResult result = workerA.apply(new ApplyRequest(FUND_A, generationA, "a-1", 5));

        assertThat(installed).as("fund-A's installed generation after the authority installed 2").isEqualTo(2);
        assertThat(result).as("worker A read generation %d, then generation 2 was installed; A's apply must be "
                + "refused as stale, because the destination checks now, not when A looked", generationA)
                .isInstanceOf(Rejected.class)
                .extracting(rejected -> ((Rejected) rejected).reason()).isEqualTo(RejectionReason.STALE_GENERATION);
        assertThat(course().value(FUND_A)).as("fund-A's value after a rejected apply: a rejection changes nothing")
                .isZero();
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A rejection tells the worker which generation it presented and which one is installed.",
            hints = {
                "Look at the factories on ApplyResult.Rejected: which arguments do they take?",
                "Rejected.stale(presented, installed): the first is the request's, the second the table's."})
    default void theRejectionNamesThePresentedAndTheInstalledGeneration() {
        Worker workerA = course().worker();
        course().install(FUND_A, 2);

        ApplyResult result = workerA.apply(new ApplyRequest(FUND_A, 1, "a-1", 5));
        course().install(FUND_A, 10);
        ApplyResult later = workerA.apply(new ApplyRequest(FUND_A, 9, "a-2", 5));
        // 2^32 + 10: its lowest 32 bits are the number 10, all that a cast to int would keep of it.
        course().install(FUND_A, 4_294_967_306L);
        ApplyResult pastTheInts = workerA.apply(new ApplyRequest(FUND_A, 10, "a-3", 5));

        assertThat(result).as("a worker presenting generation 1 while generation 2 is installed")
                .isInstanceOf(Rejected.class);
        Rejected rejected = (Rejected) result;
        assertThat(rejected.presentedGeneration()).as("the generation the worker presented").isEqualTo(1);
        assertThat(rejected.installedGeneration()).as("the generation installed at the destination").isEqualTo(2);
        assertThat(later).as("the same worker presenting generation 9 once generation 10 is installed: the numbers "
                + "come from the request and from the destination's row, whatever they are, and they compare as "
                + "numbers (as text, \"9\" would sort after \"10\")").isEqualTo(Rejected.stale(9, 10));
        assertThat(pastTheInts).as("the same worker presenting generation 10 once generation 4294967306 "
                + "(2^32 + 10) is installed: compared as ints the two would be equal, since a cast to int keeps only "
                + "the lowest 32 bits; a generation is a long in every comparison")
                .isEqualTo(Rejected.stale(10, 4_294_967_306L));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "The worker that holds the newly installed generation is admitted.",
            hints = {
                "The koan installs 2, then 3000000000. Which generation must each request carry to be applied, and "
                        + "what does apply answer for it: the delta, or fund-A's value after it?",
                "Your comparison should admit exactly the installed generation, whatever its number, and Applied "
                        + "carries the value ledger.addToValue returns."})
    default void theWorkerHoldingTheNewGenerationIsAdmitted() {
        course().install(FUND_A, 2);
        Worker workerB = course().worker();

        ApplyResult result = workerB.apply(new ApplyRequest(FUND_A, 2, "b-1", 4));
        // Above the largest int: a generation is a long wherever it is kept.
        course().install(FUND_A, 3_000_000_000L);
        ApplyResult muchLater = workerB.apply(new ApplyRequest(FUND_A, 3_000_000_000L, "b-2", 4));

        assertThat(result).as("worker B presents generation 2, the one just installed").isEqualTo(new Applied(4));
        assertThat(muchLater).as("worker B presents generation 3000000000 once the authority has installed it: "
                + "equal is equal, however large the number, and it is larger than an int holds")
                .isEqualTo(new Applied(8));
    }

    @Koan(edit = "FencedStore.apply and Authority.install",
            teaches = "The rule holds for every request, not only for those the koans wrote: whatever the numbers, the installed generation applies and an older one is stale.",
            hints = {
                "Nothing new to write: the message names the step your store answered differently, and the steps "
                        + "before it on the same resource. Work them out by hand with the lesson's rules.",
                "A store that compares each request with the generation installed now passes, in every run; one that knows particular requests does not. Graded runs draw a new sequence each time."})
    default void staleAuthorityIsRejectedOnRequestsNoKoanWrote() {
        UnseenRequests.assertTheStoreFollowsTheContract(course(), UnseenRequests.Scope.STALE_AUTHORITY);
    }
}

/**
 * Lesson 1 on the SQLite file. The koans of {@link Lesson1OnEveryDestination}, at the start of this file, hold on
 * every destination, and lesson 6 runs them again on PostgreSQL. The last koan watches SQLite's seams, so it runs
 * on SQLite only.
 */
@Lesson(value = 1, title = "Stale authority", page = "docs/lessons/1-stale-authority.md")
class Lesson1StaleAuthorityKoans extends CourseKoans implements Lesson1OnEveryDestination {

    @Interleaving
    @Koan(edit = "Authority.install",
            teaches = "Checking again just before a write does not close the gap: check and write are two moments.",
            hints = {
                "An observation: it passes as soon as Authority.install works. It shows a worker that checks, "
                        + "then writes in a separate statement, without your store.",
                "Read the koan: where does the authority's install happen, relative to the check and the write?"})
    void checkingAgainJustBeforeTheWriteDoesNotCloseTheGap() {
        Authority authority = course.authority();
        Ledger carefulWorker = course.ledger();
        carefulWorker.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> authority.install(FUND_A, 2));

        long checked = carefulWorker.installedGeneration(FUND_A).orElseThrow();
        carefulWorker.addToValue(FUND_A, 5);

        assertThat(checked).as("the careful worker's check, made right before its write").isEqualTo(1);
        assertThat(course.generation(FUND_A)).as("the generation installed between that check and the write")
                .isEqualTo(2);
        assertThat(course.value(FUND_A)).as("the careful worker's write landed although its authority was "
                + "already replaced: however close, the check and the write are separate moments")
                .isEqualTo(5);
    }
}
