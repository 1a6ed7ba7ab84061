package fencingkoans.pg;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells what in the learner's SQL keeps lesson 6's set-up from giving the koans a working database: a statement
 * PostgreSQL refused (by its SQLSTATE, and for some by a look at the catalog), or, when every statement ran, a
 * worker that cannot reach the function or a function that cannot reach the tables. Each answer names the file
 * and the place to edit and carries hints for that cause. Given code.
 */
final class SetupDiagnosis {

    /** The signature the Java side calls, as {@code regprocedure} reads it. */
    static final String SIGNATURE = "fencing.apply_request(text,bigint,text,bigint)";
    private static final String SIGNATURE_AS_WRITTEN = "fencing.apply_request(text, bigint, text, bigint)";

    static final Pattern CREATE_FUNCTION = Pattern.compile("(?is)CREATE\\s+(OR\\s+REPLACE\\s+)?FUNCTION\\b");
    private static final Pattern LANGUAGE = Pattern.compile("(?i)\\bLANGUAGE\\b");
    private static final Pattern REVOKE_ON_FUNCTIONS = Pattern.compile("(?is)REVOKE\\b.*\\bFUNCTIONS?\\b");
    private static final Pattern REVOKE_ON_SCHEMA = Pattern.compile("(?is)REVOKE\\b.*\\bON\\s+SCHEMA\\b");
    private static final Pattern REVOKE_ON_TABLES = Pattern.compile("(?is)REVOKE\\b.*\\bTABLES?\\b");

    /** Arguments that lead the function down each of its paths, in order, on the one row 'set-up' at generation 2. */
    private static final List<String> BODY_PATHS = List.of("('set-up', 2, 'path-1', 5)", "('set-up', 2, 'path-1', 5)",
            "('set-up', 2, 'path-1', 6)", "('set-up', 1, 'path-2', 5)", "('set-up', 3, 'path-3', 5)",
            "('nowhere', 1, 'path-4', 5)");
    /** "PL/pgSQL function fencing.apply_request(...) line 12 at SQL statement": the line within the body. */
    private static final Pattern BODY_LINE = Pattern.compile("\\bline (\\d+)\\b");

    private SetupDiagnosis() {
    }

    /** {@code statement} of {@code script} failed with {@code refusal}; {@code owner} may still look at the catalog. */
    static PgSetupFailure refused(TrackScript script, TrackScript.Statement statement, SQLException refusal,
            TrackScript applyRequest, Connection owner) {
        TrackScript.Place place = placeOf(script, statement, refusal);
        String said = refusal.getSQLState() + ", " + PgException.serverMessage(refusal);
        String where = script.fileName() + " line " + place.line();
        boolean inFunction = script == applyRequest;
        return switch (String.valueOf(refusal.getSQLState())) {
            case SqlState.SYNTAX_ERROR -> new PgSetupFailure("PostgreSQL cannot read " + where + ", column "
                    + place.column() + ": the statement is not well-formed SQL there.", script, place, said,
                    inFunction ? List.of("PostgreSQL stops at the first word that cannot follow what came before it."
                                    + " Look there and just before it: the slip is often one word or one line earlier.",
                            "In PL/pgSQL every statement ends with a semicolon, END IF; and END LOOP; too; IF needs "
                                    + "THEN; := assigns; the body between $$ and $$ ends with END;")
                            : List.of("PostgreSQL stops at the first word that cannot follow what came before it."
                                    + " Look there and just before it.", "Each GRANT or REVOKE ends with a semicolon;"
                                    + " a function is named with its argument types, " + SIGNATURE_AS_WRITTEN
                                    + "; the worker is written ${worker}, in lower case."),
                    refusal);
            case SqlState.INVALID_FUNCTION_DEFINITION -> new PgSetupFailure("PostgreSQL refuses the declaration of "
                    + "the function at " + where + ": its parameters, its result or its options do not fit together.",
                    script, place, said, List.of("The header of apply_request.sql fixes the declaration: four IN "
                            + "parameters and four OUT parameters, with their names and types. Compare yours with it.",
                            "With OUT parameters the function's result is their record: leave RETURNS out (or write "
                                    + "RETURNS record), and keep the OUT parameters as the header gives them."),
                    refusal);
            case SqlState.UNDEFINED_FUNCTION -> undefinedFunction(script, statement, place, said, refusal, applyRequest,
                    owner);
            case SqlState.UNDEFINED_OBJECT -> new PgSetupFailure(where + " names a role or a type that this run's "
                    + "database does not have.", script, place, said, List.of("The roles are created anew on every "
                            + "run, with names of their own. How does your file name the worker role?",
                            "Write the worker role as ${worker}, exactly as that: each run replaces it with the run's "
                                    + "role name. Types are written as PostgreSQL spells them: text, bigint."),
                    refusal);
            case SqlState.UNDEFINED_TABLE, SqlState.UNDEFINED_COLUMN, SqlState.INVALID_SCHEMA_NAME ->
                    new PgSetupFailure(where + " names a schema, table or column that the course's database does "
                            + "not have.", script, place, said, List.of("Check the spelling against the tables the "
                                    + "header of apply_request.sql lists, all in schema fencing.",
                            "fencing.resources (name, generation, value) and fencing.request_records (resource, "
                                    + "request_id, delta, generation, result_value). A name without its schema is "
                                    + "found only through a search_path that holds fencing, such as SET search_path "
                                    + "= fencing, pg_temp in the function's declaration."), refusal);
            case SqlState.DUPLICATE_FUNCTION, SqlState.DUPLICATE_OBJECT -> new PgSetupFailure(where + " creates "
                    + "something that already exists: each run starts from a fresh database, so the file creates it "
                    + "twice.", script, place, said, List.of("Is there a second CREATE FUNCTION (or another CREATE) "
                            + "for the same thing further up the file?", "Keep one CREATE FUNCTION "
                            + "fencing.apply_request, in apply_request.sql; grants.sql only grants and revokes."),
                    refusal);
            case SqlState.INSUFFICIENT_PRIVILEGE -> new PgSetupFailure("The owner role may not do what " + where
                    + " asks.", script, place, said, List.of("Both files run as the owner role. It owns schema "
                            + "fencing, its two tables and the function, and nothing else on the server.",
                            "Grant and revoke only on what the owner owns: the tables in schema fencing and "
                                    + SIGNATURE_AS_WRITTEN + "."), refusal);
            default -> new PgSetupFailure("PostgreSQL refuses the statement at " + where + ".", script, place, said,
                    List.of("PostgreSQL's message says what it could not do; the place is where it noticed.",
                            "Run that statement on its own (psql) to try changes quickly; write ${worker} there as "
                                    + "the role's name."), refusal);
        };
    }

