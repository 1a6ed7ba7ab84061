package fencingkoans.harness;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import fencingkoans.lease.Ensemble;
import fencingkoans.pg.PgDatabase;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.platform.launcher.TestExecutionListener;

/**
 * Watch mode: every time a file under {@code exercises/} is saved, compile the exercises in this process and run
 * the koans again, printing the same report as {@code ./mvnw test}. Each run loads the track, the koans and the
 * harness in a fresh class loader; the libraries (sqlite-jdbc with its native library, JUnit, AssertJ) and the
 * given code that no exercise reaches into stay loaded once, so their compiled code stays warm, lesson 6's
 * server, once found or started, serves every run, and so does lesson 7's ZooKeeper ensemble.
 */
public final class KoanWatch {

    /** Set for as long as watch mode runs, for code that says something different there. */
    public static final String RUNNING = "fencing.watch";

    /** Editors often save in several steps; wait until the folder has been quiet this long. */
    private static final long QUIET_MILLIS = 60;
    /** How long a file that is gone or empty is waited for, in case the editor is still writing it. */
    private static final long HALF_WRITTEN_MILLIS = 1000;
    /** Printed in place of a report about code that changed while the koans ran (.ci/watch-check counts it). */
    static final String STALE_REPORT_LEFT_OUT = "[watch] exercises/ changed while the koans ran: their report is left "
            + "out";

    private final Path sources = Path.of("exercises/src/main/java");
    /** Lesson 6's SQL, read as it is saved: it comes ahead of the copy the build left in target/classes. */
    private final Path resources = Path.of("exercises/src/main/resources");
    private final Path compiled = Path.of("target/watch/classes");
    private final List<Path> givenClasses = List.of(resources, Path.of("target/classes"), Path.of("target/test-classes"));
    private final List<Path> courseClasses = Stream.concat(Stream.of(compiled), givenClasses.stream()).toList();
    /** Loaded once: the shared types and the SQL layer, and lesson 6's server lookup with the state it keeps. */
    private final ClassLoader given = new CourseClassLoader("given", givenClasses, KoanWatch.class.getClassLoader(),
            KoanWatch::loadedOnce);
    private final JavaCompiler compiler = systemCompiler();
    /** Kept for as long as it watches: it reads the libraries' jars once, not on every save. */
    private final StandardJavaFileManager fileManager = compiler.getStandardFileManager(null, null, null);
    /** Kept too: its engines are found once. Each run gets a report loaded with that run's classes. */
    private final KoanLauncher launcher = new KoanLauncher();
    private final List<String> libraries = libraries();
    /** The options the build gives javac (release, encoding, debug information), so that messages read the same. */
    private final List<String> javacOptions;
    /** A failed compile leaves no classes behind: then a SQL save must compile too. */
    private boolean lastCompileSucceeded;
    /** The Java and SQL files as the last run read them. */
    private Map<Path, String> ranOn = Map.of();

    private KoanWatch(List<String> javacOptions) {
        this.javacOptions = javacOptions;
    }

    /** The arguments are javac options: the watch profile passes those of the build's compiler. */
    public static void main(String[] args) throws IOException, InterruptedException {
        System.setProperty(RUNNING, "true");
        // Lesson 6 builds its database once and then only empties and refills it on each save.
        System.setProperty(PgDatabase.KEEP_BETWEEN_RUNS, "true");
        // Lesson 7 starts its ensemble once, here, and stops it when watch mode ends.
        System.setProperty(Ensemble.KEEP_BETWEEN_RUNS, "target/watch/ensemble");
        new KoanWatch(List.of(args)).watch();
    }

    private void watch() throws IOException, InterruptedException {
        try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
            for (Path watched : List.of(sources, resources)) {
                try (Stream<Path> folders = Files.walk(watched)) {
                    for (Path folder : folders.filter(Files::isDirectory).toList()) {
                        folder.register(watcher, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
                    }
                }
            }
            runOnce(watcher, "[watch] running the koans; save a file in exercises/ to run them again (Ctrl+C stops)");
            while (true) {
                Saved saved = untilSaved(watcher, watcher.take());
                if (saved.java() || !lastCompileSucceeded) {
                    runOnce(watcher, "[watch] exercises/ changed: compiling it and running the koans again");
                } else if (saved.sql()) {
                    System.out.println();
                    System.out.println("[watch] lesson 6's SQL changed: the Java compiled last stands; the koans run "
                            + "again");
                    ranOn = contents();
                    runKoans();
                }
                skipWhatTheRunAlreadySaw(watcher);
            }
        }
    }

