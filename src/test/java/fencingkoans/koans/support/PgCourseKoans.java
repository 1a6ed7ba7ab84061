package fencingkoans.koans.support;

import fencingkoans.pg.PgDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The extension lesson's fixture: one course database with roles of its own for the whole class, created on
 * the server {@link PostgresServer} found, put back to its start state before every koan, dropped at the end.
 */
@ExtendWith(PostgresServer.class)
public abstract class PgCourseKoans {

    private static PgDatabase database;

    protected PgCourse course;

    @BeforeAll
    static void createTheCourseDatabase() {
        database = PgDatabase.create(PostgresServer.server());
    }

    @AfterAll
    static void dropTheCourseDatabase() {
        if (database != null) {
            database.close();
            database = null;
        }
    }

    @BeforeEach
    final void startFromTheSeededState() {
        database.reset();
        course = new PgCourse(database);
    }

    @AfterEach
    final void closeEverySession() throws Exception {
        course.close();
    }
}
