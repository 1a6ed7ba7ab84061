package fencingkoans.koans;

import static fencingkoans.koans.support.Refusals.assertRefusedBeforeAnyEffect;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;

/**
 * Lesson 2 on the SQLite file. Koans 2.4 to 2.11 are in {@link Lesson2KoansOnEveryDestination}: they hold on every
 * destination, and lesson 6 runs them again on PostgreSQL. The install koans (2.1 to 2.3) ask for the learner's
 * {@code Authority}, which lesson 6 gives; koans 2.12 to 2.14 are about what the Java store refuses before any
 * SQL runs.
 */
@Lesson(value = 2, title = "An explicit contract per resource", page = "docs/lessons/2-contract-per-resource.md")
class Lesson2ContractPerResourceKoans extends CourseKoans implements Lesson2KoansOnEveryDestination {

    @Koan(value = "2.1", edit = "Authority.install",
            teaches = "Each resource has its own generation: installing on fund-A leaves fund-B as it was.",
            hints = {
                "Which rows does your install change? Look at the resource it is given.",
                "ledger.setGeneration(resource, generation) touches one resource only: pass it the resource "
                        + "you were asked to install on."})
    void installingOnFundALeavesFundBAsItWas() {
        Authority authority = course.authority();

        authority.install(FUND_A, 2);

        assertThat(course.generation(FUND_A)).as("fund-A after installing generation 2 on it").isEqualTo(2);
        assertThat(course.state(FUND_B)).as("fund-B after an install on fund-A: neither its generation nor its "
                + "value may move").isEqualTo(new ResourceState(FUND_B, 1, FUND_B_START_VALUE));
    }

    @Koan(value = "2.2", edit = "Authority.install",
            teaches = "Installing the generation that is already installed is refused: only strictly higher moves.",
            hints = {
                "If the same generation could be installed twice, two holders could both believe they are new.",
                "Read the installed generation first; if the offered one is not greater, return "
                        + "new InstallResult.NotHigher(resource, installed, offered) and change nothing."})
    void installingTheSameGenerationAgainIsRefused() {
        Authority authority = course.authority();

        InstallResult result = authority.install(FUND_A, 1);

        assertThat(result).as("offering generation 1 while generation 1 is installed")
                .isEqualTo(new InstallResult.NotHigher(FUND_A, 1, 1));
        assertThat(course.generation(FUND_A)).as("fund-A's generation after the refused install").isEqualTo(1);
    }

    @Koan(value = "2.3", edit = "Authority.install",
            teaches = "Installing a lower generation is refused: authority never moves backwards.",
            hints = {
                "What should happen to a worker holding generation 3 if the generation could go back to 2?",
                "Compare with <=, not ==: a lower offer is refused just like an equal one."})
    void installingALowerGenerationIsRefused() {
        Authority authority = course.authority();
        authority.install(FUND_A, 3);

        InstallResult result = authority.install(FUND_A, 2);

        assertThat(result).as("offering generation 2 while generation 3 is installed")
                .isEqualTo(new InstallResult.NotHigher(FUND_A, 3, 2));
        assertThat(course.generation(FUND_A)).as("fund-A's generation after the refused install").isEqualTo(3);
    }

    @Koan(value = "2.12", edit = "FencedStore.apply",
            teaches = "No request at all is refused with a clear error, not a NullPointerException from deep inside.",
            hints = {
                "What does your apply do with a request that is itself null, before it reads any of its fields?",
                "Before reading any field: if request is null, throw new IllegalArgumentException(\"request must "
                        + "not be null\")."})
    void aMissingRequestIsRefusedWithAClearError() {
        assertRefusedBeforeAnyEffect(course, "request", (ApplyRequest) null);
    }

    @Koan(value = "2.13", edit = "FencedStore.apply",
            teaches = "Control characters in a request id or resource are refused: what is stored must be readable.",
            hints = {
                "A request id such as \"r1\\n\" looks like r1 in a log line but is another key. Which characters "
                        + "should never reach the record table?",
                "If requestId or resource contains a character for which Character.isISOControl is true, throw an "
                        + "IllegalArgumentException whose message names the field."})
    void controlCharactersInARequestAreRefused() {
        assertRefusedBeforeAnyEffect(course, "requestId", new ApplyRequest(FUND_A, 1, "r1\n", 5));
        assertRefusedBeforeAnyEffect(course, "resource", new ApplyRequest(FUND_A + "\u0000", 1, "r1", 5));
    }


    @Koan(value = "2.14", edit = "FencedStore.apply",
            teaches = "A request id that is not well-formed Unicode is refused: two requests must never share one id.",
            hints = {
                "Java strings are UTF-16 and SQLite stores UTF-8. What can half of a surrogate pair become on the way?",
                "Refuse a requestId in which text.codePoints().anyMatch(c -> Character.getType(c) == "
                        + "Character.SURROGATE), with an IllegalArgumentException whose message starts with "
                        + "\"requestId\"."})
    void aRequestIdThatIsNotWellFormedUnicodeIsRefused() {
        course.store().apply(new ApplyRequest(FUND_A, 1, "r?", 5));

        // The id below ends in a lone half of a surrogate pair: stored as UTF-8 it would become "r?", another id.
        assertRefusedBeforeAnyEffect(course, "requestId", new ApplyRequest(FUND_A, 1, "r\uD800", 5));
    }
}
