package fencingkoans.evidence;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_A_START_VALUE;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.InstallResult;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.StoreException;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several workers, each on its own connection, hammer both resources with fresh, duplicate, conflicting,
 * stale and invented requests while installs move the generations. Busy timeouts are above zero and a
 * {@code Contended} answer is retried, as a production caller would. Nothing is ordered by sleeping: the
 * threads race freely, and the checks afterwards hold whatever order the database chose. Bounded by count.
 */
class ConcurrentWorkersStressTest {

    private static final int WORKERS = 4;
    private static final int REQUESTS_PER_WORKER = Integer.getInteger("evidence.stressRequests", 1_500);
    /** Half the workers wait long for the lock, half barely: both waiting and the Contended retry get exercised. */
    private static final List<Duration> BUSY_TIMEOUTS = List.of(Duration.ofSeconds(10), Duration.ofMillis(1));
    private static final long PATIENCE_MINUTES = 5;

    /** A trigger log, in commit order, of every resource update and every stored record. */
    private static final List<String> AUDIT = List.of(
            "CREATE TABLE audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT, event TEXT, generation INTEGER)",
            "CREATE TRIGGER audit_resource AFTER UPDATE ON resources BEGIN INSERT INTO audit (resource, event,"
                    + " generation) VALUES (new.name, 'installed', new.generation); END",
            "CREATE TRIGGER audit_record AFTER INSERT ON request_records BEGIN INSERT INTO audit (resource, event,"
                    + " generation) VALUES (new.resource, 'applied', new.generation); END");

    /** One answered call: the request, its final answer, and the lowest generation known installed before it. */
    private record Outcome(ApplyRequest request, ApplyResult result, long installedBeforeSending) {
        String key() {
            return request.resource() + "/" + request.requestId();
        }
    }

    @TempDir(factory = InMemoryFileSystem.class)
    private Path directory;

    private final Map<String, Long> installedAtLeast = new ConcurrentHashMap<>(Map.of(FUND_A, 1L, FUND_B, 1L));
    private final List<ApplyRequest> sent = new ArrayList<>();
    private final AtomicInteger contendedRetries = new AtomicInteger();
    private final AtomicInteger installs = new AtomicInteger();

    @ParameterizedTest(name = "journal mode {0}")
    @ValueSource(strings = {"DELETE", "WAL"})
    void concurrentWorkersNeverApplyTwiceNorStaleAndEveryDeltaIsAccountedFor(String journalMode) throws Exception {
        try (SqliteDestination course = SqliteDestination.createIn(directory)) {
            prepare(course, journalMode);
            stressAndCheck(course, journalMode);
        }
    }

    private void stressAndCheck(SqliteDestination course, String journalMode) throws Exception {
        long started = System.nanoTime();

        List<Outcome> outcomes = runWorkers(course.file());

        System.out.printf("stress (%s): %d workers, %d requests, %d installs, %d contended retries, %s in %.1f s%n",
                journalMode, WORKERS, outcomes.size(), installs.get(), contendedRetries.get(), tally(outcomes),
                (System.nanoTime() - started) / 1e9);
        Map<String, Applied> applied = appliedOnce(outcomes);
        assertThat(course.value(FUND_A)).as("fund-A's value: its start plus every delta answered Applied")
                .isEqualTo(FUND_A_START_VALUE + sumOfApplied(outcomes, FUND_A));
        assertThat(course.value(FUND_B)).as("fund-B's value: its start plus every delta answered Applied")
                .isEqualTo(FUND_B_START_VALUE + sumOfApplied(outcomes, FUND_B));
        assertThat(course.records()).as("request records: exactly the requests answered Applied")
                .containsExactlyInAnyOrderElementsOf(applied.keySet());
        for (Outcome outcome : outcomes) {
            if (outcome.result() instanceof Replayed replayed) {
                Applied original = applied.get(outcome.key());
                assertThat(original).as("%s was answered Replayed but never Applied", outcome.key()).isNotNull();
                assertThat(replayed.value()).as("the replay of %s: the value of its original Applied answer",
                        outcome.key()).isEqualTo(original.value());
            }
            if (outcome.result() instanceof Applied) {
                assertThat(outcome.request().generation()).as("%s was applied although a higher generation had "
                        + "been installed before it was sent", outcome.key())
                        .isGreaterThanOrEqualTo(outcome.installedBeforeSending());
            }
        }
        assertThat(staleApplies(course)).as("records stored under a generation other than the one installed at "
                + "that moment, in commit order").isEmpty();
    }

    private static void prepare(SqliteDestination course, String journalMode) throws SQLException {
        try (Connection connection = course.connection(); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=" + journalMode);
            for (String ddl : AUDIT) {
                statement.execute(ddl);
            }
        }
    }

