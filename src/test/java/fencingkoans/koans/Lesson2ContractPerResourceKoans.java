package fencingkoans.koans;

import static fencingkoans.koans.support.Refusals.assertRefusedBeforeAnyEffect;
import static fencingkoans.koans.support.Thrown.answerOrFailure;
import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.RejectionReason;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.koans.support.KoansOnEveryDestination;
import fencingkoans.koans.support.UnseenRequests;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Lesson 2 on the SQLite file. The install koans ask for the learner's {@code Authority}, which lesson 6 gives, and
 * the next ones are about what the Java store refuses before any SQL runs: they run here only. The koans of
 * {@link Lesson2OnEveryDestination}, at the end of this file, hold on every destination, and lesson 6 runs them
 * again on PostgreSQL.
 */
@Lesson(value = 2, title = "An explicit contract per resource", page = "docs/lessons/2-contract-per-resource.md")
class Lesson2ContractPerResourceKoans extends CourseKoans implements Lesson2OnEveryDestination {

    /** An ideographic space and an em space: {@code trim()} leaves both, {@code isBlank()} does not. */
    @Override
    public List<String> blanksBeyondSpaces() {
        return List.of("\u3000", "\u2003");
    }

    @Koan(edit = "Authority.install",
            teaches = "Each resource has its own generation: installing on fund-A leaves fund-B as it was, and "
                    + "fund-B's installs are judged by fund-B's generation.",
            hints = {
                "Two rules meet here: an install is judged by the generation of the resource it is given, and only a "
                        + "generation strictly above that one is installed. Which does the failure show missing?",
                "ledger.installedGeneration(resource) and ledger.setGeneration(resource, generation) touch one "
                        + "resource only: pass them the resource you were asked to install on, and name it in the "
                        + "answer. An offer not above the resource's own generation changes nothing and answers "
                        + "new InstallResult.NotHigher(resource, installed, offered)."})
    void installingOnFundALeavesFundBAsItWas() {
        Authority authority = course.authority();
        // Above 127, where two boxed Longs of one value are two objects.
        long onA = 300;
        long onB = 200;

        authority.install(FUND_A, onA);
        ResourceState fundBAfterA = course.state(FUND_B);
        InstallResult installedOnB = authority.install(FUND_B, onB);
        InstallResult againOnB = authority.install(FUND_B, onB);

        assertThat(course.generation(FUND_A)).as("fund-A after installing generation %d on it", onA).isEqualTo(onA);
        assertThat(fundBAfterA).as("fund-B after an install on fund-A: neither its generation nor its value may move")
                .isEqualTo(new ResourceState(FUND_B, 1, FUND_B_START_VALUE));
        assertThat(List.of(installedOnB, againOnB)).as("installing generation %d on fund-B, twice, while fund-A holds "
                + "%d: the first is above fund-B's own generation 1, whatever fund-A holds, and the second is not; "
                + "each answer names fund-B", onB, onA)
                .containsExactly(new InstallResult.Installed(FUND_B, onB),
                        new InstallResult.NotHigher(FUND_B, onB, onB));
        assertThat(course.generation(FUND_A)).as("fund-A after the installs on fund-B").isEqualTo(onA);
    }

