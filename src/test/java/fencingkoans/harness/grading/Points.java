package fencingkoans.harness.grading;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Points per koan, set per lesson in the committed grading file ({@code lesson.N = points}). A lesson the file
 * does not name gives one point per koan. A key or value the file cannot mean is an error, never a guess.
 */
final class Points {

    static final String FILE = "grading/points.properties";

    private final Map<Integer, Integer> perKoanByLesson;

    private Points(Map<Integer, Integer> perKoanByLesson) {
        this.perKoanByLesson = perKoanByLesson;
    }

    int perKoan(int lesson) {
        return perKoanByLesson.getOrDefault(lesson, 1);
    }

    static Points read(Path root, List<TamperManifest.PlannedLesson> lessons) {
        Path file = root.resolve(FILE);
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalStateException("the grading file " + FILE + " cannot be read: " + e.getMessage(), e);
        }
        Set<Integer> known = lessons.stream().map(TamperManifest.PlannedLesson::number).collect(Collectors.toSet());
        Map<Integer, Integer> perKoan = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            int lesson = lessonOf(key, known);
            perKoan.put(lesson, pointsOf(key, properties.getProperty(key).strip()));
        }
        return new Points(perKoan);
    }

    private static int lessonOf(String key, Set<Integer> known) {
        if (!key.matches("lesson\\.\\d+")) {
            throw new IllegalStateException(FILE + ": '" + key + "' is not a key this file knows; write lesson.N = "
                    + "points per koan");
        }
        int lesson = Integer.parseInt(key.substring("lesson.".length()));
        if (!known.contains(lesson)) {
            throw new IllegalStateException(FILE + ": " + key + " names a lesson the course does not have; its "
                    + "lessons are " + known);
        }
        return lesson;
    }

    private static int pointsOf(String key, String value) {
        if (!value.matches("\\d{1,4}")) {
            throw new IllegalStateException(FILE + ": " + key + " = '" + value + "' must be a whole number of "
                    + "points per koan, 0 or more");
        }
        return Integer.parseInt(value);
    }
}