    private List<Outcome> runWorkers(Path file) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<List<Outcome>>> workers = new ArrayList<>();
            for (int worker = 0; worker < WORKERS; worker++) {
                int number = worker;
                workers.add(pool.submit(() -> {
                    start.await();
                    return work(file, number);
                }));
            }
            start.countDown();
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<List<Outcome>> worker : workers) {
                outcomes.addAll(worker.get(PATIENCE_MINUTES, TimeUnit.MINUTES));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One worker's run: its own store and authority connections, its own seeded choices. */
    private List<Outcome> work(Path file, int number) {
        Random random = new Random(number);
        List<Outcome> outcomes = new ArrayList<>();
        Duration busyTimeout = BUSY_TIMEOUTS.get(number % BUSY_TIMEOUTS.size());
        try (FencedStore store = new FencedStore(Ledger.open(file, busyTimeout));
                Authority authority = new Authority(Ledger.open(file, busyTimeout))) {
            Map<String, Long> believed = new HashMap<>(Map.of(FUND_A, 1L, FUND_B, 1L));
            for (int i = 0; i < REQUESTS_PER_WORKER; i++) {
                String resource = random.nextBoolean() ? FUND_A : FUND_B;
                int roll = random.nextInt(100);
                if (roll < 3) {
                    install(authority, resource, installedAtLeast.get(resource) + 1);
                    continue;
                }
                if (roll < 13) {
                    believed.put(resource, installedGeneration(store, resource));
                }
                ApplyRequest request = request(random, roll, resource, believed.get(resource), "w" + number + "-" + i);
                outcomes.add(send(store, request));
            }
        }
        return outcomes;
    }

    private ApplyRequest request(Random random, int roll, String resource, long generation, String freshId) {
        if (roll < 30) {
            ApplyRequest earlier = anySent(random);
            if (earlier != null) {
                long delta = roll < 25 ? earlier.delta() : earlier.delta() + 1;
                return new ApplyRequest(earlier.resource(), generation, earlier.requestId(), delta);
            }
        }
        if (roll < 36) {
            generation = Math.max(1, generation - 1);
        } else if (roll < 40) {
            generation += 5;
        }
        return new ApplyRequest(resource, generation, freshId, random.nextInt(201) - 100);
    }

    private Outcome send(FencedStore store, ApplyRequest request) {
        long floor = installedAtLeast.get(request.resource());
        ApplyResult result = store.apply(request);
        while (result instanceof Contended) {
            contendedRetries.incrementAndGet();
            result = store.apply(request);
        }
        synchronized (sent) {
            sent.add(request);
        }
        return new Outcome(request, result, floor);
    }

    /** A read has no Contended answer: with a short busy timeout it throws on contention, and is retried. */
    private long installedGeneration(FencedStore store, String resource) {
        while (true) {
            try {
                return store.read(resource).orElseThrow().generation();
            } catch (StoreException e) {
                if (!e.isContention()) {
                    throw e;
                }
                contendedRetries.incrementAndGet();
            }
        }
    }

    private void install(Authority authority, String resource, long generation) {
        InstallResult result = authority.install(resource, generation);
        while (result instanceof InstallResult.Contended) {
            contendedRetries.incrementAndGet();
            result = authority.install(resource, generation);
        }
        if (result instanceof InstallResult.Installed) {
            installs.incrementAndGet();
            installedAtLeast.merge(resource, generation, Math::max);
        }
    }

    private ApplyRequest anySent(Random random) {
        synchronized (sent) {
            return sent.isEmpty() ? null : sent.get(random.nextInt(sent.size()));
        }
    }

    /** The Applied answer of every key, failing if any key was applied twice. */
    private static Map<String, Applied> appliedOnce(List<Outcome> outcomes) {
        Map<String, Applied> applied = new HashMap<>();
        for (Outcome outcome : outcomes) {
            if (outcome.result() instanceof Applied answer) {
                assertThat(applied.put(outcome.key(), answer)).as("%s was answered Applied a second time",
                        outcome.key()).isNull();
            }
        }
        return applied;
    }

    private static long sumOfApplied(List<Outcome> outcomes, String resource) {
        return outcomes.stream().filter(outcome -> outcome.result() instanceof Applied)
                .filter(outcome -> outcome.request().resource().equals(resource))
                .mapToLong(outcome -> outcome.request().delta()).sum();
    }

    /** Walks the audit log in commit order and lists every record whose generation was not the installed one. */
    private static List<String> staleApplies(SqliteDestination course) throws SQLException {
        Map<String, Long> installed = new HashMap<>(Map.of(FUND_A, 1L, FUND_B, 1L));
        List<String> stale = new ArrayList<>();
        try (Connection connection = course.connection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(
                        "SELECT seq, resource, event, generation FROM audit ORDER BY seq")) {
            while (row.next()) {
                String resource = row.getString(2);
                long generation = row.getLong(4);
                if (row.getString(3).equals("installed")) {
                    installed.put(resource, generation);
                } else if (generation != installed.get(resource)) {
                    stale.add("audit row " + row.getLong(1) + ": applied under " + generation + " on " + resource
                            + " while " + installed.get(resource) + " was installed");
                }
            }
        }
        return stale;
    }

    private static Map<String, Integer> tally(List<Outcome> outcomes) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Outcome outcome : outcomes) {
            String kind = outcome.result() instanceof Rejected rejected ? rejected.reason().name()
                    : outcome.result().getClass().getSimpleName();
            counts.merge(kind, 1, Integer::sum);
        }
        return counts;
    }
}
