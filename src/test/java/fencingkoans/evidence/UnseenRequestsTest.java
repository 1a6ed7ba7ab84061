package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.Destination;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.koans.support.UnseenRequests;
import fencingkoans.koans.support.UnseenRequests.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graded run draws the sequence of the koans on requests no koan wrote from a seed of chance, so a store that
 * follows a lesson's rules must agree with the contract on every seed, and a store that got the rule wrong must
 * not. Here: the reference on many seeds of every scope, the simplest store of lesson 1 (its hints' answer, no
 * refusal of anything else) on lesson 1's scope, and a store of lessons 1 and 2 alone (no record, no transaction)
 * on lesson 2's; then two wrong ones, which must fail.
 */
class UnseenRequestsTest {

    private static final int SEEDS = Integer.getInteger("evidence.unseenSeeds", 200);

    @TempDir(factory = InMemoryFileSystem.class)
    private Path work;

    @ParameterizedTest
    @EnumSource(Scope.class)
    void theReferenceAgreesOnEverySeed(Scope scope) {
        everySeedAgrees(scope, null);
    }

    @Test
    void lessonOnesHintedStoreAgreesOnEverySeedOfItsScope() {
        everySeedAgrees(Scope.STALE_AUTHORITY, (course, request) -> {
            long installed = course.generation(request.resource());
            return request.generation() != installed ? Rejected.stale(request.generation(), installed)
                    : applyWithoutARecord(course, request);
        });
    }

    @Test
    void aStoreOfLessonsOneAndTwoAloneAgreesOnEverySeedOfLessonTwosScope() {
        everySeedAgrees(Scope.CONTRACT_PER_RESOURCE, (course, request) -> {
            Optional<ResourceState> state = course.read(request.resource());
            if (state.isEmpty()) {
                return Rejected.unknownResource(request);
            }
            long installed = state.get().generation();
            return request.generation() < installed ? Rejected.stale(request.generation(), installed)
                    : request.generation() > installed ? Rejected.unissued(request.generation(), installed)
                    : applyWithoutARecord(course, request);
        });
    }

    @Test
    void aStoreThatAdmitsAnyGenerationAtLeastTheInstalledOneFailsLessonTwo() {
        assertThatThrownBy(() -> everySeedAgrees(Scope.CONTRACT_PER_RESOURCE, (course, request) -> {
            Optional<ResourceState> state = course.read(request.resource());
            return state.isEmpty() ? Rejected.unknownResource(request)
                    : request.generation() < state.get().generation()
                    ? Rejected.stale(request.generation(), state.get().generation())
                    : applyWithoutARecord(course, request);
        })).isInstanceOf(AssertionError.class).hasMessageContaining("UNISSUED_GENERATION");
    }

    @Test
    void aStoreWithoutRecordsFailsLessonFour() {
        assertThatThrownBy(() -> everySeedAgrees(Scope.DUPLICATES, (course, request) -> {
            long installed = course.generation(request.resource());
            return request.generation() < installed ? Rejected.stale(request.generation(), installed)
                    : request.generation() > installed ? Rejected.unissued(request.generation(), installed)
                    : applyWithoutARecord(course, request);
        })).isInstanceOf(AssertionError.class).hasMessageContaining("Replayed");
    }

    /** The value moved by the reference itself, under a request id of its own, so no record is left of the request. */
    private static ApplyResult applyWithoutARecord(Destination course, ApplyRequest request) {
        long before = course.value(request.resource());
        course.worker().apply(new ApplyRequest(request.resource(), request.generation(),
                "moved-" + System.nanoTime(), request.delta()));
        return new Applied(before + request.delta());
    }

    /** Every seed on a course database of its own, the worker answering as {@code store} does (the reference if null). */
    private void everySeedAgrees(Scope scope, BiFunction<Destination, ApplyRequest, ApplyResult> store) {
        LongStream.range(0, SEEDS).forEach(seed -> {
            try (SqliteDestination course = SqliteDestination.createIn(Files.createTempDirectory(work, "seed"))) {
                UnseenRequests.assertTheStoreFollowsTheContract(store == null ? course : new Answering(course, store),
                        scope, seed);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The course database with another store's answers in front of its worker. */
    private record Answering(Destination course, BiFunction<Destination, ApplyRequest, ApplyResult> store)
            implements Destination {

        public Worker worker() {
            return request -> store.apply(course, request);
        }

        public InstallResult install(String resource, long generation) {
            return course.install(resource, generation);
        }

        public Optional<ResourceState> read(String resource) {
            return course.read(resource);
        }

        public List<String> contents() {
            return course.contents();
        }

        public void close() {
        }
    }
}
