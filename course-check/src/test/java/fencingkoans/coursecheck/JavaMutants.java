package fencingkoans.coursecheck;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mutation operators for the Java reference that PIT's cannot express: a whole decision moved out of the
 * transaction or to another place in the order, the generation added to what identifies a request, a catch
 * narrowed, a rollback moved. {@code docs/course-quality.md} describes them. Each mutant changes one file of
 * {@code solutions/}; its id names the operator and what moved.
 */
final class JavaMutants {

    static final String STORE = "src/main/java/fencingkoans/store/FencedStore.java";
    static final String AUTHORITY = "src/main/java/fencingkoans/store/Authority.java";
    static final String TRANSACTION = "src/main/java/fencingkoans/store/ImmediateTransaction.java";

    private static final Pattern STATEMENT_START = Pattern.compile("\\S");

    private final List<Mutant> mutants = new ArrayList<>();

    private JavaMutants() {
    }

    /** The mutants of the three files, given as their reference texts. */
    static List<Mutant> of(String store, String authority, String transaction) {
        JavaMutants all = new JavaMutants();
        all.hoistAndReorder(STORE, store, "public ApplyResult apply(", "private ApplyResult admit(");
        all.hoistAndReorder(AUTHORITY, authority, "public InstallResult install(", "private InstallResult installHigher(");
        all.replace(STORE, "generation-in-identity: the record answers only a request of its own generation", store,
                "if (earlier.isPresent()) {", "if (earlier.isPresent() && earlier.get().generation() == request.generation()) {");
        all.replace(STORE, "generation-in-identity: a replay needs the generation it was applied under", store,
                "return earlier.delta() == request.delta()",
                "return earlier.delta() == request.delta() && earlier.generation() == request.generation()");
        all.move(STORE, "check-in-transaction: the request's checks moved into the transaction", store,
                "        requireWellFormed(request);\n", "    private ApplyResult admit(ApplyRequest request) {\n");
        // Error alone would not compile: the catch block asks whether the failure is a StoreException.
        all.replace(TRANSACTION, "narrow-catch: RuntimeException alone (an Error is not rolled back)", transaction,
                "catch (RuntimeException | Error failure)", "catch (RuntimeException failure)");
        all.move(TRANSACTION, "move-rollback: the rollback after the contention answer", transaction,
                "            rollBack(ledger, failure);\n",
                "store.isContention()) {\n                return whenContended.get();\n            }\n");
        return all.mutants;
    }

    /**
     * The decisions of {@code worker} (a declaration and the ifs after it that may return), and the effect after
     * them: each decision hoisted before the transaction into {@code entry}, and every other order of decisions
     * and effect inside {@code worker}.
     */
    private void hoistAndReorder(String file, String java, String entry, String worker) {
        Body body = Body.of(java, worker);
        List<Span> statements = body.statements();
        List<Span> decisions = new ArrayList<>();
        int i = 0;
        while (i < statements.size() && !body.text(statements.get(i)).startsWith("if")
                && i + 1 < statements.size() && body.text(statements.get(i + 1)).startsWith("if")) {
            int end = i + 1;
            while (end < statements.size() && body.text(statements.get(end)).startsWith("if")) {
                end++;
            }
            decisions.add(new Span(statements.get(i).from(), statements.get(end - 1).to()));
            i = end;
        }
        if (decisions.isEmpty() || i >= statements.size() - 1) {
            throw new IllegalStateException(file + ": " + worker + " no longer decides, then acts, then returns");
        }
        Span effect = new Span(statements.get(i).from(), statements.get(statements.size() - 2).to());
        int transaction = java.indexOf("return ImmediateTransaction.run(", java.indexOf(entry));
        for (int d = 0; d < decisions.size(); d++) {
            Span decision = decisions.get(d);
            String moved = decision.of(java) + "\n        ";
            String text = java.substring(0, transaction) + moved
                    + java.substring(transaction, java.lastIndexOf('\n', decision.from()) + 1)
                    + java.substring(nextLine(java, decision.to()));
            add(file, "hoist: decision " + (d + 1) + " of " + method(worker) + " (" + firstLine(decision.of(java))
                    + ") made before the transaction, in " + method(entry), text);
        }
        List<Span> parts = new ArrayList<>(decisions);
        parts.add(effect);
        for (List<Integer> order : otherOrders(parts.size())) {
            StringBuilder text = new StringBuilder(java.substring(0, parts.get(0).from()));
            for (int p = 0; p < parts.size(); p++) {
                text.append(parts.get(order.get(p)).of(java));
                text.append(p + 1 < parts.size() ? java.substring(parts.get(p).to(), parts.get(p + 1).from()) : "");
            }
            text.append(java.substring(effect.to()));
            add(file, "reorder: " + method(worker) + " in the order " + order.stream()
                    .map(p -> p == parts.size() - 1 ? "effect" : "decision " + (p + 1)).toList(), text.toString());
        }
    }

