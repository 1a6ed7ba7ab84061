package fencingkoans.evidence;

import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.koans.support.PgCourseKoans;
import fencingkoans.koans.support.Refusals;
import org.junit.jupiter.api.Test;

/**
 * Where lesson 6's reference function and the Java store judge a request's text alike, and where they differ on
 * purpose, as the lesson page says: in SQL, blank means spaces only, a control character is part of an id, and
 * a length counts characters. Half a
 * surrogate pair is refused on both tracks, by the Java side before the call on this one. Skipped, with the
 * reason, without a server.
 */
class PostgresRequestTextTest extends PgCourseKoans {

    /** One character outside the Basic Multilingual Plane: two Java chars, one PostgreSQL character. */
    private static final String WIDE = "\uD83D\uDD12";

    @Test
    void halfASurrogatePairIsRefusedBeforeTheCallSoTwoIdsNeverBecomeOne() {
        Refusals.assertRefusedBeforeAnyEffect(course, "requestId", new ApplyRequest(FUND_A, 1, "r\uD800", 5),
                new ApplyRequest(FUND_A, 1, "r\uDFFF", 5));
        Refusals.assertRefusedBeforeAnyEffect(course, "resource", new ApplyRequest("fund-\uD800", 1, "r1", 5));
    }

    @Test
    void blankMeansSpacesOnlyInTheFunctionOtherWhitespaceIsAnId() {
        Refusals.assertRefusedBeforeAnyEffect(course, "requestId", new ApplyRequest(FUND_A, 1, "   ", 5));

        assertThat(course.worker().apply(new ApplyRequest(FUND_A, 1, "\t", 5)))
                .as("a request id of one tab, which the Java store refuses as blank: the function trims spaces only")
                .isEqualTo(new Applied(5));
    }

    @Test
    void aControlCharacterIsPartOfTheIdInTheFunction() {
        assertThat(course.worker().apply(new ApplyRequest(FUND_A, 1, "r\u0007", 5)))
                .as("a request id holding a control character (BEL), which the Java store refuses: PostgreSQL stores "
                        + "text exactly and the function does not look for such characters")
                .isEqualTo(new Applied(5));
    }

    @Test
    void theLengthLimitCountsCharactersNotJavaChars() {
        Refusals.assertRefusedBeforeAnyEffect(course, "requestId",
                new ApplyRequest(FUND_A, 1, WIDE.repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH + 1), 5));

        String longest = WIDE.repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH);

        assertThat(course.worker().apply(new ApplyRequest(FUND_A, 1, longest, 5)))
                .as("a request id of 128 characters that are 256 Java chars, which the Java store refuses as too long")
                .isEqualTo(new Applied(5));
    }
}
