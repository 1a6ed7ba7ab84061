package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.koans.support.ContractModel;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Stream;
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
    private static final String REPLAY = "ReferenceMatchesTheModelTest#aGivenSeedReplaysAlone";

    @TempDir(factory = InMemoryFileSystem.class)
    private Path work;

    @Test
    void everyRandomSequenceAgreesWithTheModel() {
        modelCheck(FencedStore::apply).assertEverySequenceAgrees(SEQUENCES, "SQLite");
    }

    @Test
    void aGivenSeedReplaysAlone() {
        modelCheck(FencedStore::apply).assertTheGivenSeedAgrees();
    }

    @Test
    void theCheckCatchesAStoreThatTrustsAGenerationReadBeforeTheRecord() {
        ModelCheck<SqliteDestination> check = modelCheck(GENERATION_BEFORE_RECORD);

        Optional<String> failure = check.firstFailure(SEQUENCES);

        assertThat(failure).as("a store that rejects a lost response's replay once authority moved on must be "
                + "caught, or the model check proves nothing").isPresent();
        assertThat(failure.get()).as("the report of the wrong store").contains("Shortest failing prefix",
                "Reduced to the", "STALE_GENERATION", "-Devidence.seed=");
        System.out.println("the model check caught a wrong store as follows:\n" + failure.get());
    }

    /** A wrong store: it trusts a read taken before the transaction and checks the generation before the record. */
    private static final BiFunction<FencedStore, ApplyRequest, ApplyResult> GENERATION_BEFORE_RECORD =
            (store, request) -> {
                Optional<ResourceState> earlier = store.read(request.resource());
                return earlier.isPresent() && request.generation() < earlier.get().generation()
                        ? Rejected.stale(request.generation(), earlier.get().generation())
                        : store.apply(request);
            };

    /**
     * Each sequence on a new course database in place of the last one, so that one file at a time is on disk, with
     * its worker's store reached through {@code applyPath}.
     */
    private ModelCheck<SqliteDestination> modelCheck(BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath) {
        return new ModelCheck<>(() -> SqliteDestination.createIn(emptied(work)),
                course -> SequenceConnections.on(course, applyPath), REPLAY);
    }

    private static Path emptied(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("emptying " + directory, e);
        }
        return directory;
    }
}
