package fencingkoans.pg;

/** The SQLSTATE codes the lesson talks about. PostgreSQL reports these, whatever the language of its messages. */
public final class SqlState {

    /** {@code FOR UPDATE NOWAIT} met a row lock held by another transaction (or a lock timeout ran out). */
    public static final String LOCK_NOT_AVAILABLE = "55P03";

    /** The role lacks the privilege for the statement, for example UPDATE on a table it was not granted. */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";

    /** The statement was cancelled, for example by {@code statement_timeout}, while it ran or waited. */
    public static final String QUERY_CANCELED = "57014";

    /** The admitting function refused a malformed request: it raises this with a message naming the field. */
    public static final String INVALID_PARAMETER_VALUE = "22023";

    /** An arithmetic result left its type's range: here, a delta that would overflow a bigint value. */
    public static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";

    /** The set-up's diagnosis of the learner's SQL (see SetupDiagnosis) tells these apart. */
    static final String SYNTAX_ERROR = "42601";
    static final String INVALID_FUNCTION_DEFINITION = "42P13";
    static final String UNDEFINED_FUNCTION = "42883";
    static final String UNDEFINED_OBJECT = "42704";
    static final String UNDEFINED_TABLE = "42P01";
    static final String UNDEFINED_COLUMN = "42703";
    static final String INVALID_SCHEMA_NAME = "3F000";
    static final String DUPLICATE_FUNCTION = "42723";
    static final String DUPLICATE_OBJECT = "42710";

    private SqlState() {
    }
}
