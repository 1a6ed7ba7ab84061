package fencingkoans.coursecheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * One variant of the pitfall gallery: a diff against {@code solutions/} that makes one realistic mistake. The
 * text before the diff says what the mistake is ({@code Mistake:}) and which koans must catch it, by lesson class
 * and method where they run ({@code Caught by: Lesson4DuplicateKoans#aGenerationIsNotADuplicateCheck}): a koan
 * keeps its name when the koans before it change, its number does not.
 */
record Pitfall(String name, String mistake, List<String> caughtBy, List<String> diff) {

    static final String SUFFIX = ".diff";

    /** The lesson whose koans run the track's SQL; the Java track reaches none of its koans. */
    static final String SQL_LESSON = "fencingkoans.koans.Lesson6PostgresKoans";

    static Pitfall load(Path file) {
        String name = file.getFileName().toString().replace(SUFFIX, "");
        List<String> lines = Folders.read(file).lines().toList();
        String mistake = field(lines, "Mistake:", file);
        List<String> caughtBy = Arrays.stream(field(lines, "Caught by:", file).split(",")).map(String::trim)
                .filter(koan -> !koan.isEmpty()).toList();
        if (caughtBy.isEmpty()) {
            throw new IllegalStateException(file + " names no koan after 'Caught by:'");
        }
        return new Pitfall(name, mistake, caughtBy, lines);
    }

    /**
     * How a note names the koan that {@code key} ({@link fencingkoans.harness.KoanResults#key}) identifies: the
     * lesson class without its package and {@code @Nested} group, then the method.
     */
    static String noteName(String key) {
        String className = key.substring(0, key.indexOf('#'));
        String lesson = className.substring(className.lastIndexOf('.') + 1).split("\\$")[0];
        return lesson + key.substring(key.indexOf('#'));
    }

    /** Copies the reference to {@code folder} and makes this variant's mistake in the copy. */
    Path makeIn(Path reference, Path folder) {
        Folders.recreate(folder);
        Folders.copyTree(reference, folder);
        applyDiff(folder);
        return folder;
    }

    /**
     * git's own reading of the diff (hunk counts, a removed line that starts with "-- "), applied in {@code folder}
     * as a folder of no repository: git must not take the course checkout around it for the root of the paths.
     */
    private void applyDiff(Path folder) {
        ProcessBuilder apply = new ProcessBuilder("git", "apply", "--whitespace=nowarn", "-").directory(folder.toFile())
                .redirectErrorStream(true);
        apply.environment().put("GIT_CEILING_DIRECTORIES", folder.toAbsolutePath().getParent().toString());
        try {
            Process git = apply.start();
            try (var stdin = git.getOutputStream()) {
                stdin.write((String.join("\n", diff) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            String said = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (git.waitFor() != 0) {
                throw new IllegalStateException("the variant " + name + " does not apply to the reference: " + said);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("running git apply for " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while applying " + name, e);
        }
    }

    /**
     * The lesson classes this variant runs: those its note names, where its change can reach them. A change to the
     * SQL reaches lesson 6 alone, a change to the Java track every other lesson, since lesson 6 runs the SQL through
     * given code only. A named koan in a lesson the change cannot reach does not run, and the check says so.
     */
    Predicate<String> lessonsItReaches() {
        List<String> changed = diff.stream().filter(line -> line.startsWith("+++ ")).toList();
        boolean sql = changed.stream().anyMatch(file -> file.endsWith(".sql"));
        boolean java = changed.stream().anyMatch(file -> !file.endsWith(".sql"));
        List<String> named = caughtBy.stream().map(koan -> koan.split("#")[0]).distinct().toList();
        return lesson -> (lesson.equals(SQL_LESSON) ? sql : java)
                && named.contains(lesson.substring(lesson.lastIndexOf('.') + 1));
    }

    private static String field(List<String> lines, String label, Path file) {
        return lines.stream().takeWhile(line -> !line.startsWith("--- ")).filter(line -> line.startsWith(label))
                .map(line -> line.substring(label.length()).trim()).findFirst()
                .orElseThrow(() -> new IllegalStateException(file + " has no line starting with '" + label + "'"));
    }
}
