package fencingkoans.coursecheck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fixed set of operators of the SQL mutation check, applied to lesson 6's reference SQL: the admitting
 * function ({@value #FUNCTION}) and the grants ({@value #GRANTS}). {@code docs/course-quality.md} describes them.
 * Each mutant changes one thing in one file; its id names the file, the operator, the line or statement it
 * changed and how, so that a survivor can be looked up in the docs by its id.
 */
final class SqlMutants {

    static final String FUNCTION = "apply_request.sql";
    static final String GRANTS = "grants.sql";

    private record Swap(Pattern site, String replacement) {
    }

    private static final Pattern COMPARISON = Pattern.compile("(?<![<>:!=])(<=|>=|<>|<|>|=)(?![<>=])");
    private static final Map<String, List<String>> COMPARISON_SWAPS = Map.of(
            "<", List.of("<=", ">="), "<=", List.of("<", ">"), ">", List.of(">=", "<="), ">=", List.of(">", "<"),
            "=", List.of("<>"), "<>", List.of("="));
    /** An '=' that assigns a column in UPDATE ... SET, not a comparison. */
    private static final Pattern ASSIGNED_BEFORE = Pattern.compile("\\bSET\\s+\\w+\\s*$");
    private static final List<Swap> BOOLEAN_SWAPS = List.of(
            new Swap(Pattern.compile("\\bOR\\b"), "AND"), new Swap(Pattern.compile("\\bAND\\b"), "OR"),
            new Swap(Pattern.compile("\\bIS NULL\\b"), "IS NOT NULL"),
            new Swap(Pattern.compile("\\bIS NOT NULL\\b"), "IS NULL"),
            new Swap(Pattern.compile("\\bIF FOUND\\b"), "IF NOT FOUND"),
            new Swap(Pattern.compile("\\bIF NOT FOUND\\b"), "IF FOUND"));
    private static final List<Swap> LOCK_SWAPS = List.of(
            new Swap(Pattern.compile("\\bFOR UPDATE\\b"), "FOR NO KEY UPDATE"),
            new Swap(Pattern.compile("\\bFOR UPDATE\\b"), "FOR SHARE"),
            new Swap(Pattern.compile(" NOWAIT\\b"), ""),
            new Swap(Pattern.compile("\\bNOWAIT\\b"), "SKIP LOCKED"));
    private static final Pattern SECURITY_DEFINER = Pattern.compile("\\n\\s*SECURITY DEFINER\\b");
    private static final Pattern SEARCH_PATH = Pattern.compile("\\n\\s*SET search_path = fencing, pg_temp\\b");
    private static final List<String> SEARCH_PATHS = List.of("", "\n    SET search_path = fencing",
            "\n    SET search_path = pg_temp, fencing");
    private static final Pattern BLOCK_KEYWORD = Pattern.compile("\\b(THEN|ELSE|BEGIN|LOOP)\\b");
    private static final Pattern IF_OPENS = Pattern.compile("(?<!END )\\bIF\\b");
    private static final Pattern IF_CLOSES = Pattern.compile("\\bEND IF\\b");
    private static final Pattern GRANTEES = Pattern.compile("\\b(TO|FROM)\\s+([^;]+);$");

    private final List<Mutant> mutants = new ArrayList<>();
    private final Map<String, Integer> seen = new HashMap<>();

    private SqlMutants() {
    }

    static List<Mutant> of(String function, String grants) {
        SqlMutants all = new SqlMutants();
        all.mutateFunction(function);
        all.mutateGrants(grants);
        return all.mutants;
    }

    private void mutateFunction(String sql) {
        String masked = mask(sql);
        int quote = masked.indexOf("$$");
        int bodyEnd = masked.lastIndexOf("$$");
        Matcher begin = Pattern.compile("\\bBEGIN\\b").matcher(masked);
        if (quote < 0 || bodyEnd <= quote || !begin.find(quote)) {
            throw new IllegalStateException(FUNCTION + " has no $$-quoted body with a BEGIN to mutate");
        }
        int body = begin.end();
        List<Span> statements = statements(masked, body, bodyEnd);

        Matcher comparison = COMPARISON.matcher(masked).region(body, bodyEnd);
        while (comparison.find()) {
            int at = comparison.start();
            boolean inRaise = statements.stream().anyMatch(s -> s.contains(at) && s.of(masked).startsWith("RAISE"));
            if (inRaise || ASSIGNED_BEFORE.matcher(masked.substring(body, at)).find()) {
                continue;
            }
            for (String swap : COMPARISON_SWAPS.get(comparison.group(1))) {
                replace(FUNCTION, "comparison", sql, comparison.start(), comparison.end(), swap);
            }
        }
        BOOLEAN_SWAPS.forEach(swap -> everyMatch("boolean", sql, masked, swap, body, bodyEnd));
        LOCK_SWAPS.forEach(swap -> everyMatch(swap.site().pattern().contains("NOWAIT") ? "nowait" : "lock-strength",
                sql, masked, swap, body, bodyEnd));
        inHeader("security-definer", sql, masked, SECURITY_DEFINER, "", quote);
        SEARCH_PATHS.forEach(path -> inHeader("search-path", sql, masked, SEARCH_PATH, path, quote));
        for (Span statement : statements) {
            delete(FUNCTION, sql, statement);
        }
        reorderDecisions(sql, masked, body, bodyEnd);
    }

    private void mutateGrants(String sql) {
        String masked = mask(sql);
        for (Span statement : statements(masked, 0, masked.length())) {
            delete(GRANTS, sql, statement);
            String text = statement.of(masked);
            Matcher grantees = GRANTEES.matcher(text);
            if (grantees.find() && !grantees.group(2).trim().equals("PUBLIC")) {
                replace(GRANTS, text.startsWith("GRANT") ? "grant-to-public" : "revoke-from-public-only", sql,
                        statement.from() + grantees.start(2), statement.from() + grantees.end(2), "PUBLIC");
            }
        }
    }

    /**
     * The three decisions of the function, each a statement with the IF blocks that follow it: the row lock, the
     * record lookup and the generation check. Every other order of the three is a mutant.
     */
    private void reorderDecisions(String sql, String masked, int body, int bodyEnd) {
        List<Span> blocks = blocks(masked, body, bodyEnd);
        List<Span> decisions = List.of(only(blocks, masked, "FOR\\s+UPDATE", "the row lock"),
                only(blocks, masked, "FROM\\s+request_records", "the record lookup"),
                only(blocks, masked, "target\\.generation", "the generation check"));
        if (!(decisions.get(0).to() <= decisions.get(1).from() && decisions.get(1).to() <= decisions.get(2).from())) {
            throw new IllegalStateException(FUNCTION + " no longer locks, looks up and checks, in that order");
        }
        String[] names = {"lock", "lookup", "generation"};
        int[][] orders = {{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int[] order : orders) {
            StringBuilder text = new StringBuilder(sql.substring(0, decisions.get(0).from()));
            for (int i = 0; i < 3; i++) {
                text.append(decisions.get(order[i]).of(sql));
                if (i < 2) {
                    text.append(sql, decisions.get(i).to(), decisions.get(i + 1).from());
                }
            }
            text.append(sql.substring(decisions.get(2).to()));
            add(FUNCTION, "reorder: " + names[order[0]] + ", " + names[order[1]] + ", " + names[order[2]],
                    text.toString());
        }
    }

    private static Span only(List<Span> blocks, String masked, String head, String what) {
        List<Span> matching = blocks.stream().filter(block -> Pattern.compile(head).matcher(block.of(masked)).find())
                .toList();
        if (matching.size() != 1) {
            throw new IllegalStateException(FUNCTION + " has " + matching.size() + " blocks for " + what + ", not one");
        }
        return matching.get(0);
    }

    /** Each top-level statement with the top-level IF blocks right after it; IF blocks before any, as one. */
    private static List<Span> blocks(String masked, int body, int bodyEnd) {
        List<Span> blocks = new ArrayList<>();
        int depth = 0;
        for (Span chunk : chunks(masked, body, bodyEnd)) {
            String text = chunk.of(masked);
            int opens = count(IF_OPENS, text);
            if (depth == 0 && (opens == 0 || blocks.isEmpty())) {
                blocks.add(new Span(chunk.from() + leadingSpace(text), chunk.to()));
            } else {
                blocks.set(blocks.size() - 1, new Span(blocks.get(blocks.size() - 1).from(), chunk.to()));
            }
            depth += opens - count(IF_CLOSES, text);
        }
        return blocks;
    }

    /** The simple statements from {@code from} on: what stands after THEN, ELSE or BEGIN, up to its ';'. */
    private static List<Span> statements(String masked, int from, int to) {
        List<Span> statements = new ArrayList<>();
        for (Span chunk : chunks(masked, from, to)) {
            String text = chunk.of(masked);
            int start = 0;
            Matcher keyword = BLOCK_KEYWORD.matcher(text);
            while (keyword.find()) {
                start = keyword.end();
            }
            start += leadingSpace(text.substring(start));
            String statement = text.substring(start);
            if (!statement.isBlank() && !statement.startsWith("END")) {
                statements.add(new Span(chunk.from() + start, chunk.to()));
            }
        }
        return statements;
    }

    /** The text from {@code from} to {@code to} cut after every ';', each piece with its ';'. */
    private static List<Span> chunks(String masked, int from, int to) {
        List<Span> chunks = new ArrayList<>();
        int start = from;
        for (int i = from; i < to; i++) {
            if (masked.charAt(i) == ';') {
                chunks.add(new Span(start, i + 1));
                start = i + 1;
            }
        }
        return chunks;
    }

    private void everyMatch(String operator, String sql, String masked, Swap swap, int from, int to) {
        Matcher match = swap.site().matcher(masked).region(from, to);
        while (match.find()) {
            replace(FUNCTION, operator, sql, match.start(), match.end(), swap.replacement());
        }
    }

    private void inHeader(String operator, String sql, String masked, Pattern site, String replacement, int bodyQuote) {
        Matcher match = site.matcher(masked).region(0, bodyQuote);
        if (!match.find()) {
            throw new IllegalStateException(FUNCTION + " has no " + site.pattern() + " to mutate");
        }
        add(FUNCTION, operator + ": " + oneLine(sql.substring(match.start(), match.end())) + " -> "
                        + (replacement.isEmpty() ? "(removed)" : oneLine(replacement)),
                sql.substring(0, match.start()) + replacement + sql.substring(match.end()));
    }

    /** Replaces {@code from} to {@code to}; the id quotes the line it is on. */
    private void replace(String file, String operator, String sql, int from, int to, String replacement) {
        int lineStart = sql.lastIndexOf('\n', from - 1) + 1;
        int lineEnd = sql.indexOf('\n', to);
        String line = oneLine(sql.substring(lineStart, lineEnd < 0 ? sql.length() : lineEnd));
        add(file, operator + ": " + line + ": " + oneLine(sql.substring(from, to)) + " -> "
                + (replacement.isEmpty() ? "(removed)" : replacement),
                sql.substring(0, from) + replacement + sql.substring(to));
    }

    private void delete(String file, String sql, Span statement) {
        add(file, "delete-statement: " + oneLine(statement.of(sql)),
                sql.substring(0, statement.from()) + sql.substring(statement.to()));
    }

    private void add(String file, String id, String text) {
        int occurrence = seen.merge(file + id, 1, Integer::sum);
        mutants.add(new Mutant(file + " " + id + (occurrence > 1 ? " (" + occurrence + ")" : ""), file, text));
    }

    /** The SQL with every comment and the inside of every string literal blanked, offsets unchanged. */
    static String mask(String sql) {
        StringBuilder masked = new StringBuilder(sql);
        int i = 0;
        while (i < sql.length()) {
            if (sql.startsWith("--", i)) {
                while (i < sql.length() && sql.charAt(i) != '\n') {
                    masked.setCharAt(i++, ' ');
                }
            } else if (sql.charAt(i) == '\'') {
                int end = i + 1;
                while (end < sql.length() && (sql.charAt(end) != '\'' || sql.startsWith("''", end))) {
                    end += sql.startsWith("''", end) ? 2 : 1;
                }
                for (int j = i + 1; j < Math.min(end, sql.length()); j++) {
                    masked.setCharAt(j, sql.charAt(j) == '\n' ? '\n' : ' ');
                }
                i = end + 1;
            } else {
                i++;
            }
        }
        return masked.toString();
    }

    private static int count(Pattern pattern, String text) {
        return (int) pattern.matcher(text).results().count();
    }

    private static int leadingSpace(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }
}
