package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.koans.support.CourseDatabase;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * Runs step sequences on a fresh course database and on the {@link ContractModel} side by side, comparing
 * every answer and the whole database after every step. A disagreement is reported with its seed, the
 * shortest failing prefix, and that prefix reduced to the steps that matter.
 */
final class ModelCheck {

    /** The first step after which the store and the model disagree. */
    record Mismatch(Object expected, Object actual, List<String> expectedRows, List<String> actualRows) {
    }

    private final Path workDirectory;
    private final BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath;
    private int runs;
    private long comparedSteps;

    ModelCheck(Path workDirectory, BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath) {
        this.workDirectory = workDirectory;
        this.applyPath = applyPath;
    }

    /** Generates and runs the sequence of {@code seed}; empty when it agrees with the model to the end. */
    Optional<String> check(long seed, int maxSteps) {
        StepGenerator generator = new StepGenerator(seed);
        int length = generator.length(maxSteps);
        List<Step> steps = new ArrayList<>();
        ContractModel model = new ContractModel();
        Optional<Mismatch> mismatch = onFreshDatabase(destination -> {
            for (int i = 0; i < length; i++) {
                Step step = generator.next(model);
                steps.add(step);
                Optional<Mismatch> found = compare(step, model, destination);
                if (found.isPresent()) {
                    return found;
                }
            }
            return Optional.empty();
        });
        return mismatch.map(found -> report(seed, length, steps, found));
    }

    /** How many steps were compared so far, shortening included. */
    long comparedSteps() {
        return comparedSteps;
    }

    /** Runs a fixed list of steps; the first disagreement, if any. */
    Optional<Mismatch> replay(List<Step> steps) {
        ContractModel model = new ContractModel();
        return onFreshDatabase(destination -> {
            for (Step step : steps) {
                Optional<Mismatch> found = compare(step, model, destination);
                if (found.isPresent()) {
                    return found;
                }
            }
            return Optional.empty();
        });
    }

    /** Drops one step at a time, keeping each drop after which the steps still fail. */
    List<Step> reduce(List<Step> failing) {
        List<Step> reduced = new ArrayList<>(failing);
        for (int i = reduced.size() - 2; i >= 0; i--) {
            List<Step> candidate = new ArrayList<>(reduced);
            candidate.remove(i);
            if (replay(candidate).isPresent()) {
                reduced = candidate;
            }
        }
        return reduced;
    }

    private String report(long seed, int length, List<Step> prefix, Mismatch mismatch) {
        List<Step> reduced = reduce(prefix);
        Mismatch last = replay(reduced).orElse(mismatch);
        return "seed " + seed + ": the store and the model disagree after step " + prefix.size() + " of " + length
                + ".\nShortest failing prefix (" + prefix.size() + " steps):\n" + numbered(prefix)
                + "Reduced to the " + reduced.size() + " steps that matter:\n" + numbered(reduced)
                + "After the last of these the model answered  " + last.expected()
                + "\n                       and the store answered " + last.actual()
                + "\nThe model holds    " + last.expectedRows() + "\nThe database holds " + last.actualRows()
                + "\nRe-run this sequence alone: ./mvnw -B test -Pevidence"
                + " -Dtest=ReferenceMatchesTheModelTest#aGivenSeedReplaysAlone -Devidence.seed=" + seed + "\n";
    }

    private Optional<Mismatch> compare(Step step, ContractModel model, Destination destination) {
        comparedSteps++;
        Object expected = step.onModel(model);
        Object actual;
        try {
            actual = step.onStore(destination);
        } catch (RuntimeException e) {
            actual = Step.thrown(e);
        }
        List<String> expectedRows = model.contents();
        List<String> actualRows = destination.contents();
        return Objects.equals(expected, actual) && expectedRows.equals(actualRows)
                ? Optional.empty()
                : Optional.of(new Mismatch(expected, actual, expectedRows, actualRows));
    }

    private interface Run {
        Optional<Mismatch> on(Destination destination);
    }

    private Optional<Mismatch> onFreshDatabase(Run run) {
        Path directory = workDirectory.resolve("run-" + runs++);
        try {
            Files.createDirectories(directory);
            try (Destination destination = new Destination(CourseDatabase.createIn(directory), applyPath)) {
                return run.on(destination);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not run on a fresh database in " + directory, e);
        } finally {
            deleteAll(directory);
        }
    }

    private static String numbered(List<Step> steps) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            lines.append(String.format("  %2d. %s%n", i + 1, steps.get(i)));
        }
        return lines.toString();
    }

    private static void deleteAll(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