    @Koan(edit = "Authority.install",
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

    @Koan(edit = "Authority.install",
            teaches = "Installing a lower generation is refused: authority never moves backwards.",
            hints = {
                "What should happen to a worker holding generation 3 if the generation could go back to 2?",
                "Compare with <=, not ==: a lower offer is refused just like an equal one."})
    void installingALowerGenerationIsRefused() {
        Authority authority = course.authority();
        InstallResult jump = authority.install(FUND_A, 3);

        InstallResult result = authority.install(FUND_A, 2);
        InstallResult lowest = authority.install(FUND_A, Long.MIN_VALUE);
        // A second authority on the same file: what is installed is the file's, not either authority's memory.
        Authority other = course.authority();
        other.install(FUND_A, 5);
        InstallResult belowTheOthers = authority.install(FUND_A, 4);
        other.install(FUND_B, Long.MAX_VALUE);
        InstallResult belowTheHighest = authority.install(FUND_B, 2);
        InstallResult theHighestAgain = authority.install(FUND_B, Long.MAX_VALUE);

        assertThat(jump).as("installing generation 3 while generation 1 is installed: higher is all it must be, so "
                + "it is installed, and the answer names the generation now installed")
                .isEqualTo(new InstallResult.Installed(FUND_A, 3));
        assertThat(result).as("offering generation 2 while generation 3 is installed")
                .isEqualTo(new InstallResult.NotHigher(FUND_A, 3, 2));
        assertThat(lowest).as("offering the lowest long there is: compare the two numbers, not their difference, "
                + "which overflows here (hint 2)").isEqualTo(new InstallResult.NotHigher(FUND_A, 3, Long.MIN_VALUE));
        assertThat(belowTheOthers).as("offering generation 4 after another authority on the same file installed "
                + "5: the installed generation is read from the file, every time").isEqualTo(
                new InstallResult.NotHigher(FUND_A, 5, 4));
        assertThat(belowTheHighest).as("offering generation 2 on fund-B, where Long.MAX_VALUE is installed: compare "
                + "the two numbers, not the installed one plus one, which overflows here (hint 2)")
                .isEqualTo(new InstallResult.NotHigher(FUND_B, Long.MAX_VALUE, 2));
        assertThat(theHighestAgain).as("offering Long.MAX_VALUE again on fund-B: equal is not higher (hint 2)")
                .isEqualTo(new InstallResult.NotHigher(FUND_B, Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(course.generation(FUND_A)).as("fund-A's generation after the refused installs").isEqualTo(5);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "No request at all is refused with a clear error, not a NullPointerException from deep inside.",
            hints = {
                "What does your apply do with a request that is itself null, before it reads any of its fields?",
                "Before reading any field: if request is null, throw new IllegalArgumentException(\"request must "
                        + "not be null\")."})
    void aMissingRequestIsRefusedWithAClearError() {
        assertRefusedBeforeAnyEffect(course, "request", (ApplyRequest) null);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "Control characters in a request id or resource are refused: what is stored must be readable.",
            hints = {
                "A request id such as \"r1\\n\" looks like r1 in a log line but is another key. Which characters "
                        + "should never reach the record table?",
                "If requestId or resource contains a character for which Character.isISOControl is true, throw an "
                        + "IllegalArgumentException whose message names the field."})
    void controlCharactersInARequestAreRefused() {
        // Every control character, not only those below 32: DEL and the C1 range (U+0080 to U+009F) too, each at the
        // start of the text, inside it and at its end.
        List<String> controls = IntStream.rangeClosed(0, 0x9F).filter(Character::isISOControl)
                .mapToObj(c -> String.valueOf((char) c)).toList();
        assertRefusedBeforeAnyEffect(course, "requestId", controls.stream()
                .flatMap(c -> Stream.of(c + "r1", "r" + c + "1", "r1" + c))
                .map(id -> new ApplyRequest(FUND_A, 1, id, 5)).toArray(ApplyRequest[]::new));
        assertRefusedBeforeAnyEffect(course, "resource", controls.stream()
                .flatMap(c -> Stream.of(c + FUND_A, "fund" + c + "-A", FUND_A + c))
                .map(name -> new ApplyRequest(name, 1, "r1", 5)).toArray(ApplyRequest[]::new));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A request id or resource that is not well-formed Unicode is refused: two requests must never "
                    + "share one id, nor two resources one name.",
            hints = {
                "Java strings are UTF-16 and SQLite stores UTF-8. What can half of a surrogate pair become on the way, "
                        + "in a request id and in a resource name alike?",
                "Refuse a requestId or a resource in which text.codePoints().anyMatch(c -> Character.getType(c) == "
                        + "Character.SURROGATE), with an IllegalArgumentException whose message starts with the "
                        + "field's name."})
    void aRequestIdThatIsNotWellFormedUnicodeIsRefused() {
        course.store().apply(new ApplyRequest(FUND_A, 1, "r?", 5));

        // The ids below each hold a lone half of a surrogate pair: stored as UTF-8, each would have a '?' where the
        // half was, and could be another request's id ("r?" is one already).
        assertRefusedBeforeAnyEffect(course, "requestId", loneHalvesIn("r").map(id -> new ApplyRequest(FUND_A, 1, id, 5))
                .toArray(ApplyRequest[]::new));
        // The same halves in a resource name would reach SQLite as "fund-A?" or "fund?-A", resources the request
        // never named.
        assertRefusedBeforeAnyEffect(course, "resource", loneHalvesIn(FUND_A).map(name -> new ApplyRequest(name, 1,
                "r2", 5)).toArray(ApplyRequest[]::new));
        // A whole pair is a character like any other: only a lone half is malformed. The zero-width joiner between
        // the two emoji is a format character (Unicode category Cf), not a control character.
        AtomicReference<ApplyResult> answer = new AtomicReference<>();
        Throwable thrown = catchThrowable(() -> answer.set(course.store().apply(new ApplyRequest(FUND_A, 1,
                "pay-\uD83D\uDC69\u200D\uD83D\uDCBB", 5))));
        String emoji = "a request id ending in the emoji for a technologist (U+1F469, U+200D, U+1F4BB): each emoji a "
                + "high and a low half of a pair together, joined by a zero-width joiner, which is a format character "
                + "and not a control one; well-formed Unicode, so an ordinary id (hint 2)";
        assertThat(thrown).as("%s, but apply threw %s", emoji, thrown).isNull();
        assertThat(answer.get()).as(emoji).isEqualTo(new Applied(10));
        // U+1D800's last 16 bits are those of a lone high half: a code point cut down to a char looks malformed.
        thrown = catchThrowable(() -> answer.set(course.store().apply(new ApplyRequest(FUND_A, 1, "pay-\uD836\uDC00",
                5))));
        String signWriting = "a request id ending in U+1D800, a SignWriting character, whose code point ends in the "
                + "bits of a lone half (D800): test each code point, not a char cut from it (hint 2)";
        assertThat(thrown).as("%s, but apply threw %s", signWriting, thrown).isNull();
        assertThat(answer.get()).as(signWriting).isEqualTo(new Applied(15));
    }

    /**
     * {@code text} with a lone half of a surrogate pair in it: each end of both ranges (the high one's private-use
     * block too) at the start, inside and at the end; a pair in the wrong order, which is two lone halves; and a half
     * after a line separator or a '?', where a check by pattern or by round trip looks away.
     */
    private static Stream<String> loneHalvesIn(String text) {
        Stream<String> placed = Stream.of("\uD800", "\uDB7F", "\uDB80", "\uDBFF", "\uDC00", "\uDFFF")
                .flatMap(half -> Stream.of(half + text, text.charAt(0) + half + text.substring(1) + "x", text + half));
        return Stream.concat(placed, Stream.of(text + "\uDC00\uD800", text + "\u2028\uD800", text + "?\uD800"));
    }
}

/**
 * The koans of lesson 2 that hold on every destination, written in its file: {@link Lesson2ContractPerResourceKoans} runs them on
 * SQLite, and lesson 6 runs each of them again on PostgreSQL with hints in SQL of its own.
 */
interface Lesson2OnEveryDestination extends KoansOnEveryDestination {

    /**
     * White space other than spaces that this destination counts as blank: Java's {@code isBlank} counts all of it,
     * SQL's {@code btrim} only spaces (lesson 6's table of differences).
     */
    default List<String> blanksBeyondSpaces() {
        return List.of();
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "The destination requires equality: a larger generation invented by a worker is rejected.",
            hints = {
                "Which reason does your apply give a generation above the installed one? Stale means it was "
                        + "installed once and replaced since; a number above the installed one was never installed.",
                "Only the authority issues generations. A higher number than the installed one was never issued: "
                        + "return ApplyResult.Rejected.unissued(presented, installed)."})
    default void aLargerGenerationInventedByTheWorkerIsRejected() {
        Worker worker = course().worker();

        ApplyResult result = worker.apply(new ApplyRequest(FUND_A, 99, "bold-1", 5));
        ApplyResult nextOne = worker.apply(new ApplyRequest(FUND_A, 2, "bold-2", 5));
        course().install(FUND_B, 9);
        ApplyResult onFundB = worker.apply(new ApplyRequest(FUND_B, 10, "bold-3", 5));

        assertThat(result).as("generation 1 is installed and a worker presents generation 99, which no authority "
                + "issued: a bigger number is not more authority")
                .isEqualTo(Rejected.unissued(99, 1));
        assertThat(nextOne).as("generation 1 is installed and a worker presents generation 2, only one above it: the "
                + "next number is not installed until the authority installs it, however soon that may come")
                .isEqualTo(Rejected.unissued(2, 1));
        assertThat(onFundB).as("fund-B, where generation 9 is installed, and a worker presents 10: the rejection names "
                + "the generation installed on the request's own resource, and 10 is above 9 as a number (as text "
                + "it would sort below)").isEqualTo(Rejected.unissued(10, 9));
        assertThat(course().value(FUND_A)).as("fund-A's value after both rejections").isZero();
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "Generations are per resource: generation 3 on fund-A gives no authority over fund-B.",
            hints = {
                "Is generation 3 admitted on fund-B, where generation 1 is installed? The koan before this "
                        + "one has the same cause, seen from another side.",
                "Read ledger.installedGeneration(request.resource()) and admit only that exact number."})
    default void aGenerationCountsOnlyOnItsOwnResource() {
        course().install(FUND_A, 3);
        Worker worker = course().worker();

        ApplyResult onB = worker.apply(new ApplyRequest(FUND_B, 3, "b-1", 5));

        assertThat(onB).as("generation 3 is installed on fund-A only; fund-B still holds generation 1")
                .isEqualTo(Rejected.unissued(3, 1));
        assertThat(worker.apply(new ApplyRequest(FUND_B, 1, "b-2", 5)))
                .as("fund-B's own generation 1 is still the one to present").isEqualTo(new Applied(FUND_B_START_VALUE + 5));
    }

    @Koan(edit = "FencedStore.apply and Authority.install",
            teaches = "A resource the destination does not hold is rejected, and nothing is created for it.",
            hints = {
                "What does ledger.installedGeneration return for a resource that does not exist?",
                "An empty OptionalLong: answer Rejected.unknownResource(request) in apply, and "
                        + "new InstallResult.UnknownResource(resource) in install, before anything is written."})
    default void anUnknownResourceIsRejectedAndNothingIsCreated() {
        Worker worker = course().worker();
        List<String> before = course().contents();

        ApplyResult applied = worker.apply(new ApplyRequest("fund-C", 1, "c-1", 5));
        // Close to fund-A: a space before it, its upper case, two LIKE patterns (_ is any one character, % any run
        // of them) that would find it, its full-width letters (which Unicode normalization folds into fund-A), and
        // a quote that, pasted into SQL, ends the name and matches every row; and a name longer than an id may be,
        // which is no malformed request: only the request id has a length limit.
        List<String> nearNames = List.of(" " + FUND_A, FUND_A.toUpperCase(Locale.ROOT), "fund_A", "fund%",
                "\uFF46\uFF55\uFF4E\uFF44-A", FUND_A + "' OR name <> '", FUND_A + "-" + "x".repeat(
                        ApplyRequest.MAX_REQUEST_ID_LENGTH));
        List<Object> nearMisses = nearNames.stream()
                .map(name -> answerOrFailure(worker, new ApplyRequest(name, 1, "c-2", 5))).toList();
        InstallResult installed = course().install("fund-C", 2);
        InstallResult installedAtZero = course().install("fund-C", 0);

        assertThat(applied).as("an apply on fund-C, which does not exist").isInstanceOf(Rejected.class)
                .extracting(result -> ((Rejected) result).reason()).isEqualTo(RejectionReason.UNKNOWN_RESOURCE);
        assertThat(nearMisses).as("applies on \"%s\": names the destination does not hold, however close to one it "
                + "holds; a resource is named exactly, as a request id is, never trimmed, folded, normalized, matched "
                + "as a LIKE pattern or pasted into SQL, and a name of any length is looked up",
                String.join("\", \"", nearNames))
                .allSatisfy(result -> assertThat(result).isInstanceOf(Rejected.class)
                        .extracting(rejected -> ((Rejected) rejected).reason())
                        .isEqualTo(RejectionReason.UNKNOWN_RESOURCE));
        assertThat(installed).as("an install on fund-C, which does not exist")
                .isEqualTo(new InstallResult.UnknownResource("fund-C"));
        assertThat(installedAtZero).as("an install of generation 0 on fund-C: NotHigher would say fund-C holds a "
                + "generation of at least 0; it holds none, since it does not exist")
                .isEqualTo(new InstallResult.UnknownResource("fund-C"));
        assertThat(course().contents()).as("every row of the database: nothing may be created or changed")
                .isEqualTo(before);
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A request without a request id is refused with an error naming the field, before any effect.",
            hints = {
                "The destination trusts nothing it is sent. What should happen before any SQL runs?",
                "At the top of apply: if requestId is null or blank, throw new IllegalArgumentException(\"requestId "
                        + "must not be null or blank\")."})
    default void aRequestWithoutARequestIdIsRefusedBeforeAnyEffect() {
        assertRefusedBeforeAnyEffect(course(), "requestId", Stream.concat(Stream.of(null, "  "),
                blanksBeyondSpaces().stream()).map(id -> new ApplyRequest(FUND_A, 1, id, 5)).toArray(ApplyRequest[]::new));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A request without a resource is refused with an error naming the field, before any effect.",
            hints = {
                "The same check as the koan before, for another field.",
                "If resource is null or blank, throw new IllegalArgumentException(\"resource must not be null or "
                        + "blank\")."})
    default void aRequestWithoutAResourceIsRefusedBeforeAnyEffect() {
        assertRefusedBeforeAnyEffect(course(), "resource", Stream.concat(Stream.of(null, "", "  "),
                blanksBeyondSpaces().stream()).map(name -> new ApplyRequest(name, 1, "r1", 5))
                .toArray(ApplyRequest[]::new));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "An oversized request id is refused: the destination bounds what it is asked to remember.",
            hints = {
                "ApplyRequest declares a limit for request ids. Do you enforce it?",
                "The limit itself is allowed: only an id longer than the limit is refused.",
                "If requestId.length() > ApplyRequest.MAX_REQUEST_ID_LENGTH, throw an IllegalArgumentException "
                        + "whose message starts with \"requestId\"."})
    default void anOversizedRequestIdIsRefused() {
        // The space at the end of the second id is one of its characters: the length is the id's, as sent.
        assertRefusedBeforeAnyEffect(course(), "requestId",
                new ApplyRequest(FUND_A, 1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH + 1), 5),
                new ApplyRequest(FUND_A, 1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH) + " ", 5));

        assertThat(course().worker().apply(
                        new ApplyRequest(FUND_A, 1, "r".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH), 5)))
                .as("a request id of exactly %d characters: the limit itself is allowed (hint 2)",
                        ApplyRequest.MAX_REQUEST_ID_LENGTH)
                .isEqualTo(new Applied(5));
        assertThat(course().worker().apply(
                        new ApplyRequest(FUND_A, 1, "\u00E9".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH), 5)))
                .as("a request id of %d characters \u00E9, each two bytes in UTF-8: the limit counts characters, not "
                        + "bytes", ApplyRequest.MAX_REQUEST_ID_LENGTH)
                .isEqualTo(new Applied(10));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A generation below 1 is malformed: generations start at 1 and only grow.",
            hints = {
                "Is 0 stale, unissued, or simply not a generation at all?",
                "If generation <= 0, throw an IllegalArgumentException whose message starts with \"generation\"."})
    default void aGenerationBelowOneIsRefused() {
        course().worker().apply(new ApplyRequest(FUND_A, 1, "r1", 5));

        // r1 was applied: a malformed request under its id must still be refused, not answered from its record.
        // On fund-C, which does not exist, it is malformed all the same: the request is judged before the resource.
        assertRefusedBeforeAnyEffect(course(), "generation",
                new ApplyRequest(FUND_A, 0, "r1", 5), new ApplyRequest(FUND_A, -1, "r1", 5),
                new ApplyRequest(FUND_A, 0, "r2", 5), new ApplyRequest("fund-C", 0, "c-1", 5));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A delta that would overflow the value is refused, and the value stays as it was.",
            hints = {
                "ledger.addToValue already refuses an overflow. Does anything in your apply swallow that error, "
                        + "or write something before it?",
                "Let the IllegalArgumentException from addToValue reach the caller, and write nothing before it. "
                        + "Add only after the generation checks: a request they turn away never has its sum tried."})
    default void aDeltaThatWouldOverflowTheValueIsRefusedAndChangesNothing() {
        course().worker().apply(new ApplyRequest(FUND_A, 1, "big", Long.MAX_VALUE));

        assertRefusedBeforeAnyEffect(course(), "delta", new ApplyRequest(FUND_A, 1, "one-more", 1));

        // A request the generation turns away is answered for its generation: no sum is tried for it.
        course().install(FUND_A, 2);
        Worker worker = course().worker();
        Object stale = answerOrFailure(worker, new ApplyRequest(FUND_A, 1, "late", 1));
        Object unissued = answerOrFailure(worker, new ApplyRequest(FUND_A, 3, "early", 1));
        String atTheBound = " on fund-A, whose value is Long.MAX_VALUE: the generation is judged before any sum is "
                + "tried, and this request never gets as far as its delta";
        assertThat(stale).as("a stale request (generation 1 of 2) adding 1" + atTheBound).isEqualTo(Rejected.stale(1, 2));
        assertThat(unissued).as("an unissued request (generation 3 of 2) adding 1" + atTheBound)
                .isEqualTo(Rejected.unissued(3, 2));
        assertThat(answerOrFailure(worker, new ApplyRequest(FUND_A, 2, "back-one", -1))).as("a withdrawal of 1 from "
                + "fund-A at Long.MAX_VALUE: only a sum beyond a long is refused, and this one is one below the "
                + "bound").isEqualTo(new Applied(Long.MAX_VALUE - 1));
    }

    @Koan(edit = "FencedStore.apply",
            teaches = "A negative delta is an ordinary request: a withdrawal is admitted like a deposit, and a zero "
                    + "delta is fenced like any other.",
            hints = {
                "The contract bounds the generation, the request id and the resource, and refuses only a sum that "
                        + "overflows. Does your apply refuse anything else, or let anything through unchecked?",
                "A delta below zero is a withdrawal, not a malformed request: check it no differently from a deposit, "
                        + "and let ledger.addToValue refuse only an overflow. A delta of 0 goes through the same "
                        + "generation checks as every other."})
    default void aWithdrawalIsAnOrdinaryRequest() {
        Worker worker = course().worker();

        ApplyResult withdrawal = worker.apply(new ApplyRequest(FUND_B, 1, "w-1", -30));
        ApplyResult nothing = worker.apply(new ApplyRequest(FUND_B, 1, "w-2", 0));
        course().install(FUND_B, 2);
        ApplyResult staleProbe = worker.apply(new ApplyRequest(FUND_B, 1, "w-3", 0));

        assertThat(withdrawal).as("a withdrawal of 30 from fund-B, which holds %d: a delta below zero is as ordinary "
                + "as one above", FUND_B_START_VALUE).isEqualTo(new Applied(FUND_B_START_VALUE - 30));
        assertThat(nothing).as("a request that adds 0: it changes no value, and it is still a request like any other")
                .isEqualTo(new Applied(FUND_B_START_VALUE - 30));
        assertThat(staleProbe).as("a request that adds 0 under generation 1 once generation 2 is installed: it "
                + "changes no value, yet an Applied would tell a replaced worker that its authority still holds, and "
                + "its id would be kept as if it had been admitted").isEqualTo(Rejected.stale(1, 2));
        assertThat(course().value(FUND_B)).as("fund-B's value after the withdrawal").isEqualTo(FUND_B_START_VALUE - 30);
    }

    @Koan(edit = "FencedStore.apply and Authority.install",
            teaches = "The contract holds for every request, not only for those the koans wrote: each resource judged by its own generation, an invented generation refused, an unknown resource refused, an install that is not higher refused.",
            hints = {
                "Nothing new to write: the message names the step your store answered differently, and the steps "
                        + "before it on the same resource. Work them out by hand with the lesson's rules.",
                "Look at the resource of the failing step: which generation does your store compare with, and is it that resource's own? Graded runs draw a new sequence each time."})
    default void eachResourceKeepsItsContractOnRequestsNoKoanWrote() {
        UnseenRequests.assertTheStoreFollowsTheContract(course(), UnseenRequests.Scope.CONTRACT_PER_RESOURCE);
    }
}
