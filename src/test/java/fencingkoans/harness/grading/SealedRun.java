package fencingkoans.harness.grading;

import fencingkoans.harness.RunningKoan;
import fencingkoans.pg.PgServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the koans on a submission in JVMs of their own and collects the results over a Unix-domain socket this
 * process opened and accepts exactly one connection on, proven by a token only that JVM was told. Each JVM runs in a process group
 * of its own that is killed when it is done. A koan that times out, goes silent or takes its JVM down is recorded
 * and the rest run in a fresh JVM, until the budget is spent: a hang costs minutes, not hours.
 */
final class SealedRun {

    /** The limits of one submission's run. */
    record Budget(Duration koanTimeout, Duration silence, Duration total, int restarts) {

        static Budget standard() {
            return new Budget(Duration.ofSeconds(40), Duration.ofSeconds(60), Duration.ofMinutes(6), 3);
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration CONNECT = Duration.ofSeconds(30);

    private final List<Path> classpath;
    private final Path work;
    private final Map<String, String> environment;
    private final Budget budget;
    private final Map<String, KoanOutcome> outcomes = new LinkedHashMap<>();
    /** What this submission's lesson 6 databases and roles are named from, on whatever server it is given. */
    private final String pgNames = "fencing_graded_" + HexFormat.of().formatHex(bytes()).substring(0, 10);

    SealedRun(List<Path> classpath, Path work, Map<String, String> environment, Budget budget) {
        this.classpath = classpath;
        this.work = work;
        this.environment = environment;
        this.budget = budget;
    }

    /** Every koan in {@code koans} with its outcome; a koan the budget left no time for is NOT_RUN, saying why. */
    Map<String, KoanOutcome> run(Set<String> koans) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + budget.total().toNanos();
        int jvm = 0;
        String stopped = null;
        while (!outcomes.keySet().containsAll(koans)) {
            if (jvm > budget.restarts()) {
                stopped = "grading gave up after " + jvm + " graded JVMs were cut short (timeouts, hangs or exits)";
                break;
            }
            if (System.nanoTime() >= deadline) {
                stopped = "the submission used up its " + budget.total().toSeconds() + " s grading budget";
                break;
            }
            int before = outcomes.size();
            oneJvm(++jvm, deadline);
            if (outcomes.size() == before) {
                stopped = "a graded JVM ended without running a single koan (see " + work.resolve("jvm-" + jvm + ".log")
                        + ")";
                break;
            }
        }
        String why = stopped;
        koans.forEach(koan -> outcomes.putIfAbsent(koan, new KoanOutcome(KoanStatus.NOT_RUN,
                why == null ? "the graded JVM never reported this koan" : why)));
        return outcomes;
    }