    /**
     * After every statement ran: can the worker reach the function, and can the function reach the tables? The
     * first that fails is the answer; empty when the worker can apply at all (whether correctly is for the koans).
     */
    static Optional<PgSetupFailure> wayIn(TrackScript applyRequest, TrackScript grants, Connection owner, String worker)
            throws SQLException {
        if (!one(owner, "SELECT pg_catalog.to_regprocedure(?) IS NOT NULL", SIGNATURE)) {
            return Optional.of(noSuchSignature(applyRequest, owner, null));
        }
        String every = "every call of fencing.apply_request by the worker would fail with 42501 (insufficient "
                + "privilege)";
        if (!one(owner, "SELECT pg_catalog.has_schema_privilege(?, 'fencing', 'USAGE')", worker)) {
            return Optional.of(new PgSetupFailure("The worker role may not look into schema fencing, so it cannot "
                    + "even find the function: grants.sql took USAGE on the schema away from it.", grants,
                    placeOf(grants, REVOKE_ON_SCHEMA), every + ", permission denied for schema fencing", List.of(
                            "A role needs USAGE on a schema to reach anything in it, the function included. Taking "
                                    + "the tables away needs no change to the schema.",
                            "Leave USAGE ON SCHEMA fencing as it is (every role has it, as found), or GRANT USAGE ON "
                                    + "SCHEMA fencing TO ${worker};"), null));
        }
        if (!one(owner, "SELECT pg_catalog.has_function_privilege(?, '" + SIGNATURE + "', 'EXECUTE')", worker)) {
            return Optional.of(new PgSetupFailure("The worker role may not execute fencing.apply_request: grants.sql "
                    + "takes EXECUTE away (from PUBLIC, and so from every role) and gives it back to no one.", grants,
                    placeOf(grants, REVOKE_ON_FUNCTIONS), every + ", permission denied for function apply_request",
                    List.of("Revoking from PUBLIC takes the privilege from the worker as well: it only ever had it "
                                    + "as one of everyone. Who should still be able to call the function?",
                            "After the REVOKE, GRANT EXECUTE ON FUNCTION " + SIGNATURE_AS_WRITTEN + " TO ${worker};"),
                    null));
        }
        boolean ownersRights = one(owner, "SELECT prosecdef FROM pg_catalog.pg_proc WHERE oid = '" + SIGNATURE
                + "'::pg_catalog.regprocedure", null);
        boolean workerReachesTables = one(owner, "SELECT"
                + " pg_catalog.has_table_privilege(?1, 'fencing.resources', 'SELECT')"
                + " AND pg_catalog.has_table_privilege(?1, 'fencing.resources', 'UPDATE')"
                + " AND pg_catalog.has_table_privilege(?1, 'fencing.request_records', 'SELECT')"
                + " AND pg_catalog.has_table_privilege(?1, 'fencing.request_records', 'INSERT')", worker);
        if (!ownersRights && !workerReachesTables) {
            TrackScript.Place place = applyRequest.first(CREATE_FUNCTION)
                    .map(statement -> applyRequest.place(statement, LANGUAGE)).orElse(applyRequest.place(0));
            return Optional.of(new PgSetupFailure("fencing.apply_request runs with the rights of its caller, the "
                    + "worker, and grants.sql" + placeOf(grants, REVOKE_ON_TABLES, " (line %d)") + " takes the "
                    + "worker's privileges on the tables away: the function cannot read or write them either.",
                    applyRequest, place, every + ", permission denied for table resources", List.of(
                            "A function runs with its caller's rights unless it is declared otherwise. Whose rights "
                                    + "should the one door into the tables run with?",
                            "Declare the function SECURITY DEFINER, next to LANGUAGE plpgsql here. (ALTER FUNCTION "
                                    + SIGNATURE_AS_WRITTEN + " SECURITY DEFINER; in grants.sql works as well.)"),
                    null));
        }
        return Optional.empty();
    }

