package fencingkoans.koans.support;

import fencingkoans.destination.PgDestination;
import fencingkoans.pg.PgDatabase;
import fencingkoans.pg.PgSetupFailure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The extension lesson's fixture: one course database with roles of its own for the whole class, created on
 * the server {@link PostgresServer} found when the first koan runs, put back to its start state before every
 * koan, dropped at the end. Watch mode keeps one database for all its runs instead ({@link PgDatabase#kept}).
 */
@ExtendWith(PostgresServer.class)
public abstract class PgCourseKoans {

    private static PgDatabase database;
    /** The learner's SQL broke the set-up: every koan of the class fails with that, without building it again. */
    private static PgSetupFailure setupFailure;

    protected PgDestination course;

    /** The class's course database, for a test that builds fixtures of its own on it. */
    protected static PgDatabase database() {
        return database;
    }

    @AfterAll
    static void dropTheCourseDatabase() {
        setupFailure = null;
        if (database != null) {
            database.close();
            database = null;
        }
    }

    /** Created by the first koan that runs, so that a lesson skipped for want of a server never needs one. */
    @BeforeEach
    final void startFromTheSeededState() {
        if (setupFailure != null) {
            throw setupFailure;
        }
        if (database == null) {
            try {
                database = Boolean.getBoolean(PgDatabase.KEEP_BETWEEN_RUNS) ? PgDatabase.kept(PostgresServer.server())
                        : PgDatabase.create(PostgresServer.server());
            } catch (PgSetupFailure failure) {
                setupFailure = failure;
                throw failure;
            }
        }
        database.reset();
        course = new PgDestination(database);
    }

    @AfterEach
    final void closeEverySession() {
        if (course != null) {
            course.close();
        }
    }
}
