package fencingkoans.coursecheck;

import java.nio.file.Path;

/** Where the check finds the course and puts its own work; the course-check profile passes all of it. */
record CourseTree(Path basedir, Path sharedClasses, Path koanClasses, Path work) {

    static CourseTree fromSystemProperties() {
        return new CourseTree(path("course-check.basedir"), path("course-check.classes"),
                path("course-check.test-classes"), path("course-check.work"));
    }

    Path exercises() {
        return basedir.resolve("exercises");
    }

    Path solutions() {
        return basedir.resolve("solutions");
    }

    Path pitfalls() {
        return basedir.resolve("pitfalls");
    }

    private static Path path(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set: run the check with "
                    + "./mvnw verify -Pcourse-check");
        }
        return Path.of(value).toAbsolutePath();
    }
}