    /**
     * PL/pgSQL checks a body's statements only when they first run, so a misspelt table or a function called with
     * the wrong types passes CREATE FUNCTION and fails every apply. Here the function runs once down each of its
     * paths (applied, replayed, conflicting, stale, unissued, unknown resource), as the owner, on rows of its own,
     * in a transaction that is rolled back. Only an error of SQLSTATE class 42 (a name or a type PostgreSQL cannot
     * resolve) is the set-up's: any other answer, the stub's "Not written yet" included, is for the koans to judge.
     */
    static Optional<PgSetupFailure> body(TrackScript applyRequest, Connection owner) throws SQLException {
        owner.setAutoCommit(false);
        try (Statement statement = owner.createStatement()) {
            statement.execute("INSERT INTO fencing.resources (name, generation, value) VALUES ('set-up', 2, 0)");
            for (String call : BODY_PATHS) {
                // A path that raises is undone alone, so that the paths after it still meet what the others wrote.
                statement.execute("SAVEPOINT path");
                try {
                    statement.execute("SELECT * FROM fencing.apply_request" + call);
                    statement.execute("RELEASE SAVEPOINT path");
                } catch (SQLException answer) {
                    if (answer.getSQLState() != null && answer.getSQLState().startsWith("42")
                            && !SqlState.INSUFFICIENT_PRIVILEGE.equals(answer.getSQLState())) {
                        return Optional.of(cannotRun(applyRequest, answer));
                    }
                    statement.execute("ROLLBACK TO SAVEPOINT path");
                }
            }
            return Optional.empty();
        } finally {
            owner.rollback();
            owner.setAutoCommit(true);
        }
    }

    private static PgSetupFailure cannotRun(TrackScript applyRequest, SQLException answer) {
        Optional<TrackScript.Statement> create = applyRequest.first(CREATE_FUNCTION);
        Matcher line = BODY_LINE.matcher(String.valueOf(PgException.where(answer)));
        TrackScript.Place place = create.isEmpty() ? applyRequest.place(0)
                : line.find() ? applyRequest.lineOfBody(create.get(), Integer.parseInt(line.group(1)))
                : applyRequest.place(create.get().firstWord());
        String said = answer.getSQLState() + ", " + PgException.serverMessage(answer);
        String cause = "The function's statement at apply_request.sql line " + place.line()
                + " names something PostgreSQL cannot find, so every apply that reaches it fails.";
        return new PgSetupFailure(cause, applyRequest, place,
                said, SqlState.UNDEFINED_FUNCTION.equals(answer.getSQLState())
                        ? List.of("PostgreSQL finds a function or an operator by its name and the types of its "
                                + "arguments together. Which types does this line give it?", "PostgreSQL's message "
                                + "names the types it looked for; btrim, length and the comparison operators take "
                                + "text, and a cast (p_delta::bigint) changes a type.")
                        : List.of("PL/pgSQL resolves the names in a statement only when the statement first runs. "
                                + "Is each table and column on this line spelt as the header lists it?",
                                "Write the tables with their schema (fencing.resources), or SET search_path = "
                                        + "fencing, pg_temp in the declaration: the caller's search_path holds no "
                                        + "schema fencing."), answer);
    }

