package fencingkoans.pg;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the track's SQL files twice over: as the learner wrote it, and as it runs, with {@code ${worker}}
 * replaced by the run's worker role. It splits what runs into statements the way PostgreSQL reads them, so that
 * each statement can be sent alone, and turns a place in what ran back into a line and column of the learner's
 * file. Given code.
 */
final class TrackScript {

    /** Written as {@code ${worker}} in the track's SQL, replaced by the run's worker role. */
    static final String WORKER_PLACEHOLDER = "${worker}";

    /** Where the learner edits the file, as the report names it. */
    private static final String LEARNER_FOLDER = "exercises/src/main/resources/";

    /** A dollar quote's opening tag: {@code $$} or {@code $body$}; a tag never starts with a digit ({@code $1}). */
    private static final Pattern DOLLAR_TAG =
            Pattern.compile("\\$(?:[A-Za-z_\\x80-\\uffff][A-Za-z0-9_\\x80-\\uffff]*)?\\$");

    /** The dollar quote that opens a function's body: {@code AS $$} or {@code AS $body$}. */
    private static final Pattern BODY_START = Pattern.compile("(?i)\\bAS\\s+\\$(?:[A-Za-z_][A-Za-z0-9_]*)?\\$");

    /** One statement of what runs: its text ends at its semicolon; {@code firstWord} skips blanks and comments. */
    record Statement(String sql, int start, int firstWord) {
    }

    /** One replaced placeholder: where its replacement lies in what runs, and where the placeholder was written. */
    private record Replacement(int start, int end, int writtenStart) {
    }

    private final String resource;
    private final String written;
    private final String runs;
    private final List<Replacement> replacements = new ArrayList<>();

    TrackScript(String resource, String written, String worker) {
        this.resource = resource;
        this.written = written;
        StringBuilder runs = new StringBuilder();
        int from = 0;
        for (int at = written.indexOf(WORKER_PLACEHOLDER); at >= 0; at = written.indexOf(WORKER_PLACEHOLDER, from)) {
            runs.append(written, from, at);
            replacements.add(new Replacement(runs.length(), runs.length() + worker.length(), at));
            runs.append(worker);
            from = at + WORKER_PLACEHOLDER.length();
        }
        this.runs = runs.append(written.substring(from)).toString();
    }

    /** The file to edit, for example {@code exercises/src/main/resources/fencingkoans/pg/grants.sql}. */
    String learnerFile() {
        return LEARNER_FOLDER + resource;
    }

    /** The file's own name, {@code grants.sql} or {@code apply_request.sql}. */
    String fileName() {
        return resource.substring(resource.lastIndexOf('/') + 1);
    }

    /** What runs, cut at every semicolon that ends a statement; statements of only blanks and comments are left out. */
    List<Statement> statements() {
        List<Statement> statements = new ArrayList<>();
        int start = 0;
        int firstWord = -1;
        int at = 0;
        while (at < runs.length()) {
            char c = runs.charAt(at);
            char next = at + 1 < runs.length() ? runs.charAt(at + 1) : '\0';
            if (c == '-' && next == '-') {
                int endOfLine = runs.indexOf('\n', at);
                at = endOfLine < 0 ? runs.length() : endOfLine;
                continue;
            }
            if (c == '/' && next == '*') {
                at = afterBlockComment(at);
                continue;
            }
            if (firstWord < 0 && !Character.isWhitespace(c)) {
                firstWord = at;
            }
            if (c == ';') {
                statements.add(new Statement(runs.substring(start, at + 1), start, firstWord));
                start = at + 1;
                firstWord = -1;
            }
            at = c == '\'' || c == '"' ? afterQuoted(at) : c == '$' ? afterDollarQuoted(at) : at + 1;
        }
        if (firstWord >= 0) {
            statements.add(new Statement(runs.substring(start), start, firstWord));
        }
        return statements;
    }

