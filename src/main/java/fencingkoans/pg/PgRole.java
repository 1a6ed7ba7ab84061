package fencingkoans.pg;

/** The three roles of a course database. Each run gives them names of its own, see {@link PgDatabase}. */
public enum PgRole {
    /** Owns the schema, the tables and the admitting function; the trusted authority uses it to install. */
    OWNER,
    /** What a worker logs in as: it should reach the tables only through the admitting function. */
    WORKER,
    /** Any other role on the server, holding only what PUBLIC holds. */
    BYSTANDER
}