    private void oneJvm(int number, long deadline) throws IOException, InterruptedException {
        String token = HexFormat.of().formatHex(bytes());
        // A Unix-domain socket outside the graded JVM's writable folder: it reaches through the sandbox's private
        // network, and the graded code cannot replace it.
        Path address = work.resolve("jvm-" + number + ".sock");
        Files.deleteIfExists(address);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(address), 1);
            Process jvm = start(address, work.resolve("jvm-" + number + ".log"));
            try (Writer stdin = new OutputStreamWriter(jvm.getOutputStream(), StandardCharsets.UTF_8)) {
                stdin.write(token + "\n" + String.join(",", outcomes.keySet()) + "\n");
            }
            try {
                listen(ChannelLines.acceptOne(server), token, deadline);
            } finally {
                kill(jvm);
                dropWhatTheJvmLeft();
            }
        } finally {
            Files.deleteIfExists(address);
        }
    }

    /**
     * A killed JVM drops nothing it made on lesson 6's server: its databases and roles, and sessions that go on
     * running a statement (learner SQL may turn the statement guard off and sleep), are dropped here by their names,
     * so that they cost the next submissions no connections.
     */
    private void dropWhatTheJvmLeft() {
        String url = environment.get(PgServer.URL_VARIABLE);
        if (url == null || url.isBlank()) {
            return;
        }
        try {
            List<String> dropped = PgServer.fromJdbcUrl(url.strip(), null, null).dropWhatIsLeft(pgNames);
            if (!dropped.isEmpty()) {
                System.out.println("Dropped what a graded JVM left on the PostgreSQL server: " + dropped);
            }
        } catch (RuntimeException e) {
            System.out.println("What a graded JVM left on the PostgreSQL server was not dropped: " + e.getMessage());
        }
    }

    private static byte[] bytes() {
        byte[] token = new byte[24];
        RANDOM.nextBytes(token);
        return token;
    }

    private void listen(ChannelLines lines, String token, long deadline) throws InterruptedException {
        if (!token.equals(lines.next(Math.min(CONNECT.toMillis(), timeout(deadline))))) {
            // It never connected, or could not prove the token: nothing it did counts.
            return;
        }
        String running = null;
        while (true) {
            String line = lines.next(timeout(deadline));
            if (line == ChannelLines.SILENT) {
                if (running != null) {
                    outcomes.put(running, new KoanOutcome(KoanStatus.TIMED_OUT, "no word from the graded JVM for "
                            + budget.silence().toSeconds() + " s while this koan ran: it hung, and its JVM was killed"));
                }
                return;
            }
            if (line == ChannelLines.ENDED) {
                if (running != null) {
                    outcomes.put(running, new KoanOutcome(KoanStatus.ERROR,
                            "the graded JVM ended while this koan ran (did something stop the JVM?)"));
                }
                return;
            }
            String[] parts = line.split(" ", 4);
            switch (parts[0]) {
                case SealedKoanRun.STARTED -> running = parts[1];
                case SealedKoanRun.RESULT -> {
                    KoanOutcome outcome = outcome(parts[2], new String(Base64.getDecoder().decode(parts[3]),
                            StandardCharsets.UTF_8));
                    outcomes.putIfAbsent(parts[1], outcome);
                    running = null;
                    if (outcome.status() == KoanStatus.TIMED_OUT) {
                        // Its thread may still spin or hold a lock: the rest run in a fresh JVM.
                        return;
                    }
                }
                case SealedKoanRun.DONE -> {
                    return;
                }
                default -> throw new IllegalStateException("the graded JVM sent a line the grader cannot read: " + line);
            }
        }
    }

    /**
     * The lines of the one connection a server accepts, read on a thread of their own so that the grader can wait
     * for the next one with a timeout (a blocking channel has none).
     */
    private static final class ChannelLines {

        /** Markers compared by identity: no line the graded JVM sends is either of these objects. */
        static final String SILENT = new String("(silent)");
        static final String ENDED = new String("(ended)");

        private final BlockingQueue<String> queue = new LinkedBlockingQueue<>(1_000);

        static ChannelLines acceptOne(ServerSocketChannel server) {
            ChannelLines lines = new ChannelLines();
            Thread reader = new Thread(() -> lines.read(server), "sealed-channel");
            reader.setDaemon(true);
            reader.start();
            return lines;
        }

        private void read(ServerSocketChannel server) {
            try (SocketChannel channel = server.accept()) {
                server.close();
                BufferedReader reader = new BufferedReader(Channels.newReader(channel, StandardCharsets.UTF_8));
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    queue.put(line);
                }
            } catch (IOException | InterruptedException e) {
                // The JVM was killed or the server closed: the channel ends here.
            } finally {
                queue.offer(ENDED);
            }
        }

        String next(long timeoutMillis) throws InterruptedException {
            String line = queue.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            return line == null ? SILENT : line;
        }
    }

    private long timeout(long deadline) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        return Math.max(1, Math.min(left, budget.silence().toMillis()));
    }

    private static KoanOutcome outcome(String status, String detail) {
        KoanStatus graded = switch (status) {
            case "PASSED" -> KoanStatus.PASSED;
            case "FAILED" -> KoanStatus.FAILED;
            case "TIMED_OUT" -> KoanStatus.TIMED_OUT;
            case "SKIPPED" -> KoanStatus.SKIPPED;
            default -> KoanStatus.ERROR;
        };
        return new KoanOutcome(graded, detail);
    }

    private Process start(Path address, Path log) throws IOException {
        Path privateTemp = Files.createDirectories(work.resolve("tmp"));
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            // A process group of its own, so that everything it starts is killed with it.
            command.add("/usr/bin/setsid");
        }
        if (SANDBOX) {
            command.addAll(sandbox(privateTemp));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + privateTemp, "-D" + PgServer.NAMES_PROPERTY + "=" + pgNames,
                "-D" + RunningKoan.GRADED + "=true", "-cp",
                String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()),
                SealedKoanRun.class.getName(), address.toString(), budget.koanTimeout().toSeconds() + " s"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(privateTemp.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        return builder.start();
    }

    /**
     * bubblewrap's view of the machine for the graded JVM: every file read-only, a private /tmp with only its own
     * temporary folder writable, its own process and IPC namespaces, and no network unless a PostgreSQL lesson
     * needs its server (or the machine forbids a network namespace).
     */
    private List<String> sandbox(Path privateTemp) {
        List<String> options = new ArrayList<>(List.of(BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                "--tmpfs", "/tmp", "--ro-bind", classpathRoot(), classpathRoot(), "--bind", privateTemp.toString(),
                privateTemp.toString()));
        for (Path entry : classpath) {
            // The private /tmp hides the machine's own: a library kept there (a grading run's own Maven repository
            // in a checkout under /tmp) must show through it.
            Path library = entry.toAbsolutePath();
            if (library.startsWith("/tmp") && !library.startsWith(classpathRoot())) {
                options.addAll(List.of("--ro-bind", library.toString(), library.toString()));
            }
        }
        options.addAll(NAMESPACES);
        if (PRIVATE_NETWORK && !environment.containsKey("FENCING_PG_URL") && !environment.containsKey("DOCKER_HOST")) {
            options.add("--unshare-net");
        }
        options.add("--");
        return options;
    }

    /** The folder that holds the graded run's classes and temporary folder: it must show through the private /tmp. */
    private String classpathRoot() {
        return work.getParent().toString();
    }

    private static final String BWRAP = "/usr/bin/bwrap";
    private static final List<String> NAMESPACES = List.of("--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--die-with-parent", "--new-session");
    /** Whether bubblewrap is installed and allowed to make these namespaces here (containers often forbid it). */
    static final boolean SANDBOX = sandboxWorks(List.of());
    /** Whether it may also make a network namespace: some machines allow the others and not that one. */
    static final boolean PRIVATE_NETWORK = SANDBOX && sandboxWorks(List.of("--unshare-net"));

    /** Tried once with the options a graded JVM gets, so that a sandbox that cannot start is never used. */
    private static boolean sandboxWorks(List<String> extra) {
        if (!Files.isExecutable(Path.of(BWRAP))) {
            return false;
        }
        List<String> probe = new ArrayList<>(List.of(BWRAP, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                "--tmpfs", "/tmp"));
        probe.addAll(NAMESPACES);
        probe.addAll(extra);
        probe.addAll(List.of("--", "true"));
        try {
            Process started = new ProcessBuilder(probe).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return started.waitFor(10, TimeUnit.SECONDS) && started.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void kill(Process jvm) throws InterruptedException, IOException {
        // The whole group, even when its first process is gone: what it started may still run.
        new ProcessBuilder("kill", "-KILL", "--", "-" + jvm.pid()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        jvm.descendants().forEach(ProcessHandle::destroyForcibly);
        jvm.destroyForcibly();
        jvm.waitFor(10, TimeUnit.SECONDS);
    }
}
