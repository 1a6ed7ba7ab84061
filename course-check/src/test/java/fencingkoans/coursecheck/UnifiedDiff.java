package fencingkoans.coursecheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Applies a unified diff ({@code diff -u}, {@code git diff}) strictly: every hunk must match its context exactly,
 * so a variant that no longer fits the reference fails loudly instead of testing something else.
 */
final class UnifiedDiff {

    private UnifiedDiff() {
    }

    /** Applies {@code diff} to the files below {@code root}; file names lose their first part ("a/", "b/"). */
    static void apply(List<String> diff, Path root) {
        int line = 0;
        int changedFiles = 0;
        while (line < diff.size()) {
            if (!diff.get(line).startsWith("--- ")) {
                line++;
                continue;
            }
            Path file = root.resolve(stripFirstPart(diff.get(line + 1).substring("+++ ".length())));
            List<String> text = read(file);
            int cursor = 0;
            line += 2;
            while (line < diff.size() && diff.get(line).startsWith("@@")) {
                List<String> before = new ArrayList<>();
                List<String> after = new ArrayList<>();
                line++;
                for (; line < diff.size() && isHunkLine(diff.get(line)); line++) {
                    String hunkLine = diff.get(line);
                    char kind = hunkLine.isEmpty() ? ' ' : hunkLine.charAt(0);
                    String content = hunkLine.isEmpty() ? "" : hunkLine.substring(1);
                    if (kind != '+' && kind != '\\') {
                        before.add(content);
                    }
                    if (kind != '-' && kind != '\\') {
                        after.add(content);
                    }
                }
                int at = Collections.indexOfSubList(text.subList(cursor, text.size()), before);
                if (at < 0) {
                    throw new IllegalStateException("a hunk of the diff no longer matches " + file
                            + "; the reference changed, so rewrite the variant against it:\n" + String.join("\n", before));
                }
                at += cursor;
                text.subList(at, at + before.size()).clear();
                text.addAll(at, after);
                cursor = at + after.size();
            }
            write(file, text);
            changedFiles++;
        }
        if (changedFiles == 0) {
            throw new IllegalArgumentException("the diff changes no file");
        }
    }

    private static boolean isHunkLine(String line) {
        return line.isEmpty() || " +-\\".indexOf(line.charAt(0)) >= 0 && !line.startsWith("--- ");
    }

    private static String stripFirstPart(String name) {
        String path = name.split("\t")[0].trim();
        return path.substring(path.indexOf('/') + 1);
    }

    private static List<String> read(Path file) {
        try {
            return new ArrayList<>(Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException("the diff names " + file + ", which cannot be read", e);
        }
    }

    private static void write(Path file, List<String> text) {
        try {
            Files.write(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
    }
}
