package fencingkoans.harness.grading;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Grades one submission, sealed: the submission contract, the check of the learner's Java, a fresh compile, the
 * koans in JVMs of their own that report over a channel this process opened, and the grade files, written only
 * after those JVMs are gone. Nothing learner code could write is ever read back.
 *
 * <pre>
 *   Grader --repository                                  a learner repository grades itself (./mvnw verify -Pgrade)
 *   Grader --course DIR --submission DIR --out DIR       the batch grader: a pristine course, a learner's exercises/
 *   Grader --course DIR --submission DIR --check-only    only the contract and the check of the learner's Java
 *   options: --koan-timeout S, --silence S, --budget S, --restarts N   limits of one submission's run
 *            --sandbox required|optional   whether to grade on a machine where bubblewrap cannot run (required)
 * </pre>
 */
public final class Grader {

    private static final List<String> OUTPUTS = List.of("grade.json", "grade.md", "grade.csv",
            "classroom-result.json");
    /** Environment the graded JVM keeps; anything else (tokens, keys) never reaches learner code's process. */
    private static final List<String> KEPT_ENVIRONMENT = List.of("PATH", "HOME", "LANG", "LC_ALL", "TZ",
            "DOCKER_HOST", "FENCING_PG_URL");

    private Grader() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        boolean repository = options.containsKey("repository");
        boolean checkOnly = options.containsKey("check-only");
        Path course = repository ? ownRoot() : Path.of(required(options, "course")).toAbsolutePath().normalize();
        Path submission = repository ? course.resolve(TamperManifest.SUBMISSION)
                : Path.of(required(options, "submission")).toAbsolutePath();
        Path out = repository ? course.resolve("target/koans")
                : Path.of(checkOnly ? "" : required(options, "out")).toAbsolutePath();
        SealedRun.Budget standard = SealedRun.Budget.standard();
        SealedRun.Budget budget = new SealedRun.Budget(
                seconds(options, "koan-timeout", standard.koanTimeout()), seconds(options, "silence", standard.silence()),
                seconds(options, "budget", standard.total()),
                Integer.parseInt(options.getOrDefault("restarts", String.valueOf(standard.restarts()))));
        String sandbox = options.getOrDefault("sandbox", "required");
        if (!List.of("required", "optional").contains(sandbox)) {
            throw new IllegalArgumentException("--sandbox is required or optional, not '" + sandbox + "'");
        }
        if (!checkOnly && !SealedRun.SANDBOX && sandbox.equals("required")) {
            System.out.println("GRADING INFRASTRUCTURE ERROR, no grade written: the graded JVMs cannot run in "
                    + "bubblewrap's sandbox here (no /usr/bin/bwrap, or it may not make namespaces). Without it the "
                    + "learner's code can change any file this user can, such as a library the next graded JVM "
                    + "loads, and forge this grade or a later one. Install bubblewrap (on Ubuntu 24.04 also: sudo "
                    + "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0), or, for code you trust only, grade "
                    + "with --sandbox optional (-Dgrade.sandbox=optional).");
            System.exit(1);
            return;
        }
        if (!checkOnly) {
            for (String earlier : OUTPUTS) {
                Files.deleteIfExists(out.resolve(earlier));
            }
        }
        TamperManifest.Manifest manifest;
        Points points;
        try {
            manifest = TamperManifest.read(course);
            points = Points.read(course, manifest.lessons());
        } catch (IllegalStateException e) {
            System.out.println("GRADING INFRASTRUCTURE ERROR, no grade written: " + e.getMessage());
            System.exit(1);
            return;
        }
        List<String> refusals = new ArrayList<>();
        if (repository) {
            refusals.addAll(TamperManifest.differences(manifest, course).stream()
                    .map(finding -> finding + ": a course file, which a graded repository must keep as shipped")
                    .toList());
        }
        refusals.addAll(Submission.refusals(submission, manifest.submission()));
        Map<String, KoanOutcome> outcomes = Map.of();
        List<String> compileErrors = new ArrayList<>();
        Path work = Files.createTempDirectory("fencing-grade-");
        try {
            if (refusals.isEmpty()) {
                Submission files = new Submission(submission, manifest.submission());
                Path classes = work.resolve("classes");
                LearnerJavaCheck.Outcome checked = LearnerJavaCheck.compile(files.javaFiles(),
                        course.resolve("src/main/java"), libraries(), classes);
                refusals.addAll(checked.refusals());
                compileErrors.addAll(checked.compileErrors());
                if (checked.compiled() && !checkOnly) {
                    Path koans = work.resolve("test-classes");
                    compileErrors.addAll(LearnerJavaCheck.compileKoans(course.resolve("src/test/java"),
                            course.resolve("src/test/resources"), classes, libraries(), koans));
                    if (compileErrors.isEmpty()) {
                        outcomes = run(files, classes, koans, work, budget, keys(manifest.lessons()));
                    }
                }
            }
        } finally {
            delete(work);
        }
        if (checkOnly) {
            refusals.forEach(refusal -> System.out.println("REFUSED: " + refusal));
            compileErrors.forEach(error -> System.out.println("DOES NOT COMPILE: " + error));
            boolean allowed = refusals.isEmpty() && compileErrors.isEmpty();
            System.out.println(allowed ? "ALLOWED: " + submission + " may run" : "NOT ALLOWED: " + submission);
            System.exit(allowed ? 0 : 1);
        }
        write(Grade.of(manifest.lessons(), outcomes, points, refusals, compileErrors), out);
    }

    private static Map<String, KoanOutcome> run(Submission files, Path classes, Path koans, Path work,
            SealedRun.Budget budget, Set<String> koanKeys) throws IOException, InterruptedException {
        for (String resource : files.resources()) {
            Path target = classes.resolve(resource.substring(resource.indexOf("/src/main/resources/")
                    + "/src/main/resources/".length()));
            Files.createDirectories(target.getParent());
            Files.copy(files.inFolder(resource), target, StandardCopyOption.REPLACE_EXISTING);
        }
        readOnly(classes);
        readOnly(koans);
        List<Path> classpath = new ArrayList<>(List.of(classes, koans));
        classpath.addAll(libraries());
        Map<String, String> environment = new TreeMap<>();
        KEPT_ENVIRONMENT.forEach(name -> {
            String value = System.getenv(name);
            if (value != null) {
                environment.put(name, value);
            }
        });
        Path runs = Files.createDirectories(work.resolve("runs"));
        return new SealedRun(classpath, runs, environment, budget).run(koanKeys);
    }

    private static Set<String> keys(List<TamperManifest.PlannedLesson> lessons) {
        Set<String> keys = new LinkedHashSet<>();
        lessons.forEach(lesson -> lesson.koans().forEach(koan -> keys.add(koan.key())));
        return keys;
    }

    private static void write(Grade grade, Path out) throws IOException {
        Files.createDirectories(out);
        String markdown = GradeFiles.markdown(grade);
        List<String> contents = List.of(GradeFiles.json(grade), markdown, GradeFiles.csv(grade),
                GradeFiles.classroom(grade));
        for (int i = 0; i < OUTPUTS.size(); i++) {
            Files.writeString(out.resolve(OUTPUTS.get(i)), contents.get(i), StandardCharsets.UTF_8);
        }
        String summary = System.getenv("GITHUB_STEP_SUMMARY");
        if (summary != null && !summary.isBlank()) {
            Files.writeString(Path.of(summary), markdown + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        System.out.println();
        grade.refusals().forEach(refusal -> System.out.println("REFUSED: " + refusal));
        grade.compileErrors().forEach(error -> System.out.println("DOES NOT COMPILE: " + error));
        for (Grade.LessonGrade lesson : grade.lessons()) {
            Grade.Tally tally = lesson.tally();
            System.out.printf("  Lesson %d  %-46s %2d of %2d koans  %3d / %3d points%n", lesson.lesson(),
                    lesson.title(), tally.passed(), tally.total(), tally.points(), tally.maxPoints());
        }
        System.out.println(SealedRun.SANDBOX ? "Sandbox: bubblewrap (files read-only, a private /tmp, own process "
                + "namespace" + (SealedRun.PRIVATE_NETWORK ? "; no network unless lesson 6's server is configured)" : ")")
                : "Sandbox: none (--sandbox optional): learner code could change files outside its run; "
                        + "this grade is only as good as the code is trustworthy");
        Grade.Tally total = grade.tally();
        System.out.printf("GRADE: %d of %d points (%d of %d koans passed, %d skipped)%s. Written to %s%n",
                total.points(), total.maxPoints(), total.passed(), total.total(), total.skipped(),
                grade.refusals().isEmpty() ? "" : ", the submission was refused", out.resolve("grade.json"));
    }

    /** The course this grader was compiled in: its classes are two folders below the root (target/test-classes/). */
    private static Path ownRoot() throws URISyntaxException {
        Path classes = Path.of(Grader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return classes.getParent().getParent().toAbsolutePath().normalize();
    }

    /** The libraries on this JVM's class path (JUnit, AssertJ, the drivers); never a folder of classes. */
    private static List<Path> libraries() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar")).map(Path::of).toList();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'; see Grader's usage");
            }
            String name = args[i].substring(2);
            options.put(name, name.equals("repository") || name.equals("check-only") ? "" : args[++i]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required (or --repository)");
        }
        return value;
    }

    private static Duration seconds(Map<String, String> options, String name, Duration standard) {
        return options.containsKey(name) ? Duration.ofSeconds(Long.parseLong(options.get(name))) : standard;
    }

    /** The graded JVM runs as the same user: read-only folders keep it from replacing a class not loaded yet. */
    private static void readOnly(Path folder) throws IOException {
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                path.toFile().setWritable(false, false);
            }
        }
    }

    private static void writable(Path folder) throws IOException {
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path path : walk.toList()) {
                path.toFile().setWritable(true, true);
            }
        }
    }

    private static void delete(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        writable(folder);
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
