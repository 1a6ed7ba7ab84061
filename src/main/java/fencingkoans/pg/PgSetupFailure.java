package fencingkoans.pg;

import java.util.List;

/**
 * Lesson 6's set-up could not give the koans a working database, because of the learner's SQL: the real cause,
 * the file and the place to edit, what PostgreSQL said (when it said anything), and hints written for that cause.
 * The koan report shows these instead of the hints of the koan that happened to run first.
 *
 * @param cause       what is wrong, in a sentence or two
 * @param file        the file to edit, from the project's root
 * @param line        the line in that file, from 1
 * @param column      the column in that line, from 1, in characters
 * @param serverSaid  PostgreSQL's SQLSTATE and message, or what every call would meet when no statement failed
 * @param hints       a nudge first, then closer to the answer
 */
public final class PgSetupFailure extends RuntimeException {

    private final String cause;
    private final String file;
    private final int line;
    private final int column;
    private final String serverSaid;
    private final List<String> hints;

    PgSetupFailure(String cause, TrackScript script, TrackScript.Place place, String serverSaid, List<String> hints,
            Throwable from) {
        super("Lesson 6's set-up failed: " + cause + " Edit " + script.learnerFile() + ":" + place.line() + ":"
                + place.column() + ". PostgreSQL: " + serverSaid + ". Hint: " + hints.get(0), from);
        this.cause = cause;
        this.file = script.learnerFile();
        this.line = place.line();
        this.column = place.column();
        this.serverSaid = serverSaid;
        this.hints = List.copyOf(hints);
    }

    public String cause() {
        return cause;
    }

    /** The file, line and column as one {@code path:line:column}, which editors and terminals open. */
    public String location() {
        return file + ":" + line + ":" + column;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    public String serverSaid() {
        return serverSaid;
    }

    public List<String> hints() {
        return hints;
    }
}
