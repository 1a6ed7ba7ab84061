package fencingkoans.koans.support;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.NotWrittenYet;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.RejectionReason;
import fencingkoans.destination.Destination;
import fencingkoans.destination.Destination.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Requests no koan wrote: a sequence of installs, applies and reads drawn at random, answered by the store and by
 * {@link ContractModel} side by side. Each lesson that ends with such a koan draws only what its own koans already
 * pin down, so a store that follows the lesson's rules always agrees. The sequence is fixed in a learner's runs
 * and drawn afresh for every graded run ({@link #SEED}), so that no table of answers can know it in advance.
 */
public final class UnseenRequests {

    /** The system property a graded run sets to a seed of chance; learner code cannot read it. */
    public static final String SEED = "koans.unseen-requests.seed";
    private static final long LEARNER_SEED = 2_026_12_07L;
    private static final int STEPS = 150;
    private static final int SHOWN_BEFORE = 8;
    private static final String UNKNOWN = "fund-C";
    private static final String READ = "read ";

    /** What a lesson's sequence may hold, each a superset of nothing but what the lesson's koans ask for. */
    public enum Scope {
        /** Lesson 1: fund-A alone, a new request id each time, generations installed upwards, stale requests. */
        STALE_AUTHORITY(false, false, false),
        /** Lesson 2: fund-A, fund-B and an unknown fund-C; installs that are not higher; invented generations. */
        CONTRACT_PER_RESOURCE(true, true, false),
        /** Lesson 4: fund-A and fund-B; request ids sent again, with their delta or another, across generations. */
        DUPLICATES(true, false, true);

        private final boolean inventedGenerations;
        private final boolean refusedInstallsAndUnknownResources;
        private final boolean repeatedIds;

        Scope(boolean inventedGenerations, boolean refusedInstallsAndUnknownResources, boolean repeatedIds) {
            this.inventedGenerations = inventedGenerations;
            this.refusedInstallsAndUnknownResources = refusedInstallsAndUnknownResources;
            this.repeatedIds = repeatedIds;
        }
    }

    /** One step with its arguments, done on the contract and on the destination alike. */
    private record Step(String resource, String text, Function<ContractModel, Object> onContract,
            BiFunction<Worker, Destination, Object> onDestination) {
    }

    private final Scope scope;
    private final Random random;
    private final ContractModel contract = new ContractModel();
    private int nextId;

    private UnseenRequests(Scope scope, long seed) {
        this.scope = scope;
        this.random = new Random(seed * 31 + scope.ordinal());
    }

    /**
     * Runs one sequence on {@code course}, which must be in its start state, and fails at the first step whose answer
     * or whose resource afterwards differs from the contract's, showing that step and the ones before it on its
     * resource.
     */
    public static void assertTheStoreFollowsTheContract(Destination course, Scope scope) {
        Long graded = Long.getLong(SEED);
        new UnseenRequests(scope, graded == null ? LEARNER_SEED : graded).run(course,
                graded == null ? "the same in every learner run" : "drawn for this graded run");
    }

    /** The sequence of {@code seed}, as a graded run with that seed would draw it. */
    public static void assertTheStoreFollowsTheContract(Destination course, Scope scope, long seed) {
        new UnseenRequests(scope, seed).run(course, "seed " + seed);
    }

    private void run(Destination course, String which) {
        Worker worker = course.worker();
        List<Step> done = new ArrayList<>();
        for (int i = 1; i <= STEPS; i++) {
            Step step = next();
            Object expected = pinned(step.onContract().apply(contract));
            Object actual;
            try {
                actual = pinned(step.onDestination().apply(worker, course));
            } catch (NotWrittenYet e) {
                throw e;
            } catch (RuntimeException e) {
                actual = "threw " + e;
            }
            String context = String.format("step %d of %d of the requests no koan wrote (%s): %s%nThe earlier "
                    + "installs and applies on %s, oldest first:%n%s%nWork the step out by the lesson's rules from "
                    + "those: which case does your store not handle in general?", i, STEPS, which, step.text(),
                    step.resource(), stepsBefore(done, step.resource()));
            done.add(step);
            assertThat(actual).as("the answer to " + context).isEqualTo(expected);
            assertThat(course.read(step.resource())).as("%s as committed after %s", step.resource(), context)
                    .isEqualTo(contract.read(step.resource()));
        }
    }

    private Step next() {
        String resource = scope == Scope.STALE_AUTHORITY || random.nextBoolean() ? FUND_A : FUND_B;
        if (scope.refusedInstallsAndUnknownResources && random.nextInt(12) == 0) {
            resource = UNKNOWN;
        }
        int roll = random.nextInt(100);
        if (roll < 20) {
            return install(resource);
        }
        if (roll < 28) {
            String read = resource;
            return new Step(read, READ + read, model -> model.read(read), (worker, course) -> course.read(read));
        }
        List<Map.Entry<String, Long>> stored = contract.storedRequests(resource);
        if (scope.repeatedIds && roll < 60 && !stored.isEmpty()) {
            Map.Entry<String, Long> earlier = stored.get(random.nextInt(stored.size()));
            long delta = random.nextInt(3) == 0 ? earlier.getValue() + 1 + random.nextInt(50) : earlier.getValue();
            return apply(new ApplyRequest(resource, generation(resource), earlier.getKey(), delta));
        }
        return apply(new ApplyRequest(resource, generation(resource), "u-" + nextId++, random.nextInt(2001) - 1000));
    }

    private Step install(String resource) {
        long installed = installed(resource);
        long offered = scope.refusedInstallsAndUnknownResources && random.nextInt(3) == 0
                ? 1 + (long) random.nextInt((int) Math.min(installed, 1_000))
                : installed + 1 + random.nextInt(3);
        return new Step(resource, "install " + resource + " generation " + offered,
                model -> model.install(resource, offered), (worker, course) -> course.install(resource, offered));
    }

    private Step apply(ApplyRequest request) {
        return new Step(request.resource(), "apply " + request, model -> model.apply(request),
                (worker, course) -> worker.apply(request));
    }

    /** Mostly the installed generation; sometimes an older one; in lessons that know them, one never issued. */
    private long generation(String resource) {
        long installed = installed(resource);
        int roll = random.nextInt(10);
        if (roll < 2 && installed > 1) {
            return 1 + random.nextInt((int) Math.min(installed - 1, 1_000));
        }
        return roll == 2 && scope.inventedGenerations ? installed + 1 + random.nextInt(3) : installed;
    }

    private long installed(String resource) {
        return contract.read(resource).map(state -> state.generation()).orElse(1L);
    }

    /**
     * What the koans pin down of an answer. An unknown resource's rejection is pinned by its reason alone, so that is
     * all that is compared of it.
     */
    private static Object pinned(Object answer) {
        if (answer instanceof Rejected rejected && rejected.reason() == RejectionReason.UNKNOWN_RESOURCE) {
            return "Rejected[reason=" + rejected.reason() + "]";
        }
        return answer;
    }

    private static String stepsBefore(List<Step> done, String resource) {
        List<String> onResource = done.stream().filter(step -> step.resource().equals(resource))
                .map(Step::text).filter(text -> !text.startsWith(READ)).toList();
        List<String> shown = onResource.subList(Math.max(0, onResource.size() - SHOWN_BEFORE), onResource.size());
        String earlier = onResource.size() > shown.size()
                ? "  (" + (onResource.size() - shown.size()) + " earlier ones left out)\n" : "";
        return shown.isEmpty() ? "  none: it is the first step on " + resource
                : earlier + "  " + String.join("\n  ", shown);
    }
}
