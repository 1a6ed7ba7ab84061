package fencingkoans.harness.grading;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The grading manifest of a learner repository, written by {@code instructor/export}: the SHA-256 of every file
 * outside {@code exercises/} ({@code <sha256>  <path>}) and the list of learner files a submission consists of
 * ({@code submission  <path>}). Line endings are hashed as LF, so a Windows checkout is not taken for tampering.
 *
 * <p>{@code --write [root]} writes it; {@code --check [root]} lists every covered file that changed or is
 * missing, and every file that the manifest does not know (a new class, a config file, a workflow), anywhere
 * outside {@code exercises/}, {@code target/}, {@code .git/} and an IDE's own folders.
 */
public final class TamperManifest {

    static final String MANIFEST = "grading/manifest.sha256";
    static final String SUBMISSION = "exercises";
    private static final String LEARNER_FILE = "submission";
    /** What no build reads: git's own data, build output, and the folders IDEs keep their settings in. */
    private static final Set<String> NOT_COVERED = Set.of(".git", "target", SUBMISSION, ".idea", ".vscode",
            ".settings", ".classpath", ".project", ".DS_Store");

    /** The manifest's two parts: covered files with their sums, and the learner files of a submission. */
    record Manifest(Map<String, String> sums, List<String> submission) {
    }

    private TamperManifest() {
    }

    public static void main(String[] args) throws IOException {
        String mode = args.length > 0 ? args[0] : "--check";
        Path root = Path.of(args.length > 1 ? args[1] : "").toAbsolutePath().normalize();
        switch (mode) {
            case "--write" -> {
                Manifest manifest = new Manifest(sums(root), learnerFiles(root));
                Files.writeString(root.resolve(MANIFEST), render(manifest), StandardCharsets.UTF_8);
                System.out.println("Wrote " + root.resolve(MANIFEST) + ": " + manifest.sums().size()
                        + " covered files, " + manifest.submission().size() + " learner files.");
            }
            case "--check" -> {
                List<String> findings = differences(read(root), root);
                findings.forEach(finding -> System.out.println("tampered: " + finding));
                System.out.println(findings.isEmpty() ? "Every covered file matches " + MANIFEST + "."
                        : findings.size() + " file(s) differ from " + MANIFEST + ".");
            }
            default -> throw new IllegalArgumentException("usage: TamperManifest --write|--check [root]");
        }
    }

    static Manifest read(Path root) throws IOException {
        Path file = root.resolve(MANIFEST);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException("there is no " + MANIFEST + "; instructor/export writes it into every "
                    + "learner repository");
        }
        Map<String, String> sums = new TreeMap<>();
        List<String> submission = new ArrayList<>();
        Files.readString(file, StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).forEach(line -> {
            String[] parts = line.split("  ", 2);
            if (parts.length == 2 && parts[0].equals(LEARNER_FILE)) {
                submission.add(parts[1]);
            } else if (parts.length == 2 && parts[0].matches("[0-9a-f]{64}")) {
                sums.put(parts[1], parts[0]);
            } else {
                throw new IllegalStateException(MANIFEST + " has a line that is neither '<sha256>  <path>' nor '"
                        + LEARNER_FILE + "  <path>': " + line);
            }
        });
        if (submission.isEmpty()) {
            throw new IllegalStateException(MANIFEST + " names no learner file");
        }
        return new Manifest(sums, List.copyOf(submission));
    }

    /** Every covered file that is missing, changed, a link, or unknown to the manifest. */
    static List<String> differences(Manifest manifest, Path root) throws IOException {
        List<String> findings = new ArrayList<>();
        Map<String, String> actual = new TreeMap<>();
        for (Path file : coveredFiles(root)) {
            String path = relative(root, file);
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                findings.add(path + " (" + (Files.isSymbolicLink(file) ? "a symbolic link" : "not a regular file")
                        + ")");
            } else {
                actual.put(path, sha256(Files.readAllBytes(file)));
            }
        }
        manifest.sums().forEach((path, sum) -> {
            if (!actual.containsKey(path)) {
                findings.add(path + " (missing)");
            } else if (!actual.get(path).equals(sum)) {
                findings.add(path + " (changed)");
            }
        });
        actual.keySet().stream().filter(path -> !manifest.sums().containsKey(path) && !path.equals(MANIFEST))
                .forEach(path -> findings.add(path + " (not in the manifest)"));
        return findings;
    }

    private static Map<String, String> sums(Path root) throws IOException {
        Map<String, String> sums = new TreeMap<>();
        for (Path file : coveredFiles(root)) {
            String path = relative(root, file);
            if (!path.equals(MANIFEST)) {
                sums.put(path, sha256(Files.readAllBytes(file)));
            }
        }
        return sums;
    }

    private static List<String> learnerFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root.resolve(SUBMISSION))) {
            return walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
                    .map(path -> relative(root, path)).sorted().toList();
        }
    }

    /** Files and links (never followed) outside the folders no build reads. */
    private static List<Path> coveredFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(path -> !path.equals(root))
                    .filter(path -> !NOT_COVERED.contains(root.relativize(path).getName(0).toString()))
                    .filter(path -> !path.getFileName().toString().endsWith(".iml"))
                    .filter(path -> !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
                    .sorted().toList();
        }
    }

    static String relative(Path root, Path file) {
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

    private static String render(Manifest manifest) {
        StringBuilder text = new StringBuilder();
        manifest.sums().forEach((path, sum) -> text.append(sum).append("  ").append(path).append('\n'));
        manifest.submission().forEach(path -> text.append(LEARNER_FILE).append("  ").append(path).append('\n'));
        return text.toString();
    }
}
