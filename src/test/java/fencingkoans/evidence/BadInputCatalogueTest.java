package fencingkoans.evidence;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every malformed request and call the store can be handed: each gets a clear error or a rejection, and the
 * database afterwards holds exactly what it held before, row for row and byte for byte.
 */
class BadInputCatalogueTest extends CourseKoans {

    private static final String ERROR = "threw IllegalArgumentException: ";

    /** A call with bad input, what it must answer, and any set-up that must happen before "before". */
    record BadInput(String name, BiFunction<FencedStore, Authority, Object> setUp,
            BiFunction<FencedStore, Authority, Object> call, String answer) {

        BadInput(String name, BiFunction<FencedStore, Authority, Object> call, String answer) {
            this(name, (store, authority) -> null, call, answer);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<BadInput> catalogue() {
        return Stream.of(
                apply("a null request", null, ERROR + "request must not be null"),
                apply("a null resource", request(null, 1, "r1", 7), ERROR + "resource must not be null or blank"),
                apply("a blank resource", request(" ", 1, "r1", 7), ERROR + "resource must not be null or blank"),
                apply("a control character in the resource", request(FUND_A + "\0", 1, "r1", 7),
                        ERROR + "resource must not contain control characters"),
                apply("a null request id", request(FUND_A, 1, null, 7), ERROR + "requestId must not be null or blank"),
                apply("an empty request id", request(FUND_A, 1, "", 7), ERROR + "requestId must not be null or blank"),
                apply("a blank request id", request(FUND_A, 1, " \t ", 7),
                        ERROR + "requestId must not be null or blank"),
                apply("a request id one character too long", request(FUND_A, 1, "r".repeat(129), 7),
                        ERROR + "requestId must be at most 128 characters, was 129"),
                apply("a request id of a million characters", request(FUND_A, 1, "r".repeat(1_000_000), 7),
                        ERROR + "requestId must be at most 128 characters, was 1000000"),
                apply("a line break in the request id", request(FUND_A, 1, "r1\n", 7),
                        ERROR + "requestId must not contain control characters"),
                apply("a NUL in the request id", request(FUND_A, 1, "r\u00001", 7),
                        ERROR + "requestId must not contain control characters"),
                apply("a C1 control character in the request id", request(FUND_A, 1, "r\u00851", 7),
                        ERROR + "requestId must not contain control characters"),
                apply("an unpaired surrogate in the request id", request(FUND_A, 1, "r\uD800", 7),
                        ERROR + "requestId must be well-formed Unicode"),
                apply("an unpaired surrogate in the resource", request(FUND_A + "\uDC00", 1, "r1", 7),
                        ERROR + "resource must be well-formed Unicode"),
                apply("generation zero", request(FUND_A, 0, "r1", 7), ERROR + "generation must be positive, was 0"),
                apply("a negative generation", request(FUND_A, -1, "r1", 7),
                        ERROR + "generation must be positive, was -1"),
                apply("the lowest long as generation", request(FUND_A, Long.MIN_VALUE, "r1", 7),
                        ERROR + "generation must be positive, was " + Long.MIN_VALUE),
                apply("the highest long as generation", request(FUND_A, Long.MAX_VALUE, "r1", 7),
                        "reason=UNISSUED_GENERATION"),
                apply("an unknown resource", request("fund-C", 1, "r1", 7), "reason=UNKNOWN_RESOURCE"),
                apply("a resource name in other case", request("FUND-A", 1, "r1", 7), "reason=UNKNOWN_RESOURCE"),
                apply("a resource name with a trailing space", request(FUND_A + " ", 1, "r1", 7),
                        "reason=UNKNOWN_RESOURCE"),
                apply("a LIKE wildcard as resource", request("fund-%", 1, "r1", 7), "reason=UNKNOWN_RESOURCE"),
                apply("SQL in the resource", request("fund-A' OR '1'='1", 1, "r1", 7), "reason=UNKNOWN_RESOURCE"),
                apply("SQL in the request id, under an invented generation",
                        request(FUND_A, 2, "r1'); DROP TABLE request_records; --", 7),
                        "reason=UNISSUED_GENERATION"),
                apply("a delta that overflows the value", request(FUND_B, 1, "r1", Long.MAX_VALUE),
                        ERROR + "delta " + Long.MAX_VALUE + " would overflow the value 100 of " + FUND_B),
                new BadInput("a delta that overflows a negative value downwards",
                        (store, authority) -> store.apply(request(FUND_A, 1, "r0", -1)),
                        (store, authority) -> store.apply(request(FUND_A, 1, "r1", Long.MIN_VALUE)),
                        ERROR + "delta " + Long.MIN_VALUE + " would overflow the value -1 of " + FUND_A),
                new BadInput("a stale generation",
                        (store, authority) -> authority.install(FUND_A, 2),
                        (store, authority) -> store.apply(request(FUND_A, 1, "r1", 7)),
                        "reason=STALE_GENERATION"),
                new BadInput("a request id used before with another delta",
                        (store, authority) -> store.apply(request(FUND_A, 1, "r1", 7)),
                        (store, authority) -> store.apply(request(FUND_A, 1, "r1", 8)),
                        "reason=CONFLICTING_REQUEST"),
                new BadInput("an apply on a closed store", (store, authority) -> {
                    store.close();
                    return store.apply(request(FUND_A, 1, "r1", 7));
                }, "threw StoreException: BEGIN IMMEDIATE failed"),
                install("installing the installed generation again", FUND_A, 1, "NotHigher"),
                install("installing generation zero", FUND_A, 0, "NotHigher"),
                install("installing a negative generation", FUND_A, -5, "NotHigher"),
                install("installing the lowest long", FUND_A, Long.MIN_VALUE, "NotHigher"),
                install("installing on an unknown resource", "fund-C", 2, "UnknownResource"),
                install("installing on a null resource", null, 2, "UnknownResource"),
                install("installing on SQL", "fund-A' OR '1'='1", 2, "UnknownResource"),
                new BadInput("installing a lower generation", (store, authority) -> authority.install(FUND_A, 5),
                        (store, authority) -> authority.install(FUND_A, 4), "NotHigher"),
                new BadInput("an install on a closed authority", (store, authority) -> {
                    authority.close();
                    return authority.install(FUND_A, 2);
                }, "threw StoreException: BEGIN IMMEDIATE failed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void badInputGetsAClearAnswerAndChangesNothing(BadInput bad) throws IOException {
        FencedStore store = course.store();
        Authority authority = course.authority();
        bad.setUp().apply(store, authority);
        List<String> rowsBefore = course.contents();
        byte[] bytesBefore = Files.readAllBytes(course.file());

        Object answer = answer(bad, store, authority);

        assertThat(answer).as("the answer to %s", bad.name()).asString().contains(bad.answer());
        assertThat(course.contents()).as("every row after %s: nothing may change", bad.name())
                .isEqualTo(rowsBefore);
        assertThat(Files.readAllBytes(course.file())).as("the database file after %s: not one byte may change",
                bad.name()).isEqualTo(bytesBefore);
    }

    private static Object answer(BadInput bad, FencedStore store, Authority authority) {
        try {
            return bad.call().apply(store, authority);
        } catch (RuntimeException e) {
            return Step.thrown(e);
        }
    }

    private static BadInput apply(String name, ApplyRequest request, String answer) {
        return new BadInput(name, (store, authority) -> store.apply(request), answer);
    }

    private static BadInput install(String name, String resource, long generation, String answer) {
        return new BadInput(name, (store, authority) -> authority.install(resource, generation), answer);
    }

    private static ApplyRequest request(String resource, long generation, String requestId, long delta) {
        return new ApplyRequest(resource, generation, requestId, delta);
    }
}
