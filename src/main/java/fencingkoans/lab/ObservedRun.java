package fencingkoans.lab;

import fencingkoans.contract.NotWrittenYet;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs scenarios one after another, each on a fresh database in one temporary directory, prints what they
 * observe, and deletes the directory at the end. A scenario that reaches a method the learner has not
 * written yet stops there and says so, so the same run works on either track.
 */
public final class ObservedRun {

    /** The steps of one scenario, observed through its {@link Scene}. */
    public interface Scenario {
        void run(Scene scene) throws Exception;
    }

    /** Thrown by a scenario that needs what this machine lacks (a server): it is not played, and says why. */
    public static final class NotPlayedHere extends RuntimeException {
        public NotPlayedHere(String why) {
            super(why);
        }
    }

    /** What a run does: the scenarios it starts, in order. */
    public interface Script {
        void play(ObservedRun run);
    }

    private final PrintStream out;
    private final Path directory;
    private final List<String> missing = new ArrayList<>();
    private final List<String> notPlayed = new ArrayList<>();
    private int started;

    private ObservedRun(PrintStream out, Path directory) {
        this.out = out;
        this.directory = directory;
    }

    /**
     * Creates a temporary directory under {@code parent}, plays the script in it, deletes it, and ends with
     * one line that says whether every scenario ran to its end.
     */
    public static void play(PrintStream out, Path parent, String heading, Script script) throws IOException {
        ObservedRun run = new ObservedRun(out, Files.createTempDirectory(parent, "fencing-lab-"));
        out.println(heading + ": temporary databases in " + run.directory);
        try {
            script.play(run);
        } finally {
            deleteRecursively(run.directory);
            out.println();
            out.println("Deleted " + run.directory + ".");
        }
        run.summarize();
    }

    /** The system's temporary directory, where runs started from the command line create theirs. */
    public static Path systemTemporaryDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    public void scenario(String title, Scenario scenario) {
        out.println();
        out.println(title);
        started++;
        try (Scene scene = new Scene(directory.resolve("scenario-" + started + ".db"), out)) {
            scenario.run(scene);
        } catch (NotPlayedHere lacking) {
            out.println("  not played here: " + lacking.getMessage());
            notPlayed.add(title);
        } catch (NotWrittenYet stub) {
            out.println("  stopped: " + stub.method() + " is not written yet (" + stub.file() + ")");
            missing.add(title + ": " + stub.method() + " is not written yet");
        } catch (InterruptedException e) {
            // Someone asked the walkthrough to stop: stop it, and keep the request for whoever called it.
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the walkthrough was interrupted in the scenario: " + title, e);
        } catch (Exception e) {
            // Code written halfway stops its scenario, not the walkthrough; the koans say what to fix.
            // The first line says what failed; a server's context lines after it belong in the koans' report.
            String thrown = e.toString().lines().findFirst().orElse("");
            out.println("  stopped: it threw " + thrown);
            missing.add(title + ": it threw " + thrown);
        }
    }

    private void summarize() {
        if (missing.isEmpty() && notPlayed.isEmpty()) {
            out.println("Every scenario ran to its end.");
        } else if (missing.isEmpty()) {
            out.println("Every scenario played here ran to its end; not played here: " + String.join(", ", notPlayed)
                    + ".");
        } else {
            out.println(missing.size() + " scenario(s) stopped before their end:");
            missing.forEach(line -> out.println("  - " + line));
            out.println("The koans (./mvnw test) name what to write or fix next.");
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("deleting " + directory, e);
        }
    }
}
