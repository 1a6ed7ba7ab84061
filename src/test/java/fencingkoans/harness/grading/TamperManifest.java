package fencingkoans.harness.grading;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * SHA-256 sums of everything that decides a grade and that a learner must not change: the koans, the harness,
 * the shared code, the build and the grading files, one {@code <sha256>  <path>} line per file. Line endings
 * are hashed as LF, so a Windows checkout that turns them into CRLF is not taken for tampering.
 *
 * <p>{@code --write [root]} rewrites the manifest; {@code --check [root] [manifest]} refuses, naming every file
 * that differs, and also refuses exercise sources outside the store package (a learner's class must not shadow
 * the tests' libraries).
 */
public final class TamperManifest {

    static final String MANIFEST = "grading/manifest.sha256";
    static final String REGENERATE = "./mvnw -q test-compile exec:java -Pgrade-manifest";

    /** Files and folders the manifest covers, relative to the project root. */
    static final List<String> COVERED = List.of("pom.xml", "mvnw", "mvnw.cmd", ".mvn", "src/main",
            "src/test/java/fencingkoans/koans", "src/test/java/fencingkoans/harness", "src/test/resources",
            Points.FILE, ".github/workflows/classroom.yml");

    private static final String STORE = "exercises/src/main/java/fencingkoans/store/";
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

    private TamperManifest() {
    }

    public static void main(String[] args) throws IOException {
        String mode = args.length > 0 ? args[0] : "--check";
        Path root = Path.of(args.length > 1 ? args[1] : "").toAbsolutePath().normalize();
        Path manifest = args.length > 2 ? Path.of(args[2]) : root.resolve(MANIFEST);
        switch (mode) {
            case "--write" -> {
                Map<String, String> sums = sums(root);
                Files.writeString(manifest, render(sums), StandardCharsets.UTF_8);
                System.out.println("Wrote " + manifest + " with the sums of " + sums.size() + " files.");
            }
            case "--check" -> check(root, manifest);
            default -> throw new IllegalArgumentException("usage: TamperManifest --write|--check [root] [manifest]");
        }
    }

    private static void check(Path root, Path manifest) throws IOException {
        if (!Files.isRegularFile(manifest)) {
            throw new IllegalStateException("GRADING INFRASTRUCTURE ERROR: there is no " + manifest
                    + "; an instructor creates it with: " + REGENERATE);
        }
        List<String> findings = differences(parse(Files.readString(manifest, StandardCharsets.UTF_8)), sums(root));
        findings.addAll(foreignExerciseSources(root));
        if (!findings.isEmpty()) {
            findings.forEach(finding -> System.out.println("tampered: " + finding));
            throw new IllegalStateException("TAMPERED: refusing to grade, " + findings.size() + " file(s) differ "
                    + "from " + MANIFEST + ": " + String.join("; ", findings) + ". Restore them with git (git "
                    + "checkout -- <file>); an instructor who changed them on purpose regenerates the manifest with: "
                    + REGENERATE);
        }
        System.out.println("Tamper check: every covered file matches " + MANIFEST + ".");
    }

    static List<String> differences(Map<String, String> expected, Map<String, String> actual) {
        List<String> findings = new ArrayList<>();
        expected.forEach((path, sum) -> {
            if (!actual.containsKey(path)) {
                findings.add(path + " (missing)");
            } else if (!actual.get(path).equals(sum)) {
                findings.add(path + " (changed)");
            }
        });
        actual.keySet().stream().filter(path -> !expected.containsKey(path))
                .forEach(path -> findings.add(path + " (not in the manifest)"));
        return findings;
    }

    /** Exercise sources may only add to the store package: anything else could stand in for a library class. */
    static List<String> foreignExerciseSources(Path root) throws IOException {
        List<String> findings = new ArrayList<>();
        Path exercises = root.resolve("exercises");
        if (!Files.isDirectory(exercises)) {
            return findings;
        }
        for (Path file : files(exercises)) {
            String path = relative(root, file);
            if (!path.endsWith(".java")) {
                continue;
            }
            Matcher declared = PACKAGE.matcher(Files.readString(file, StandardCharsets.UTF_8));
            String packageName = declared.find() ? declared.group(1) : "";
            if (!path.startsWith(STORE) || !(packageName + ".").startsWith("fencingkoans.store.")) {
                findings.add(path + " (an exercise source outside package fencingkoans.store)");
            }
        }
        return findings;
    }

    static Map<String, String> sums(Path root) throws IOException {
        Map<String, String> sums = new TreeMap<>();
        for (String covered : COVERED) {
            Path path = root.resolve(covered);
            if (Files.exists(path)) {
                for (Path file : files(path)) {
                    sums.put(relative(root, file), sha256(Files.readAllBytes(file)));
                }
            }
        }
        return sums;
    }

    private static List<Path> files(Path start) throws IOException {
        try (Stream<Path> walk = Files.walk(start)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static String relative(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    static String sha256(byte[] content) {
        ByteArrayOutputStream lf = new ByteArrayOutputStream(content.length);
        for (int i = 0; i < content.length; i++) {
            if (!(content[i] == '\r' && i + 1 < content.length && content[i + 1] == '\n')) {
                lf.write(content[i]);
            }
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(lf.toByteArray()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    static String render(Map<String, String> sums) {
        StringBuilder text = new StringBuilder();
        sums.forEach((path, sum) -> text.append(sum).append("  ").append(path).append('\n'));
        return text.toString();
    }

    static Map<String, String> parse(String manifest) {
        Map<String, String> sums = new TreeMap<>();
        manifest.lines().filter(line -> !line.isBlank()).forEach(line -> {
            String[] parts = line.split("  ", 2);
            if (parts.length != 2 || !parts[0].matches("[0-9a-f]{64}")) {
                throw new IllegalStateException("GRADING INFRASTRUCTURE ERROR: " + MANIFEST + " has a line that is "
                        + "not '<sha256>  <path>': " + line);
            }
            sums.put(parts[1], parts[0]);
        });
        return sums;
    }
}
