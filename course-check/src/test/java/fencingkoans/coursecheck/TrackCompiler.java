package fencingkoans.coursecheck;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles one track's {@code src/main/java} against the shared classes, and copies its {@code src/main/resources}
 * beside them, as the pom's track property would.
 */
final class TrackCompiler {

    private TrackCompiler() {
    }

    /** Compiles {@code track/src/main/java} into {@code classes}, which is emptied first. */
    static Path compile(Path track, Path sharedClasses, Path classes) {
        List<String> arguments = new ArrayList<>(List.of("--release", "17", "-proc:none", "-implicit:none",
                "-encoding", "UTF-8", "-classpath", sharedClasses + File.pathSeparator + libraries(), "-d",
                classes.toString()));
        arguments.addAll(javaFiles(track.resolve("src/main/java")));
        Folders.recreate(classes);
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int exit = javac.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
        if (exit != 0) {
            throw new IllegalStateException("the track " + track + " does not compile:\n" + diagnostics.toString(StandardCharsets.UTF_8));
        }
        Path resources = track.resolve("src/main/resources");
        if (Files.isDirectory(resources)) {
            Folders.copyTree(resources, classes);
        }
        return classes;
    }

    /**
     * The libraries a track compiles against (lesson 7's issuer uses Curator): this test run's own classpath. Surefire
     * runs the check from a manifest-only jar, so its {@code java.class.path} names that jar alone and Surefire passes
     * the real classpath in a property of its own.
     */
    private static String libraries() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static List<String> javaFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            List<String> sources = files.filter(file -> file.toString().endsWith(".java")).map(Path::toString)
                    .sorted().toList();
            if (sources.isEmpty()) {
                throw new IllegalStateException("no Java sources under " + root);
            }
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + root, e);
        }
    }
}