    /** Moves the exact text {@code statement} to right after {@code anchor}. */
    private void move(String file, String id, String java, String statement, String anchor) {
        String without = once(java, statement, file).replace(statement, "");
        int at = once(without, anchor, file).indexOf(anchor) + anchor.length();
        add(file, id, without.substring(0, at) + statement + without.substring(at));
    }

    private void replace(String file, String id, String java, String from, String to) {
        add(file, id, once(java, from, file).replace(from, to));
    }

    private void add(String file, String id, String text) {
        mutants.add(new Mutant(file.substring(file.lastIndexOf('/') + 1) + " " + id, file, text));
    }

    private static String once(String java, String text, String file) {
        if (java.indexOf(text) < 0 || java.indexOf(text) != java.lastIndexOf(text)) {
            throw new IllegalStateException(file + " does not hold exactly one '" + text.strip() + "' to mutate");
        }
        return java;
    }

    /** Every permutation of 0 to n - 1 but the identity. */
    private static List<List<Integer>> otherOrders(int n) {
        List<List<Integer>> orders = new ArrayList<>();
        permute(new ArrayList<>(), n, orders);
        orders.remove(0);
        return orders;
    }

    private static void permute(List<Integer> prefix, int n, List<List<Integer>> orders) {
        if (prefix.size() == n) {
            orders.add(List.copyOf(prefix));
            return;
        }
        for (int p = 0; p < n; p++) {
            if (!prefix.contains(p)) {
                prefix.add(p);
                permute(prefix, n, orders);
                prefix.remove(prefix.size() - 1);
            }
        }
    }

    private static int nextLine(String java, int offset) {
        int end = java.indexOf('\n', offset);
        Matcher next = STATEMENT_START.matcher(java).region(end + 1, java.length());
        return next.find() ? java.lastIndexOf('\n', next.start()) + 1 : end + 1;
    }

    private static String method(String signature) {
        return signature.substring(signature.lastIndexOf(' ') + 1, signature.length() - 1);
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("").strip();
    }

    /** A method's body: its top-level statements, each with the comment lines right before it. */
    private record Body(String java, int from, int to) {

        static Body of(String java, String signature) {
            int open = java.indexOf('{', java.indexOf(signature));
            if (java.indexOf(signature) < 0) {
                throw new IllegalStateException("no method '" + signature + "' to mutate");
            }
            int depth = 0;
            for (int i = open; i < java.length(); i++) {
                depth += java.charAt(i) == '{' ? 1 : java.charAt(i) == '}' ? -1 : 0;
                if (depth == 0) {
                    return new Body(java, open + 1, i);
                }
            }
            throw new IllegalStateException("the method '" + signature + "' does not end");
        }

        /** Statements end at ';' or at the '}' that closes their block, at the body's own depth. */
        List<Span> statements() {
            List<Span> statements = new ArrayList<>();
            int depth = 0;
            int start = -1;
            for (int i = from; i < to; i++) {
                char c = java.charAt(i);
                if (java.startsWith("//", i)) {
                    i = java.indexOf('\n', i);
                    continue;
                }
                if (start < 0 && !Character.isWhitespace(c)) {
                    start = i;
                }
                depth += c == '{' || c == '(' ? 1 : c == '}' || c == ')' ? -1 : 0;
                boolean ends = depth == 0 && (c == ';' || c == '}') && !java.startsWith(" else", i + 1);
                if (ends && start >= 0) {
                    statements.add(new Span(start, i + 1));
                    start = -1;
                }
            }
            return statements;
        }

        String text(Span statement) {
            return statement.of(java);
        }
    }
}