    /**
     * "line L, column C" in the learner's file for a place in what runs; a place inside a replaced
     * {@code ${worker}} is the placeholder's own place. Columns count characters, as PostgreSQL's positions do.
     */
    Place place(int offsetInWhatRuns) {
        int writtenOffset = offsetInWhatRuns;
        for (Replacement replacement : replacements) {
            if (offsetInWhatRuns < replacement.start()) {
                break;
            }
            writtenOffset = offsetInWhatRuns < replacement.end() ? replacement.writtenStart()
                    : offsetInWhatRuns - replacement.end() + replacement.writtenStart() + WORKER_PLACEHOLDER.length();
        }
        writtenOffset = Math.min(Math.max(writtenOffset, 0), written.length());
        int lineStart = written.lastIndexOf('\n', writtenOffset - 1) + 1;
        int line = (int) written.substring(0, lineStart).chars().filter(ch -> ch == '\n').count() + 1;
        return new Place(line, written.codePointCount(lineStart, writtenOffset) + 1);
    }

    /**
     * The place of PostgreSQL's {@code position} (1-based, in characters) within {@code statement}; outside the
     * statement, or 0 (none given), the statement's first word.
     */
    Place place(Statement statement, int position) {
        int characters = statement.sql().codePointCount(0, statement.sql().length());
        if (position < 1 || position > characters) {
            return place(statement.firstWord());
        }
        return place(statement.start() + statement.sql().offsetByCodePoints(0, position - 1));
    }

    /** The first statement whose text from its first word on matches {@code pattern} from its start, if any. */
    Optional<Statement> first(Pattern pattern) {
        return statements().stream()
                .filter(statement -> pattern.matcher(runs).region(statement.firstWord(), statement.start()
                        + statement.sql().length()).lookingAt())
                .findFirst();
    }

    /** Where {@code word} first matches inside {@code statement}, else the statement's first word. */
    Place place(Statement statement, Pattern word) {
        Matcher found = word.matcher(runs).region(statement.firstWord(), statement.start() + statement.sql().length());
        return place(found.find() ? found.start() : statement.firstWord());
    }

    /**
     * Line {@code bodyLine} of the function body that {@code create} declares, as PL/pgSQL counts (line 1 is the
     * rest of the line its opening dollar quote is on), at its first word; without a dollar quote, {@code create}.
     */
    Place lineOfBody(Statement create, int bodyLine) {
        Matcher quote = BODY_START.matcher(runs).region(create.firstWord(), create.start() + create.sql().length());
        if (!quote.find()) {
            return place(create.firstWord());
        }
        int at = quote.end();
        for (int line = 1; line < bodyLine && at < runs.length(); line++) {
            int next = runs.indexOf('\n', at);
            at = next < 0 ? runs.length() : next + 1;
        }
        while (at < runs.length() && (runs.charAt(at) == ' ' || runs.charAt(at) == '\t')) {
            at++;
        }
        return place(at);
    }

    /** The end of the file, where a missing statement would go. */
    Place end() {
        return place(runs.length());
    }

    /** A line and column of the learner's file, both counted from 1. */
    record Place(int line, int column) {
    }

    private int afterBlockComment(int at) {
        int depth = 0;
        int i = at;
        while (i < runs.length()) {
            if (runs.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (runs.startsWith("*/", i)) {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return runs.length();
    }

    /** After a '...' string or a "..." name; a doubled quote stays inside, and so does \' in an E'...' string. */
    private int afterQuoted(int at) {
        char quote = runs.charAt(at);
        boolean backslashes = quote == '\'' && at > 0 && (runs.charAt(at - 1) == 'E' || runs.charAt(at - 1) == 'e')
                && (at < 2 || !Character.isLetterOrDigit(runs.charAt(at - 2)) && runs.charAt(at - 2) != '_');
        int i = at + 1;
        while (i < runs.length()) {
            char c = runs.charAt(i);
            if (backslashes && c == '\\') {
                i += 2;
            } else if (c == quote && i + 1 < runs.length() && runs.charAt(i + 1) == quote) {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return runs.length();
    }

    private int afterDollarQuoted(int at) {
        boolean insideAName = at > 0 && (Character.isLetterOrDigit(runs.charAt(at - 1)) || runs.charAt(at - 1) == '_');
        Matcher tag = DOLLAR_TAG.matcher(runs).region(at, runs.length());
        if (insideAName || !tag.lookingAt()) {
            return at + 1;
        }
        int close = runs.indexOf(tag.group(), tag.end());
        return close < 0 ? runs.length() : close + tag.group().length();
    }
}
