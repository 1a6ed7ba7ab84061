package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;
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
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graded run draws the sequence of the koans on requests no koan wrote from a seed of chance, so a store must pass
 * or fail them whatever the seed: one that follows the lessons' rules on every seed, one that breaks a rule the
 * sequence draws on every seed too. Here: every sequence meets each kind of step of its lesson early; the reference
 * agrees on many seeds of every lesson; stores that do only what lesson 1, or lessons 1 and 2, ask agree on their
 * lesson's seeds, and so does one that refuses to take a fund below zero, which no koan asks; and wrong stores
 * fail on every seed.
 */
class UnseenRequestsTest {

    private static final int SEEDS = Integer.getInteger("evidence.unseenSeeds", 200);
    private static final int DRAWN_SEEDS = 2_000;
    /** Every kind of step within this many of the sequence's 150, so that later steps meet them again. */
    private static final int EVERY_KIND_WITHIN = 60;

    @TempDir(factory = InMemoryFileSystem.class)
    private Path work;

    @ParameterizedTest
    @EnumSource(Scope.class)
    void everySequenceDrawsEveryKindOfItsLessonWithinItsFirstSteps(Scope scope) {
        for (boolean onSqlite : List.of(true, false)) {
            int latest = LongStream.range(0, DRAWN_SEEDS).mapToInt(seed -> {
                int drawn = UnseenRequests.everyKindDrawnBy(scope, seed, onSqlite);
                return drawn < 0 ? Integer.MAX_VALUE : drawn;
            }).max().orElseThrow();
            System.out.printf("%s%s: every kind drawn by step %d at the latest, over %d seeds%n", scope,
                    onSqlite ? " on SQLite" : "", latest, DRAWN_SEEDS);
            assertThat(latest).as("the step by which the latest of %d sequences of %s%s has drawn every kind of step",
                    DRAWN_SEEDS, scope, onSqlite ? " on SQLite" : "").isLessThanOrEqualTo(EVERY_KIND_WITHIN);
        }
    }

    @ParameterizedTest
    @EnumSource(Scope.class)
    void theReferenceAgreesOnEverySeed(Scope scope) {
        everySeedAgrees(scope, null);
    }

    @Test
    void lessonOnesHintedStoreAgreesOnEverySeedOfItsLesson() {
        everySeedAgrees(Scope.STALE_AUTHORITY, (course, request) -> {
            long installed = course.generation(request.resource());
            return request.generation() != installed ? Rejected.stale(request.generation(), installed)
                    : applyWithoutARecord(course, request);
        });
    }

    @Test
    void aStoreOfLessonsOneAndTwoAloneAgreesOnEverySeedOfLessonTwo() {
        everySeedAgrees(Scope.CONTRACT_PER_RESOURCE, UnseenRequestsTest::lessonsOneAndTwo);
    }

    @Test
    void aStoreThatRefusesToTakeAFundBelowZeroAgreesOnEverySeed() {
        everySeedAgrees(Scope.CONTRACT_PER_RESOURCE, (course, request) -> {
            Optional<ResourceState> state = request == null ? Optional.empty() : course.read(request.resource());
            if (state.isPresent() && state.get().value() + request.delta() < 0) {
                throw new IllegalArgumentException("delta " + request.delta() + " would overdraw "
                        + request.resource());
            }
            return lessonsOneAndTwo(course, request);
        });
    }

    @Test
    void aStoreThatRefusesAZeroDeltaAgreesWithLessonOneAndFailsLessonTwoOnEverySeed() {
        BiFunction<Destination, ApplyRequest, ApplyResult> refusesZero = (course, request) -> {
            if (request != null && request.delta() == 0) {
                throw new IllegalArgumentException("delta must not be 0");
            }
            return lessonsOneAndTwo(course, request);
        };
        everySeedAgrees(Scope.STALE_AUTHORITY, refusesZero);
        everySeedFails(Scope.CONTRACT_PER_RESOURCE, refusesZero);
    }

    @Test
    void aStoreThatAdmitsAnyGenerationAtLeastTheInstalledOneFailsLessonTwoOnEverySeed() {
        everySeedFails(Scope.CONTRACT_PER_RESOURCE, (course, request) -> {
            Optional<ResourceState> state = course.read(request.resource());
            return state.isPresent() && request.generation() < state.get().generation()
                    ? Rejected.stale(request.generation(), state.get().generation())
                    : lessonsOneAndTwo(course, request);
        });
    }

    @Test
    void aStoreWithoutRecordsFailsLessonFourOnEverySeed() {
        everySeedFails(Scope.DUPLICATES, UnseenRequestsTest::lessonsOneAndTwo);
    }

    /** Lessons 1 and 2 as their koans ask, checks first, with no request record and no transaction. */
    private static ApplyResult lessonsOneAndTwo(Destination course, ApplyRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("request must not be null");
        }
        requireText("resource", request.resource());
        requireText("requestId", request.requestId());
        if (request.requestId().length() > ApplyRequest.MAX_REQUEST_ID_LENGTH) {
            throw new IllegalArgumentException("requestId is too long");
        }
        if (request.generation() < 1) {
            throw new IllegalArgumentException("generation must be at least 1");
        }
        Optional<ResourceState> state = course.read(request.resource());
        if (state.isEmpty()) {
            return Rejected.unknownResource(request);
        }
        long installed = state.get().generation();
        return request.generation() < installed ? Rejected.stale(request.generation(), installed)
                : request.generation() > installed ? Rejected.unissued(request.generation(), installed)
                : applyWithoutARecord(course, request);
    }

    private static void requireText(String field, String text) {
        if (text == null || text.isBlank() || text.chars().anyMatch(c -> Character.isISOControl(c)
                || Character.isSurrogate((char) c))) {
            throw new IllegalArgumentException(field + " must be readable text");
        }
    }

    /** The value moved by the reference under an id of its own, so that the request itself leaves no record. */
    private static ApplyResult applyWithoutARecord(Destination course, ApplyRequest request) {
        long before = course.value(request.resource());
        course.worker().apply(new ApplyRequest(request.resource(), request.generation(),
                "moved-" + System.nanoTime(), request.delta()));
        return new Applied(before + request.delta());
    }

    /** Every seed on a course database of its own, its worker answering as {@code store} does (null: the reference). */
    private void everySeedAgrees(Scope scope, BiFunction<Destination, ApplyRequest, ApplyResult> store) {
        LongStream.range(0, SEEDS).forEach(seed -> onAFreshCourse(course -> UnseenRequests
                .assertTheStoreFollowsTheContract(store == null ? course : new Answering(course, store), scope, seed)));
    }

    private void everySeedFails(Scope scope, BiFunction<Destination, ApplyRequest, ApplyResult> store) {
        LongStream.range(0, SEEDS).forEach(seed -> onAFreshCourse(course -> assertThatThrownBy(() -> UnseenRequests
                .assertTheStoreFollowsTheContract(new Answering(course, store), scope, seed))
                .as("the sequence of seed %d", seed).isInstanceOf(AssertionError.class)
                .hasMessageContaining("step ")));
    }

    private void onAFreshCourse(Consumer<SqliteDestination> use) {
        try (SqliteDestination course = SqliteDestination.createIn(Files.createTempDirectory(work, "seed"))) {
            use.accept(course);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The course database with another store's answers in front of its worker; drawn as on PostgreSQL. */
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
