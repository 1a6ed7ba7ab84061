package fencingkoans.harness.grading;

import fencingkoans.harness.Course;
import fencingkoans.harness.KoanResults;
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
 * ({@code submission  <path>}), and the koans to grade ({@code lesson  N  title}, then {@code koan  number
 * class#method  sentence}). Line endings are hashed as LF, so a Windows checkout is not taken for tampering.
 *
 * <p>{@code --write [root]} writes it; {@code --check [root]} lists every covered file that changed or is
 * missing, and every file that the manifest does not know (a new class, a config file, a workflow), anywhere
 * outside {@code exercises/}, {@code target/}, {@code .git/} and an IDE's own folders.
 */
public final class TamperManifest {

    static final String MANIFEST = "grading/manifest.sha256";
    static final String SUBMISSION = "exercises";
    private static final String LEARNER_FILE = "submission";
    private static final String LESSON = "lesson";
    private static final String KOAN = "koan";
    /**
     * What no build reads: git's own data, build output, the learner's own versions kept by ResetExercise, and the
     * folders IDEs keep their settings in.
     */
    private static final Set<String> NOT_COVERED = Set.of(".git", "target", SUBMISSION, "kept-by-reset", ".idea",
            ".vscode", ".settings", ".classpath", ".project", ".DS_Store");

    /**
     * The manifest's three parts: covered files with their sums, the learner files of a submission, and the koans
     * to grade, by lesson. The grader reads the koans from here, never from classes that learner code shares.
     */
    record Manifest(Map<String, String> sums, List<String> submission, List<PlannedLesson> lessons) {
    }

    /** A lesson to grade: its number, title and koans in course order. */
    record PlannedLesson(int number, String title, List<PlannedKoan> koans) {
    }

    /** A koan to grade: its number, where it runs ({@code class#method}) and its sentence. */
    record PlannedKoan(String number, String key, String name) {
    }

    private TamperManifest() {
    }

    public static void main(String[] args) throws IOException {
        String mode = args.length > 0 ? args[0] : "--check";
        Path root = Path.of(args.length > 1 ? args[1] : "").toAbsolutePath().normalize();
        switch (mode) {
            case "--write" -> {
                Manifest manifest = new Manifest(sums(root), learnerFiles(root), plan());
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
        List<PlannedLesson> lessons = new ArrayList<>();
        Files.readString(file, StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).forEach(line -> {
            String[] parts = line.split("  ");
            if (parts.length == 2 && parts[0].equals(LEARNER_FILE)) {
                submission.add(parts[1]);
            } else if (parts.length == 2 && parts[0].matches("[0-9a-f]{64}")) {
                sums.put(parts[1], parts[0]);
            } else if (parts.length == 3 && parts[0].equals(LESSON) && parts[1].matches("\\d+")) {
                lessons.add(new PlannedLesson(Integer.parseInt(parts[1]), parts[2], new ArrayList<>()));
            } else if (parts.length == 4 && parts[0].equals(KOAN) && !lessons.isEmpty()) {
                lessons.get(lessons.size() - 1).koans().add(new PlannedKoan(parts[1], parts[2], parts[3]));
            } else {
                throw new IllegalStateException(MANIFEST + " has a line it cannot read: " + line);
            }
        });
        if (submission.isEmpty() || lessons.isEmpty()) {
            throw new IllegalStateException(MANIFEST + " names no learner file or no koan; instructor/export writes it");
        }
        return new Manifest(sums, List.copyOf(submission), List.copyOf(lessons));
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

    /** The course's koans as the compiled course declares them. */
    private static List<PlannedLesson> plan() {
        return Course.lessons().stream().map(lesson -> new PlannedLesson(lesson.lesson().value(), lesson.lesson().title(),
                lesson.koans().stream().map(koan -> new PlannedKoan(koan.card().number(),
                        KoanResults.key(koan.testClass().getName(), koan.methodName()), koan.name())).toList()))
                .toList();
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
        for (PlannedLesson lesson : manifest.lessons()) {
            text.append(LESSON).append("  ").append(lesson.number()).append("  ").append(lesson.title()).append('\n');
            lesson.koans().forEach(koan -> text.append(KOAN).append("  ").append(koan.number()).append("  ")
                    .append(koan.key()).append("  ").append(koan.name()).append('\n'));
        }
        return text.toString();
    }
}