    /** A function call PostgreSQL could not match: whose file is wrong depends on what apply_request.sql created. */
    private static PgSetupFailure undefinedFunction(TrackScript script, TrackScript.Statement statement,
            TrackScript.Place place, String said, SQLException refusal, TrackScript applyRequest, Connection owner) {
        boolean signatureThere;
        try {
            signatureThere = one(owner, "SELECT pg_catalog.to_regprocedure(?) IS NOT NULL", SIGNATURE);
        } catch (SQLException lookFailed) {
            refusal.addSuppressed(lookFailed);
            signatureThere = true;
        }
        if (script != applyRequest && !signatureThere) {
            return noSuchSignature(applyRequest, owner, refusal);
        }
        String where = script.fileName() + " line " + place.line();
        return new PgSetupFailure(where + " calls or names a function with argument types that no function has.",
                script, place, said, List.of("PostgreSQL finds a function by its name and its argument types "
                        + "together. Which types does this line give it?", script == applyRequest
                        ? "Cast where the types differ, for example p_delta::bigint; PostgreSQL's message names the "
                                + "types it looked for."
                        : "The function is " + SIGNATURE_AS_WRITTEN + ": write it with exactly these types."),
                refusal);
    }

    /** No {@code fencing.apply_request} with the signature the Java side calls: apply_request.sql must change. */
    private static PgSetupFailure noSuchSignature(TrackScript applyRequest, Connection owner, SQLException refusal) {
        List<String> found = new ArrayList<>();
        try (PreparedStatement query = owner.prepareStatement("SELECT n.nspname || '.' || p.proname || '('"
                + " || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' FROM pg_catalog.pg_proc p "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE p.proname = 'apply_request' "
                + "AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1");
                ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                found.add(rows.getString(1));
            }
        } catch (SQLException lookFailed) {
            if (refusal != null) {
                refusal.addSuppressed(lookFailed);
            }
        }
        TrackScript.Place place = placeOf(applyRequest, CREATE_FUNCTION);
        String said = refusal != null ? refusal.getSQLState() + ", " + PgException.serverMessage(refusal)
                : "every call of fencing.apply_request would fail with 42883, function does not exist";
        return new PgSetupFailure("The Java side calls " + SIGNATURE_AS_WRITTEN + ", but apply_request.sql "
                + (found.isEmpty() ? "creates no function of that name." : "creates " + String.join(" and ", found)
                + " instead."), applyRequest, place, said, List.of("A function is known by its schema, its name "
                        + "and its argument types, all three. Compare your CREATE FUNCTION line with the header.",
                "CREATE FUNCTION fencing.apply_request(p_resource text, p_generation bigint, p_request_id text, "
                        + "p_delta bigint, OUT ...), with the schema written out, as the shipped file has it."),
                refusal);
    }

    /**
     * PostgreSQL's position in the statement when it gave one; else, for a function body it could not compile,
     * the body's line its context names ("compilation of PL/pgSQL function ... near line 4"); else the statement.
     */
    private static TrackScript.Place placeOf(TrackScript script, TrackScript.Statement statement,
            SQLException refusal) {
        int position = PgException.position(refusal);
        Matcher bodyLine = BODY_LINE.matcher(String.valueOf(PgException.where(refusal)));
        if (position == 0 && bodyLine.find() && CREATE_FUNCTION.matcher(statement.sql().substring(
                statement.firstWord() - statement.start())).lookingAt()) {
            return script.lineOfBody(statement, Integer.parseInt(bodyLine.group(1)));
        }
        return script.place(statement, position);
    }

    /** The first statement of {@code script} that {@code statement} matches, else the end of the file. */
    private static TrackScript.Place placeOf(TrackScript script, Pattern statement) {
        return script.first(statement).map(found -> script.place(found.firstWord())).orElse(script.end());
    }

    private static String placeOf(TrackScript script, Pattern statement, String format) {
        return script.first(statement).map(found -> String.format(format, script.place(found.firstWord()).line()))
                .orElse("");
    }

    /** A yes-or-no question to the catalog; {@code ?1} stands for {@code argument} each time it is written. */
    private static boolean one(Connection owner, String question, String argument) throws SQLException {
        long marks = question.chars().filter(c -> c == '?').count();
        try (PreparedStatement query = owner.prepareStatement(question.replace("?1", "?"))) {
            for (int i = 1; i <= marks; i++) {
                query.setString(i, argument);
            }
            try (ResultSet row = query.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }
}
