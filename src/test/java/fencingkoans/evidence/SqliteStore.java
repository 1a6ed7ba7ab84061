package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.Authority;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The SQLite destination a random sequence runs on: one course database file, a worker's store and the
 * authority, each on its own connection. The apply path is a parameter so that the checker can be shown a
 * store that breaks the contract.
 */
final class SqliteStore implements StoreUnderTest {

    /** How a request reaches the store: the reference calls {@link FencedStore#apply} and nothing else. */
    static final BiFunction<FencedStore, ApplyRequest, ApplyResult> THROUGH_APPLY = FencedStore::apply;

    private final Path directory;
    private final SqliteDestination course;
    private final BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath;
    /** Kept open for the whole run: opening a connection per comparison would cost more than the steps. */
    private final Connection inspector;
    private FencedStore store;
    private Authority authority;

    private SqliteStore(Path directory, BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath) {
        this.directory = directory;
        this.course = SqliteDestination.createIn(directory);
        this.applyPath = applyPath;
        this.inspector = course.connection();
        reopen();
    }

    /** Each store gets a folder of its own under {@code work}, deleted again when the store is closed. */
    static Supplier<StoreUnderTest> freshIn(Path work, BiFunction<FencedStore, ApplyRequest, ApplyResult> applyPath) {
        AtomicInteger runs = new AtomicInteger();
        return () -> {
            Path directory = work.resolve("run-" + runs.getAndIncrement());
            try {
                Files.createDirectories(directory);
            } catch (IOException e) {
                throw new UncheckedIOException("creating " + directory, e);
            }
            return new SqliteStore(directory, applyPath);
        };
    }

    @Override
    public ApplyResult apply(ApplyRequest request) {
        return applyPath.apply(store, request);
    }

    @Override
    public InstallResult install(String resource, long generation) {
        return authority.install(resource, generation);
    }

    @Override
    public Optional<ResourceState> read(String resource) {
        return store.read(resource);
    }

    @Override
    public boolean injectsFaults() {
        return true;
    }

    @Override
    public ApplyResult applyFailingAt(ApplyRequest request, Checkpoint where) {
        store.checkpoints().once(where, () -> {
            throw new InjectedFault(where);
        });
        try {
            return apply(request);
        } finally {
            // An apply answered from the record never reaches the checkpoint: the fault must not linger.
            store.checkpoints().clear();
        }
    }

    /** Every row of both tables, as {@link SqliteDestination#contents()} lists them. */
    @Override
    public List<String> contents() {
        return SqliteDestination.contentsOf(inspector);
    }

    @Override
    public void reopen() {
        if (store != null) {
            store.close();
            authority.close();
        }
        store = course.store();
        authority = course.authority();
    }

    @Override
    public void close() throws Exception {
        try {
            course.close();
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
