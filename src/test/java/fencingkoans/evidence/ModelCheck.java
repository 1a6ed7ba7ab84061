package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.destination.Destination;
import fencingkoans.koans.support.ContractModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.LongStream;

/**
 * Runs step sequences on a fresh course database and on the {@link ContractModel} side by side, comparing
 * every answer and the whole database after every step. A disagreement is reported with its seed, the
 * shortest failing prefix, and that prefix reduced to the steps that matter. The destination is SQLite or
 * PostgreSQL: {@code freshDestination} gives one in its start state for each run, and {@code connectionsOn} opens
 * what the run holds on it.
 */
final class ModelCheck<D extends Destination> {

    static final int MAX_STEPS = Integer.getInteger("evidence.maxSteps", 60);
    static final long MASTER_SEED = Long.getLong("evidence.masterSeed", 20_261_130L);

    /** The first step after which the store and the model disagree. */
    record Mismatch(Object expected, Object actual, List<String> expectedRows, List<String> actualRows) {
    }

    private final Supplier<D> freshDestination;
    private final Function<D, SequenceConnections> connectionsOn;
    /** The test method that replays one seed, as "Class#method". */
    private final String replayTest;
    private long comparedSteps;

    ModelCheck(Supplier<D> freshDestination, Function<D, SequenceConnections> connectionsOn, String replayTest) {
        this.freshDestination = freshDestination;
        this.connectionsOn = connectionsOn;
        this.replayTest = replayTest;
    }

    /** Generates and runs the sequence of {@code seed}; empty when it agrees with the model to the end. */
    Optional<String> check(long seed, int maxSteps) {
        StepGenerator generator = new StepGenerator(seed);
        int length = generator.length(maxSteps);
        List<Step> steps = new ArrayList<>();
        ContractModel model = new ContractModel();
        Optional<Mismatch> mismatch = onFreshDatabase(run -> {
            for (int i = 0; i < length; i++) {
                Step generated = generator.next(model);
                Step step = run.held.seams().isPresent() ? generated : generated.withoutFault();
                steps.add(step);
                Optional<Mismatch> found = compare(step, model, run);
                if (found.isPresent()) {
                    return found;
                }
            }
            return Optional.empty();
        });
        return mismatch.map(found -> report(seed, length, steps, found));
    }

    /** The report of the first of {@code sequences} seeds from the master seed on which store and model disagree. */
    Optional<String> firstFailure(int sequences) {
        return LongStream.range(MASTER_SEED, MASTER_SEED + sequences).mapToObj(seed -> check(seed, MAX_STEPS))
                .flatMap(Optional::stream).findFirst();
    }

    /** Fails with the report of the first disagreement among {@code sequences} seeds; prints what ran. */
    void assertEverySequenceAgrees(int sequences, String destination) {
        long started = System.nanoTime();

        Optional<String> failure = firstFailure(sequences);

        System.out.printf("model check on %s: %d sequences of up to %d steps (%d steps in all) from seed %d in %.1f s%n",
                destination, sequences, MAX_STEPS, comparedSteps, MASTER_SEED, (System.nanoTime() - started) / 1e9);
        assertThat(failure).as("the reference on %s must answer every step as the contract model does", destination)
                .isEmpty();
    }

    /** The sequence of {@code -Devidence.seed=N} alone (the master seed without it), as a failure report asks. */
    void assertTheGivenSeedAgrees() {
        long seed = Long.getLong("evidence.seed", MASTER_SEED);

        assertThat(check(seed, MAX_STEPS)).as("the sequence of seed %d (set it with -Devidence.seed=N)", seed).isEmpty();
    }

    /** Runs a fixed list of steps; the first disagreement, if any. */
    Optional<Mismatch> replay(List<Step> steps) {
        ContractModel model = new ContractModel();
        return onFreshDatabase(run -> {
            for (Step step : steps) {
                Optional<Mismatch> found = compare(step, model, run);
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
                + "\nRe-run this sequence alone: ./mvnw -B -Psolutions test-compile surefire:test@evidence"
                + " -Dtest=" + replayTest + " -Devidence.seed=" + seed + "\n";
    }

    private Optional<Mismatch> compare(Step step, ContractModel model, Run run) {
        comparedSteps++;
        Object expected = step.onModel(model);
        Object actual;
        try {
            if (step instanceof Step.Reopen) {
                run.reopen();
            }
            actual = step.onStore(run.held);
        } catch (RuntimeException e) {
            actual = Step.thrown(e);
        }
        List<String> expectedRows = model.contents();
        List<String> actualRows = run.held.contents().get();
        return Objects.equals(expected, actual) && expectedRows.equals(actualRows)
                ? Optional.empty()
                : Optional.of(new Mismatch(expected, actual, expectedRows, actualRows));
    }

    /** One sequence's fresh destination and the connections it holds on it now. */
    private final class Run {
        final D destination;
        SequenceConnections held;

        Run(D destination) {
            this.destination = destination;
            this.held = connectionsOn.apply(destination);
        }

        /** Closes every connection the destination opened and opens new ones. */
        void reopen() {
            destination.close();
            held = connectionsOn.apply(destination);
        }
    }

    private Optional<Mismatch> onFreshDatabase(Function<Run, Optional<Mismatch>> steps) {
        try (D destination = freshDestination.get()) {
            return steps.apply(new Run(destination));
        }
    }

    private static String numbered(List<Step> steps) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            lines.append(String.format("  %2d. %s%n", i + 1, steps.get(i)));
        }
        return lines.toString();
    }
}
