package fencingkoans.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Puts one exercise file back to its shipped stub: {@code java src/test/java/fencingkoans/harness/ResetExercise.java
 * FencedStore}, or lesson 6's {@code grants.sql}. It runs as a single source file, so it works even when exercises/ does not compile. The shipped
 * version comes from git, at the newest commit that changed the koans ({@value #COURSE_SIDE}): a learner's commits,
 * pushed or not, change only exercises/, so that commit is the course's own, in a clone of the course and in a
 * classroom copy alike. The learner's version is kept in {@value #KEPT}, which neither {@code clean} nor a reset
 * touches, and the command that puts it back is printed. An unknown name changes nothing.
 */
public final class ResetExercise {

    private static final Path EXERCISES = Path.of("exercises/src/main/java/fencingkoans/store");
    private static final Path SQL_EXERCISES = Path.of("exercises/src/main/resources/fencingkoans/pg");
    /** What every shipped stub holds: a Java stub throws, a SQL stub says so in its comments. */
    private static final String STUB_MARK = "throw new NotWrittenYet";
    private static final String SQL_STUB_MARK = "Not written yet";
    /** What the course changes and a learner never does (grading refuses a changed koan). */
    private static final String COURSE_SIDE = "src/test/java";
    private static final String KEPT = "kept-by-reset";

    private ResetExercise() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (!Files.isDirectory(EXERCISES)) {
            fail("Run this from the course's root folder (the one with pom.xml): " + EXERCISES + " is not here.");
        }
        List<String> names = exerciseNames();
        if (args.length != 1) {
            fail("Name one exercise to reset, for example: java src/test/java/fencingkoans/harness/ResetExercise.java "
                    + "FencedStore\nThe exercises are: " + String.join(", ", names) + ".");
        }
        String name = Path.of(args[0]).getFileName().toString().replaceFirst("\\.java$", "");
        if (!names.contains(name)) {
            fail("There is no exercise named '" + args[0] + "'. The exercises are: " + String.join(", ", names)
                    + ". Nothing was changed.");
        }
        Path file = name.endsWith(".sql") ? SQL_EXERCISES.resolve(name) : EXERCISES.resolve(name + ".java");
        String shipped = shippedVersion(file);
        String current = Files.readString(file, StandardCharsets.UTF_8);
        if (current.equals(shipped)) {
            System.out.println(file + " is already its shipped stub. Nothing was changed.");
            return;
        }
        Path kept = Path.of(KEPT).resolve(file.getFileName() + "."
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(kept.getParent());
        Files.writeString(kept, current, StandardCharsets.UTF_8);
        Files.writeString(file, shipped, StandardCharsets.UTF_8);
        String slashes = file.toString().replace('\\', '/');
        System.out.println(slashes + " is its shipped stub again. Your version is kept in " + KEPT
                + "/ (./mvnw clean leaves it). To put it back:");
        System.out.println("  cp " + kept.toString().replace('\\', '/') + " " + slashes);
    }

    /** The Java exercises by class name, then lesson 6's SQL files by file name. */
    private static List<String> exerciseNames() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(EXERCISES)) {
            files.map(path -> path.getFileName().toString()).filter(file -> file.endsWith(".java"))
                    .map(file -> file.substring(0, file.length() - ".java".length())).sorted().forEach(names::add);
        }
        if (Files.isDirectory(SQL_EXERCISES)) {
            try (Stream<Path> files = Files.list(SQL_EXERCISES)) {
                files.map(path -> path.getFileName().toString()).filter(file -> file.endsWith(".sql")).sorted()
                        .forEach(names::add);
            }
        }
        return names;
    }

    private static String shippedVersion(Path file) throws IOException, InterruptedException {
        String commit = git("log", "-1", "--format=%H", "HEAD", "--", COURSE_SIDE).strip();
        if (commit.isEmpty()) {
            fail("git has no commit that holds the koans (" + COURSE_SIDE + "). Reset needs the course's git history: "
                    + "is this a clone of the course? Nothing was changed.");
        }
        String shipped = git("show", commit + ":" + file.toString().replace('\\', '/'));
        if (shipped.isEmpty()) {
            fail("git has no shipped version of " + file + " (at " + commit + "). Reset needs the course's git "
                    + "history: is this a clone of the course? Nothing was changed.");
        }
        if (!shipped.contains(file.toString().endsWith(".sql") ? SQL_STUB_MARK : STUB_MARK)) {
            fail(file + " at " + commit + ", the newest commit that changed the koans, is not a stub: was a koan "
                    + "changed together with your work? Nothing was changed.");
        }
        return shipped;
    }

    /** The command's standard output, or "" when git fails. */
    private static String git(String... arguments) throws IOException, InterruptedException {
        Process git;
        try {
            git = new ProcessBuilder(Stream.concat(Stream.of("git"), Stream.of(arguments)).toList())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            fail("Reset takes the shipped stub from git, and git cannot be run here (" + e.getMessage()
                    + "). Nothing was changed.");
            throw e;
        }
        String out;
        try (InputStream stdout = git.getInputStream()) {
            out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        }
        return git.waitFor() == 0 ? out : "";
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(2);
    }
}