    /** What a save touched: Java sources, lesson 6's SQL, or neither (an editor's swap or backup file). */
    private record Saved(boolean java, boolean sql) {
        static final Saved NOTHING = new Saved(false, false);

        Saved and(List<String> files) {
            return new Saved(java || files.stream().anyMatch(file -> file.endsWith(".java")),
                    sql || files.stream().anyMatch(file -> file.endsWith(".sql")));
        }
    }

    /** Takes in {@code changed} and whatever follows it until the folders have been quiet for a while. */
    private static Saved untilQuiet(WatchService watcher, WatchKey changed, Saved before) throws InterruptedException {
        Saved saved = before;
        while (changed != null) {
            saved = saved.and(changed.pollEvents().stream().map(event -> event.context().toString()).toList());
            changed.reset();
            changed = watcher.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS);
        }
        return saved;
    }

    /**
     * Like {@link #untilQuiet}, and longer while a file the last run read is gone or empty: an editor is then half
     * way through renaming a new version over it, or has truncated it and not yet written it.
     */
    private Saved untilSaved(WatchService watcher, WatchKey changed) throws IOException, InterruptedException {
        Saved saved = untilQuiet(watcher, changed, Saved.NOTHING);
        while (halfWritten()) {
            WatchKey next = watcher.poll(HALF_WRITTEN_MILLIS, TimeUnit.MILLISECONDS);
            if (next == null) {
                return saved;
            }
            saved = untilQuiet(watcher, next, saved);
        }
        return saved;
    }

    private boolean halfWritten() throws IOException {
        Map<Path, String> now = contents();
        return ranOn.entrySet().stream().anyMatch(file -> !file.getValue().isEmpty()
                && now.getOrDefault(file.getKey(), "").isEmpty());
    }

    /**
     * An editor that saves in steps (a temporary file renamed over the old one, a truncate and then the write, two
     * files of one "save all") can finish its save while the koans run. What it wrote then is what the run
     * compiled, so those events call for no second run; a run is due only if the files now differ from that.
     */
    private void skipWhatTheRunAlreadySaw(WatchService watcher) throws IOException, InterruptedException {
        WatchKey pending = watcher.poll();
        if (pending != null) {
            untilSaved(watcher, pending);
        }
        if (!contents().equals(ranOn)) {
            runOnce(watcher, "[watch] exercises/ changed during the run: compiling it and running the koans again");
        }
    }

    private void runOnce(WatchService watcher, String banner) throws IOException, InterruptedException {
        System.out.println();
        System.out.println(banner);
        long started = System.nanoTime();
        if (compile(watcher)) {
            System.out.printf("[watch] compiled in %.2f s; the koans run%n", (System.nanoTime() - started) / 1e9);
            runKoans();
        }
    }

    /**
     * Compiles exercises/ as it stands once the save is over. A save still going on (its next step came while
     * javac read the files) is waited for and compiled again, so that a half-written file is never reported.
     */
    private boolean compile(WatchService watcher) throws IOException, InterruptedException {
        while (true) {
            Map<Path, String> before = contents();
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            boolean compiles = compileOnce(before.keySet(), diagnostics);
            WatchKey pending = watcher.poll();
            if (pending != null) {
                untilQuiet(watcher, pending, Saved.NOTHING);
            }
            if (contents().equals(before)) {
                ranOn = before;
                lastCompileSucceeded = compiles;
                if (!compiles) {
                    report(diagnostics);
                }
                return compiles;
            }
        }
    }

    private boolean compileOnce(Set<Path> files, DiagnosticCollector<JavaFileObject> diagnostics) throws IOException {
        clear(compiled);
        Files.createDirectories(compiled);
        List<File> javaFiles = files.stream().filter(path -> path.toString().endsWith(".java")).map(Path::toFile)
                .toList();
        List<String> options = Stream.concat(javacOptions.stream(), Stream.of("-proc:none", "-implicit:none", "-d",
                compiled.toString(), "-classpath", String.join(File.pathSeparator, libraries))).toList();
        return compiler.getTask(null, fileManager, diagnostics, options, null,
                fileManager.getJavaFileObjectsFromFiles(javaFiles)).call();
    }

    private static void report(DiagnosticCollector<JavaFileObject> diagnostics) {
        System.out.println();
        System.out.println("exercises/ does not compile yet:");
        diagnostics.getDiagnostics().stream().filter(found -> found.getKind() == Diagnostic.Kind.ERROR)
                .forEach(error -> System.out.println("  " + error.getSource().getName() + ":"
                        + error.getLineNumber() + ": " + error.getMessage(null)));
        System.out.println("Fix it and save: the koans run again.");
    }

    /** Every Java and SQL file of exercises/ with its text: what a run compiles and reads. */
    private Map<Path, String> contents() throws IOException {
        while (true) {
            try {
                return contentsNow();
            } catch (NoSuchFileException | UncheckedIOException goneDuringTheWalk) {
                // An editor's backup or temporary file went away while the folder was listed: look again.
                if (!(goneDuringTheWalk instanceof NoSuchFileException)
                        && !(goneDuringTheWalk.getCause() instanceof NoSuchFileException)) {
                    throw goneDuringTheWalk;
                }
            }
        }
    }

    private Map<Path, String> contentsNow() throws IOException {
        Map<Path, String> texts = new TreeMap<>();
        for (Path watched : List.of(sources, resources)) {
            try (Stream<Path> walk = Files.walk(watched)) {
                for (Path file : walk.filter(path -> path.toString().endsWith(".java")
                        || path.toString().endsWith(".sql")).toList()) {
                    texts.put(file, Files.readString(file));
                }
            }
        }
        return texts;
    }

    /**
     * Runs every koan and prints what the run printed, its report last, unless exercises/ changed meanwhile: that
     * report would be about code that is gone, so it is left out, and the next run follows at once.
     */
    private void runKoans() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (CourseClassLoader course = new CourseClassLoader("course", courseClasses, given,
                className -> !loadedOnce(className))) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            // The launcher finds its engines, the koan report and the course's settings through this loader.
            thread.setContextClassLoader(course);
            TestExecutionListener report = (TestExecutionListener) course.loadClass(KoanReport.class.getName())
                    .getDeclaredConstructor().newInstance();
            launcher.run(course, Map.of(), Set.of(), report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the koan report cannot be loaded from target/test-classes", e);
        } finally {
            thread.setContextClassLoader(previous);
            System.setOut(console);
        }
        try {
            if (contents().equals(ranOn)) {
                console.print(printed.toString(StandardCharsets.UTF_8));
            } else {
                console.println(STALE_REPORT_LEFT_OUT);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        console.flush();
    }

    /**
     * Course classes that never refer to the track, so one loading serves every run. The lookup of lesson 6's
     * server is among them: a new one per save would start a new container where Docker runs, every time. So is
     * lesson 7's ensemble, which keeps its servers running between saves.
     */
    private static boolean loadedOnce(String className) {
        return Stream.of("fencingkoans.contract.", "fencingkoans.sqlite.", "fencingkoans.pg.", "fencingkoans.outside.",
                        "fencingkoans.lease.",
                        "fencingkoans.koans.support.PostgresServer", "fencingkoans.koans.support.PostgresContainer")
                .anyMatch(className::startsWith);
    }

    private static JavaCompiler systemCompiler() {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("watch mode compiles in this process: run it on a JDK, not a JRE");
        }
        return compiler;
    }

    /** Everything this process was started with, the course's own class folders included. */
    private static List<String> libraries() {
        if (KoanWatch.class.getClassLoader() instanceof URLClassLoader loader) {
            return Arrays.stream(loader.getURLs()).map(url -> Path.of(java.net.URI.create(url.toString())).toString())
                    .toList();
        }
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    private static void clear(Path folder) throws IOException {
        if (Files.exists(folder)) {
            try (Stream<Path> walk = Files.walk(folder)) {
                for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
