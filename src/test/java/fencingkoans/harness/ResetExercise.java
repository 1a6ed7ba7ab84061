package fencingkoans.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Stream;

/**
 * Puts one exercise file back to its shipped stub: {@code java src/test/java/fencingkoans/harness/ResetExercise.java
 * FencedStore}. It runs as a single source file, so it works even when exercises/ does not compile. The shipped
 * version comes from git: the commit this clone started from ({@code origin/HEAD}'s merge base), else
 * {@code HEAD}. The learner's version is kept under {@code target/reset/}. An unknown name changes nothing.
 */
public final class ResetExercise {

    private static final Path EXERCISES = Path.of("exercises/src/main/java/fencingkoans/store");
    private static final String STUB_MARK = "throw new NotWrittenYet";

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
        Path file = EXERCISES.resolve(name + ".java");
        String shipped = shippedVersion(file);
        String current = Files.readString(file, StandardCharsets.UTF_8);
        if (current.equals(shipped)) {
            System.out.println(file + " is already its shipped stub. Nothing was changed.");
            return;
        }
        Path kept = Path.of("target/reset").resolve(name + ".java."
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(kept.getParent());
        Files.writeString(kept, current, StandardCharsets.UTF_8);
        Files.writeString(file, shipped, StandardCharsets.UTF_8);
        System.out.println(file + " is its shipped stub again. Your version is kept in " + kept + ".");
    }

    private static List<String> exerciseNames() throws IOException {
        try (Stream<Path> files = Files.list(EXERCISES)) {
            return files.map(path -> path.getFileName().toString()).filter(file -> file.endsWith(".java"))
                    .map(file -> file.substring(0, file.length() - ".java".length())).sorted().toList();
        }
    }

    private static String shippedVersion(Path file) throws IOException, InterruptedException {
        String commit = git("rev-parse", "--verify", "--quiet", "origin/HEAD").isEmpty()
                ? "HEAD" : git("merge-base", "HEAD", "origin/HEAD").strip();
        String shipped = git("show", commit + ":" + file.toString().replace('\\', '/'));
        if (shipped.isEmpty()) {
            fail("git has no shipped version of " + file + " (at " + commit + "). Reset needs the course's git "
                    + "history: is this a clone of the course? Nothing was changed.");
        }
        if (!shipped.contains(STUB_MARK)) {
            fail(file + " at " + commit + " is not a stub (it has no NotWrittenYet): it looks like work that was "
                    + "committed. Nothing was changed.");
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
