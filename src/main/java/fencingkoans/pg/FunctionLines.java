package fencingkoans.pg;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the line PostgreSQL names in an error from inside the learner's function ("PL/pgSQL function
 * fencing.apply_request(text,bigint,text,bigint) line 37 at SQL statement") into a line of the learner's
 * apply_request.sql, as it was installed by the last database set up in this JVM. PL/pgSQL counts from the start
 * of the body, so without this the number points at some other line of the file. Given code.
 */
public final class FunctionLines {

    /** The schema is left out when the function's search_path holds it, as the reference's does. */
    private static final Pattern BODY_LINE = Pattern.compile(
            "PL/pgSQL function (?:fencing\\.)?apply_request\\(text,bigint,text,bigint\\) line (\\d+)");

    /** The apply_request.sql that the last set-up ran; null before any. */
    private static volatile TrackScript installed;

    private FunctionLines() {
    }

    static void installed(TrackScript applyRequest) {
        installed = applyRequest;
    }

    /**
     * For the first line of the function that {@code text} names, "line 37 of the function is
     * exercises/src/main/resources/fencingkoans/pg/apply_request.sql:64"; empty when it names none, or when no
     * function was installed here.
     */
    public static Optional<String> whereIn(String text) {
        TrackScript script = installed;
        Matcher named = BODY_LINE.matcher(String.valueOf(text));
        if (script == null || !named.find()) {
            return Optional.empty();
        }
        int bodyLine = Integer.parseInt(named.group(1));
        return script.first(SetupDiagnosis.CREATE_FUNCTION).map(create -> "line " + bodyLine
                + " of the function is " + script.learnerFile() + ":" + script.lineOfBody(create, bodyLine).line());
    }
}
