package fencingkoans.evidence;

import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.ApplyResult;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.evidence.CrashingWorker.CrashPoint;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sqlite.util.OSInfo;

/**
 * Process crashes, for real: each trial starts a child JVM that applies one request and halts its own process
 * at a chosen moment; then this test opens the file again and looks at what the crash left. A process crash
 * only: the operating system survives and keeps what it was handed, so this says nothing about power loss.
 * The series run in parallel, each on its own file: most of a trial is a JVM starting.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProcessCrashTest {

    private static final int TRIALS = Integer.getInteger("evidence.crashTrials", 50);
    private static final long CHILD_PATIENCE_SECONDS = 60;

    /**
     * A halted process leaves its writes with the operating system, flushed or not, so for a process crash the
     * medium makes no difference, and memory is much faster. A power loss would need a real disk, and more.
     */
    @TempDir(factory = InMemoryFileSystem.class)
    private Path directory;

    private Path nativeLibrary;

    /** Unpacked once per series: every child loads it as it is instead of unpacking its own copy. */
    @BeforeEach
    void unpackTheSqliteLibrary() throws IOException {
        String name = System.mapLibraryName("sqlitejdbc");
        String resource = "/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/" + name;
        nativeLibrary = directory.resolve(name);
        try (InputStream library = OSInfo.class.getResourceAsStream(resource)) {
            Files.copy(Objects.requireNonNull(library, resource), nativeLibrary);
        }
    }

    static Stream<Arguments> journalModesAndCrashPoints() {
        return Stream.of("DELETE", "WAL").flatMap(mode -> Stream.of(CrashPoint.values())
                .map(point -> Arguments.of(mode, point)));
    }

    @ParameterizedTest(name = "journal mode {0}, process halted {1}")
    @MethodSource("journalModesAndCrashPoints")
    void aCrashBeforeCommitLeavesNothingAndACrashAfterCommitLosesNothing(String journalMode, CrashPoint point)
            throws Exception {
        try (SqliteDestination course = SqliteDestination.createIn(directory)) {
            setJournalMode(course, journalMode);
            long started = System.nanoTime();
            int leftBehind = 0;

            for (int trial = 1; trial <= TRIALS; trial++) {
                leftBehind += crashOnceAndCheck(course, point, trial) ? 1 : 0;
            }

            System.out.printf("process crash (%s, %s): %d trials, a journal or WAL file left behind in %d, %.1f s%n",
                    journalMode, point, TRIALS, leftBehind, (System.nanoTime() - started) / 1e9);
        }
    }

    /** One trial; true when the dead process left a journal or WAL file for the reopen to deal with. */
    private boolean crashOnceAndCheck(SqliteDestination course, CrashPoint point, int trial) throws Exception {
        ApplyRequest request = new ApplyRequest(FUND_A, 1, "crash-" + trial, trial);
        List<String> before = course.contents();
        long valueBefore = course.value(FUND_A);

        int status = runChild(course.file(), point, request);
        boolean leftBehind = exists(course.file(), "-journal") || exists(course.file(), "-wal");

        String trialName = "trial " + trial + ", halted " + point;
        assertThat(status).as("%s: the child's exit status (%d means it halted where told); its output: %s",
                trialName, CrashingWorker.HALTED, childLog()).isEqualTo(CrashingWorker.HALTED);
        assertThat(integrityCheck(course)).as("%s: PRAGMA integrity_check after reopening", trialName)
                .isEqualTo("ok");
        long valueAfter = valueBefore + request.delta();
        if (point.beforeCommit) {
            assertThat(course.contents()).as("%s: before commit, the crash must leave the old value and no record",
                    trialName).isEqualTo(before);
        } else {
            assertThat(course.value(FUND_A)).as("%s: after commit, the new value survives", trialName)
                    .isEqualTo(valueAfter);
            assertThat(course.records()).as("%s: after commit, the record survives", trialName)
                    .contains(FUND_A + "/" + request.requestId());
        }
        try (FencedStore retry = course.store()) {
            ApplyResult expected = point.beforeCommit ? new Applied(valueAfter) : new Replayed(valueAfter);
            assertThat(retry.apply(request)).as("%s: the worker retries the request whose answer it never got",
                    trialName).isEqualTo(expected);
        }
        return leftBehind;
    }

    private int runChild(Path file, CrashPoint point, ApplyRequest request) throws IOException,
            InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dorg.sqlite.lib.path=" + nativeLibrary.getParent(),
                "-Dorg.sqlite.lib.name=" + nativeLibrary.getFileName(), "-cp", System.getProperty("java.class.path"),
                CrashingWorker.class.getName(), file.toString(), point.name(), request.requestId(),
                Long.toString(request.delta()))
                .redirectErrorStream(true).redirectOutput(directory.resolve("child.log").toFile()).start();
        if (!child.waitFor(CHILD_PATIENCE_SECONDS, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("the child did not finish within " + CHILD_PATIENCE_SECONDS + " s");
        }
        return child.exitValue();
    }

    private String childLog() throws IOException {
        return Files.readString(directory.resolve("child.log"));
    }

    private static boolean exists(Path file, String suffix) throws IOException {
        Path companion = file.resolveSibling(file.getFileName() + suffix);
        return Files.exists(companion) && Files.size(companion) > 0;
    }

    private static void setJournalMode(SqliteDestination course, String journalMode) throws SQLException {
        try (Connection connection = course.connection(); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=" + journalMode);
        }
    }

    private static String integrityCheck(SqliteDestination course) throws SQLException {
        try (Connection connection = course.connection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("PRAGMA integrity_check")) {
            row.next();
            return row.getString(1);
        }
    }
}
