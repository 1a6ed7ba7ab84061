package fencingkoans.koans.support;

import fencingkoans.destination.SqliteDestination;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Every koan starts on a fresh course database in its own JUnit temporary directory. */
public abstract class CourseKoans {

    @TempDir
    private Path directory;

    protected SqliteDestination course;

    /** The same course database, for the koans that hold on every destination. */
    public final SqliteDestination course() {
        return course;
    }

    @BeforeEach
    final void createTheCourseDatabase() {
        course = SqliteDestination.createIn(directory);
    }

    @AfterEach
    final void closeEveryConnection() {
        course.close();
    }
}
