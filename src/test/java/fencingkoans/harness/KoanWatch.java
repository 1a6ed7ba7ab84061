package fencingkoans.harness;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import fencingkoans.lease.Ensemble;
import fencingkoans.pg.PgDatabase;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /** Editors often save in several steps; wait until the folder has been quiet this long. */
    private static final long QUIET_MILLIS = 60;

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

    private KoanWatch(List<String> javacOptions) {
        this.javacOptions = javacOptions;
    }

    /** The arguments are javac options: the watch profile passes those of the build's compiler. */
    public static void main(String[] args) throws IOException, InterruptedException {
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
            runOnce("[watch] running the koans; save a file in exercises/ to run them again (Ctrl+C stops)");
            while (true) {
                WatchKey changed = watcher.take();
                boolean javaChanged = false;
                boolean sqlChanged = false;
                while (changed != null) {
                    List<String> files = changed.pollEvents().stream().map(event -> event.context().toString())
                            .toList();
                    javaChanged |= files.stream().anyMatch(file -> file.endsWith(".java"));
                    sqlChanged |= files.stream().anyMatch(file -> file.endsWith(".sql"));
                    changed.reset();
                    changed = watcher.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS);
                }
                if (javaChanged || !lastCompileSucceeded) {
                    runOnce("[watch] exercises/ changed: compiling it and running the koans again");
                } else if (sqlChanged) {
                    System.out.println();
                    System.out.println("[watch] lesson 6's SQL changed: the Java compiled last stands; the koans run "
                            + "again");
                    runKoans();
                }
            }
        }
    }

    private void runOnce(String banner) throws IOException {
        System.out.println();
        System.out.println(banner);
        long started = System.nanoTime();
        if (compile()) {
            System.out.printf("[watch] compiled in %.2f s; the koans run%n", (System.nanoTime() - started) / 1e9);
            runKoans();
        }
    }

    private boolean compile() throws IOException {
        clear(compiled);
        Files.createDirectories(compiled);
        List<File> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(path -> path.toString().endsWith(".java")).map(Path::toFile).toList();
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> options = Stream.concat(javacOptions.stream(), Stream.of("-proc:none", "-implicit:none", "-d", compiled.toString(), "-classpath", String.join(File.pathSeparator, libraries)))
                .toList();
        boolean compiles = compiler.getTask(null, fileManager, diagnostics, options, null,
                fileManager.getJavaFileObjectsFromFiles(files)).call();
        lastCompileSucceeded = compiles;
        if (!compiles) {
            System.out.println();
            System.out.println("exercises/ does not compile yet:");
            diagnostics.getDiagnostics().stream().filter(found -> found.getKind() == Diagnostic.Kind.ERROR)
                    .forEach(error -> System.out.println("  " + error.getSource().getName() + ":"
                            + error.getLineNumber() + ": " + error.getMessage(null)));
            System.out.println("Fix it and save: the koans run again.");
        }
        return compiles;
    }

    private void runKoans() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (CourseClassLoader course = new CourseClassLoader("course", courseClasses, given,
                className -> !loadedOnce(className))) {
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
        }
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
