package fencingkoans.koans;

import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.RejectionReason;
import fencingkoans.harness.AlsoOnPostgres;
import fencingkoans.harness.Koan;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.koans.support.KoansOnEveryDestination;

/**
 * Lesson 1's koans that hold on every destination: {@link Lesson1StaleAuthorityKoans} runs them on SQLite, and
 * lesson 6 runs them again on PostgreSQL under their {@code @AlsoOnPostgres} numbers.
 */
interface Lesson1KoansOnEveryDestination extends KoansOnEveryDestination {

    @Koan(value = "1.1", edit = "FencedStore.apply",
            teaches = "A request that carries the installed generation is admitted and its delta applied.",
            hints = {
                "fund-A starts at generation 1 with value 0. What must apply return for a delta of 7?",
                "ledger.installedGeneration(resource) gives the generation; ledger.addToValue(resource, delta) "
                        + "applies the delta and returns the new value.",
                "If request.generation() equals the installed generation, return "
                        + "new ApplyResult.Applied(ledger.addToValue(request.resource(), request.delta()))."})
    @AlsoOnPostgres(value = "6.1", hints = {
        "The worker now calls fencing.apply_request, and all the checking happens inside the server. The comment "
                + "at the top of apply_request.sql lists the answers the Java side understands.",
        "SELECT * INTO a variable FROM fencing.resources WHERE name = p_resource; if p_generation equals its "
                + "generation: UPDATE fencing.resources SET value = value + p_delta WHERE name = p_resource "
                + "RETURNING value INTO answer; outcome := 'applied'."})
    default void aWorkerHoldingTheInstalledGenerationApplies() {
        Worker worker = course().worker();

        ApplyResult result = worker.apply(new ApplyRequest(FUND_A, 1, "r1", 7));

        assertThat(result).as("fund-A holds generation 1 and value 0; a request with generation 1 and delta 7")
                .isEqualTo(new Applied(7));
        assertThat(course().value(FUND_A)).as("fund-A's committed value after the apply").isEqualTo(7);
    }

    @Koan(value = "1.2", edit = "FencedStore.apply and Authority.install",
            teaches = "Authority read earlier can be stale: the destination rejects the old generation.",
            hints = {
                "Two things to write: Authority.install must make the new generation the installed one, and "
                        + "apply must compare the request's generation with the installed one.",
                "ledger.setGeneration(resource, generation) installs; return new InstallResult.Installed(...). "
                        + "In apply, a lower generation is stale.",
                "In apply: if (request.generation() != installed) return "
                        + "ApplyResult.Rejected.stale(request.generation(), installed); lesson 2 will tell a higher "
                        + "number apart from a lower one."})
    @AlsoOnPostgres(value = "6.2", hints = {
        "The authority's install is given code here. Which outcome does your function give when p_generation is "
                + "below the generation in the row?",
        "IF p_generation < the row's generation THEN outcome := 'stale'; installed := the row's generation; RETURN; "
                + "END IF; and no UPDATE before it."})
    default void aWorkerWhoseGenerationWasReplacedIsRejected() {
        Worker workerA = course().worker();
        long generationA = course().generation(FUND_A);

        course().install(FUND_A, 2);
        ApplyResult result = workerA.apply(new ApplyRequest(FUND_A, generationA, "a-1", 5));

        assertThat(result).as("worker A read generation %d, then generation 2 was installed; A's apply must be "
                + "refused as stale, because the destination checks now, not when A looked", generationA)
                .isInstanceOf(Rejected.class)
                .extracting(rejected -> ((Rejected) rejected).reason()).isEqualTo(RejectionReason.STALE_GENERATION);
        assertThat(course().value(FUND_A)).as("fund-A's value after a rejected apply: a rejection changes nothing")
                .isZero();
    }

    @Koan(value = "1.3", edit = "FencedStore.apply",
            teaches = "A rejection tells the worker which generation it presented and which one is installed.",
            hints = {
                "Look at the factories on ApplyResult.Rejected: which arguments do they take?",
                "Rejected.stale(presented, installed): the first is the request's, the second the table's."})
    @AlsoOnPostgres(value = "6.3", hints = {
        "The Java side builds the rejection from your OUT parameters. Which one carries the installed generation?",
        "Set installed := the row's generation before you RETURN with outcome 'stale'."})
    default void theRejectionNamesThePresentedAndTheInstalledGeneration() {
        Worker workerA = course().worker();
        course().install(FUND_A, 2);

        ApplyResult result = workerA.apply(new ApplyRequest(FUND_A, 1, "a-1", 5));

        assertThat(result).as("a worker presenting generation 1 while generation 2 is installed")
                .isInstanceOf(Rejected.class);
        Rejected rejected = (Rejected) result;
        assertThat(rejected.presentedGeneration()).as("the generation the worker presented").isEqualTo(1);
        assertThat(rejected.installedGeneration()).as("the generation installed at the destination").isEqualTo(2);
    }

    @Koan(value = "1.5", edit = "FencedStore.apply",
            teaches = "The worker that holds the newly installed generation is admitted.",
            hints = {
                "After install(fund-A, 2), which generation must a request carry to be applied?",
                "Your comparison should admit exactly the installed generation, whatever its number."})
    @AlsoOnPostgres(value = "6.4", hints = {
        "Generation 2 is now in fund-A's row. Does your function compare with that row, or with a fixed number?",
        "Compare p_generation with the generation you selected from resources for p_resource, and nothing else."})
    default void theWorkerHoldingTheNewGenerationIsAdmitted() {
        course().install(FUND_A, 2);
        Worker workerB = course().worker();

        ApplyResult result = workerB.apply(new ApplyRequest(FUND_A, 2, "b-1", 4));

        assertThat(result).as("worker B presents generation 2, the one just installed").isEqualTo(new Applied(4));
    }
}
