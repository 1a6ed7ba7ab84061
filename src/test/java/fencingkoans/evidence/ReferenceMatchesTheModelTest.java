package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ResourceState;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model-based random testing of the reference: thousands of seeded sequences of installs, applies (fresh,
 * duplicate, conflicting, stale, invented, unknown resource), reads, faults and reopens, each step compared
 * with {@link ContractModel}. The sequences are fixed by the master seed, so CI sees the same ones every run;
 * {@code -Devidence.masterSeed=N} explores others. The files live in memory: see {@link InMemoryFileSystem}.
 */
class ReferenceMatchesTheModelTest {

    private static final int SEQUENCES = Integer.getInteger("evidence.sequences", 2_000);
    private static final int MAX_STEPS = Integer.getInteger("evidence.maxSteps", 60);
    private static final long MASTER_SEED = Long.getLong("evidence.masterSeed", 20_261_130L);

    @TempDir(factory = InMemoryFileSystem.class)
    private Path work;

    @Test
    void everyRandomSequenceAgreesWithTheModel() {
        ModelCheck check = new ModelCheck(work, Destination.THROUGH_APPLY);
        long started = System.nanoTime();

        Optional<String> failure = firstFailure(check);

        System.out.printf("model check: %d sequences of up to %d steps (%d steps in all) from seed %d in %.1f s%n",
                SEQUENCES, MAX_STEPS, check.comparedSteps(), MASTER_SEED, (System.nanoTime() - started) / 1e9);
        assertThat(failure).as("the reference must answer every step as the contract model does").isEmpty();
    }

    @Test
    void aGivenSeedReplaysAlone() {
        long seed = Long.getLong("evidence.seed", MASTER_SEED);

        Optional<String> failure = new ModelCheck(work, Destination.THROUGH_APPLY).check(seed, MAX_STEPS);

        assertThat(failure).as("the sequence of seed %d (set it with -Devidence.seed=N)", seed).isEmpty();
    }

    @Test
    void theCheckCatchesAStoreThatTrustsAGenerationReadBeforeTheRecord() {
        ModelCheck check = new ModelCheck(work, GENERATION_BEFORE_RECORD);

        Optional<String> failure = firstFailure(check);

        assertThat(failure).as("a store that rejects a lost response's replay once authority moved on must be "
                + "caught, or the model check proves nothing").isPresent();
        assertThat(failure.get()).as("the report of the wrong store").contains("Shortest failing prefix",
                "Reduced to the", "STALE_GENERATION", "-Devidence.seed=");
        System.out.println("the model check caught a wrong store as follows:\n" + failure.get());
    }

    /** The report of the first of the master seed's sequences on which the store and the model disagree. */
    private static Optional<String> firstFailure(ModelCheck check) {
        return LongStream.range(MASTER_SEED, MASTER_SEED + SEQUENCES).mapToObj(seed -> check.check(seed, MAX_STEPS))
                .flatMap(Optional::stream).findFirst();
    }

    /** A wrong store: it trusts a read taken before the transaction and checks the generation before the record. */
    private static final BiFunction<FencedStore, ApplyRequest, ApplyResult> GENERATION_BEFORE_RECORD =
            (store, request) -> {
                Optional<ResourceState> earlier = store.read(request.resource());
                return earlier.isPresent() && request.generation() < earlier.get().generation()
                        ? Rejected.stale(request.generation(), earlier.get().generation())
                        : store.apply(request);
            };
}
