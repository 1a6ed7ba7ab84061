package fencingkoans.coursecheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The few file-tree operations the check needs, with failures that say which folder. */
final class Folders {

    private Folders() {
    }

    /** Deletes {@code folder} with everything in it, then creates it empty. */
    static Path recreate(Path folder) {
        try {
            if (Files.exists(folder)) {
                try (Stream<Path> tree = Files.walk(folder)) {
                    for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(path);
                    }
                }
            }
            return Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("emptying " + folder, e);
        }
    }

    /** Copies every file below {@code from} to the same relative place below {@code to}. */
    static void copyTree(Path from, Path to) {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path source : tree.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("copying " + from + " to " + to, e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }

    /** Writes {@code text} to {@code file}, creating the folders it needs. */
    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
    }

    /** The files directly in {@code folder} whose names end with {@code suffix}, by name. */
    static List<Path> filesEndingWith(Path folder, String suffix) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + folder, e);
        }
    }
}
