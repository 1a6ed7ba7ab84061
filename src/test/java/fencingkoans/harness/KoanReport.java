package fencingkoans.harness;

import fencingkoans.pg.PgSetupFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The report after every run, wherever the koans run (build tool, IDE, console launcher, watch mode): a table of
 * lessons, the one next koan in detail, and as its last line {@code Progress: P/T koans}. Registered through the
 * service loader; it stays silent when a run holds no koan. {@code -Dkoans.hints=all} shows every hint of the
 * next koan instead of the first.
 */
public final class KoanReport implements TestExecutionListener {

    public static final String HINTS = "koans.hints";
    /**
     * Where the report goes instead of standard output, when the build prints it itself as its very last step
     * ({@link PrintReportLast}). Its first line is one of the outcomes below.
     */
    public static final String REPORT_FILE = "koans.report.file";
    static final String PASSED = "outcome: passed";
    static final String FAILED = "outcome: failed";
    static final String UNFINISHED = "outcome: unfinished";
    /** How a failure's text names the hint for the step that failed. */
    private static final Pattern NAMED_HINT = Pattern.compile("\\(hint (\\d+)\\)");

    private enum Status { PASSED, FAILED, LOCKED, SKIPPED }

    private record Outcome(Status status, String reason, Throwable failure) {
    }

    /** Read when a run holds koans: every launcher session (evidence, workshop, an IDE's) creates this listener. */
    private List<Course.LessonEntry> lessons = List.of();
    private int total;
    private final Map<String, Outcome> outcomes = new HashMap<>();
    private final KoanResults results = new KoanResults(key -> { }, this::record);
    private final Set<String> planned = new HashSet<>();
    private boolean allHints;
    /** Whether anything in the plan failed, koan or not: what a build tool counts as a failed run. */
    private boolean anyFailed;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        results.testPlanExecutionStarted(testPlan);
        outcomes.clear();
        planned.clear();
        Set<String> inPlan = testPlan.getRoots().stream().flatMap(root -> testPlan.getDescendants(root).stream())
                .map(KoanResults::key).flatMap(Optional::stream).collect(Collectors.toSet());
        // A key of the lessons' package itself, not of a subpackage: "fencingkoans.koans.Lesson1...#method".
        boolean holdsKoans = inPlan.stream().anyMatch(key -> key.startsWith(Course.LESSON_PACKAGE + ".")
                && !key.substring(Course.LESSON_PACKAGE.length() + 1).contains("."));
        lessons = holdsKoans ? Course.lessons() : List.of();
        total = lessons.stream().mapToInt(lesson -> lesson.koans().size()).sum();
        allHints = testPlan.getConfigurationParameters().get(HINTS).map("all"::equalsIgnoreCase).orElse(false);
        lessons.forEach(lesson -> lesson.koans().forEach(koan -> planned.add(key(lesson, koan))));
        planned.retainAll(inPlan);
        anyFailed = false;
        if (!planned.isEmpty()) {
            // Left in place only if this run never reaches its end, so that the build cannot call it a success.
            reportFile().ifPresent(file -> write(file, UNFINISHED));
        }
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        results.executionSkipped(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        anyFailed |= result.getStatus() == TestExecutionResult.Status.FAILED;
        results.executionFinished(test, result);
    }

    /** The course's results model, read as this report shows it: a skip because of focus is a lock. */
    private void record(KoanResults.Result result) {
        if (!planned.contains(result.key())) {
            return;
        }
        outcomes.put(result.key(), switch (result.status()) {
            case PASSED -> new Outcome(Status.PASSED, null, null);
            // An unmet assumption (a server that is not there) skips a koan; it is not the learner's failure.
            case SKIPPED -> new Outcome(result.detail().startsWith(KoanFocus.LOCKED_PREFIX) ? Status.LOCKED
                    : Status.SKIPPED, result.detail(), null);
            case FAILED, ERROR, TIMED_OUT -> new Outcome(Status.FAILED, null, result.failure());
        });
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        results.testPlanExecutionFinished(testPlan);
        if (planned.isEmpty()) {
            return;
        }
        Optional<Path> file = reportFile();
        if (file.isPresent()) {
            write(file.get(), (anyFailed ? FAILED : PASSED) + System.lineSeparator() + render());
        } else {
            System.out.println(render());
            System.out.flush();
        }
    }

    private static Optional<Path> reportFile() {
        return Optional.ofNullable(System.getProperty(REPORT_FILE)).filter(name -> !name.isBlank()).map(Path::of);
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text + System.lineSeparator(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the koan report cannot be written to " + file, e);
        }
    }

    private String render() {
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("=== fencing-koans ===");
        lessons.forEach(lesson -> out.add(tableRow(lesson)));
        out.add("");
        Optional<Course.LessonEntry> nextLesson = lessons.stream()
                .filter(lesson -> lesson.koans().stream().anyMatch(koan -> is(lesson, koan, Status.FAILED)))
                .findFirst();
        if (nextLesson.isPresent()) {
            Course.LessonEntry lesson = nextLesson.get();
            Course.KoanEntry koan = lesson.koans().stream().filter(entry -> is(lesson, entry, Status.FAILED))
                    .findFirst().orElseThrow();
            out.addAll(nextKoan(lesson, koan));
            out.addAll(afterIt());
        } else {
            out.addAll(noFailure());
        }
        out.add("");
        out.add(progress());
        return String.join(System.lineSeparator(), out);
    }

    /**
     * Counts the koans that could run here, of the lessons this run selected; those skipped (a missing server) and
     * those of lessons left out of the run (one class run alone) are named apart, not as undone.
     */
    private String progress() {
        long skipped = count(Status.SKIPPED);
        long notRun = total - planned.size();
        String line = "Progress: " + count(Status.PASSED) + "/" + (planned.size() - skipped) + " koans";
        List<String> apart = new ArrayList<>();
        if (skipped > 0) {
            List<String> reasons = outcomes.values().stream().filter(outcome -> outcome.status() == Status.SKIPPED)
                    .map(outcome -> shortReason(outcome.reason())).distinct().toList();
            apart.add(skipped + " skipped" + (reasons.size() == 1 ? ": " + reasons.get(0) : ""));
        }
        if (notRun > 0) {
            apart.add(notRun + " more in lessons this run left out");
        }
        return apart.isEmpty() ? line : line + " (" + String.join("; ", apart) + ")";
    }

    /** A skip reason's first clause: "Skipped: no PostgreSQL server for this lesson. Set ..." gives "no PostgreSQL server for this lesson". */
    private static String shortReason(String reason) {
        return reason.replaceFirst("^Skipped: ", "").split("\\. | \\(|\\.$", 2)[0];
    }

    private String tableRow(Course.LessonEntry lesson) {
        long inPlan = lesson.koans().stream().filter(koan -> planned.contains(key(lesson, koan))).count();
        long passed = lesson.koans().stream().filter(koan -> is(lesson, koan, Status.PASSED)).count();
        long locked = lesson.koans().stream().filter(koan -> is(lesson, koan, Status.LOCKED)).count();
        long skipped = lesson.koans().stream().filter(koan -> is(lesson, koan, Status.SKIPPED)).count();
        String note = inPlan == 0 ? "not run this time"
                : passed == lesson.koans().size() ? "done"
                : locked == inPlan ? "locked"
                : skipped == inPlan ? "skipped (see below)"
                : "";
        return String.format("  Lesson %d  %-46s %2d/%-2d  %s", lesson.lesson().value(), lesson.lesson().title(),
                passed, lesson.koans().size(), note).stripTrailing();
    }

    private List<String> nextKoan(Course.LessonEntry lesson, Course.KoanEntry koan) {
        Throwable failure = outcomes.get(key(lesson, koan)).failure();
        List<String> out = new ArrayList<>();
        out.add("Next: koan " + koan.card().number() + ", " + koan.name()
                + koan.card().twinNote().map(note -> " (" + note + ")").orElse(""));
        out.add("  It teaches:  " + koan.card().teaches());
        Optional<FailureStory.Stub> stub = failure == null ? Optional.empty() : FailureStory.stub(failure);
        Optional<PgSetupFailure> setup = failure == null ? Optional.empty() : FailureStory.setupFailure(failure);
        if (setup.isPresent()) {
            out.addAll(setupFailed(setup.get(), lesson));
            return out;
        }
        List<String> edits = ExerciseFiles.describe(koan.card().edits());
        if (stub.isPresent()) {
            boolean sql = stub.get().file().endsWith(".sql");
            out.add("  What failed: " + stub.get().method() + " is not written yet: it still "
                    + (sql ? "raises its 'Not written yet' error." : "throws NotWrittenYet."));
            out.add("  Write it in: " + stub.get().file() + (sql ? "  (delete the RAISE)"
                    : "  (method " + methodOf(stub.get().method()) + "; delete the throw)"));
            List<String> others = edits.stream().filter(edit -> !edit.startsWith(stub.get().file())).toList();
            others.forEach(edit -> out.add("  This koan also uses: " + edit));
        } else {
            out.add("  What failed:");
            if (failure != null) {
                FailureStory.whatHappened(failure).forEach(line -> out.add("    " + line));
            }
            edits.forEach(edit -> out.add("  Edit:        " + edit));
        }
        Optional<String> failedAt = Optional.empty();
        if (failure != null) {
            Optional<String> body = FailureStory.inheritedBodyLine(failure, koan.method());
            Optional<String> line = FailureStory.koanLine(failure, koan.method().getDeclaringClass(),
                    koan.methodName());
            line.ifPresent(at -> out.add("  The koan:    " + at + body.map(bodyAt -> ", its body at " + bodyAt)
                    .orElse("")));
            runBy(koan).ifPresent(runner -> out.add("               (run by " + runner + ", the name your build tool "
                    + "or IDE shows)"));
            failedAt = body.or(() -> line);
        }
        out.addAll(hints(koan.card().hints(), lesson, hintNamedBy(failure, failedAt)));
        return out;
    }

    /** The learner's SQL broke lesson 6's set-up: its real cause and place, and hints for that, not the koan's. */
    private List<String> setupFailed(PgSetupFailure setup, Course.LessonEntry lesson) {
        List<String> out = new ArrayList<>();
        out.add("  What failed: the lesson's set-up, before the koan itself ran: " + setup.cause());
        out.add("  PostgreSQL:  " + setup.serverSaid());
        out.add("  Edit:        " + setup.location() + "  (line " + setup.line() + ", column " + setup.column() + ")");
        out.addAll(hints(setup.hints(), lesson, 1));
        return out;
    }

    /**
     * The hint a failure names with "(hint N)": in its message, or else in the koan's statement it came out of, for
     * an exception the learner's code threw inside an assertion that names one. Otherwise the first hint.
     */
    private static int hintNamedBy(Throwable failure, Optional<String> failedAt) {
        String message = failure == null ? null : failure.getMessage();
        String named = message != null && NAMED_HINT.matcher(message).find() ? message
                : failedAt.flatMap(FailureStory::statementAt).orElse("");
        Matcher hint = NAMED_HINT.matcher(named);
        return hint.find() ? Integer.parseInt(hint.group(1)) : 1;
    }

    private List<String> hints(List<String> hints, Course.LessonEntry lesson, int first) {
        List<String> out = new ArrayList<>();
        int one = first <= hints.size() ? first - 1 : 0;
        int from = allHints ? 0 : one;
        int to = allHints ? hints.size() : one + 1;
        for (int i = from; i < to; i++) {
            out.add("  Hint " + (i + 1) + " of " + hints.size() + ":  " + hints.get(i));
        }
        out.add(to - from < hints.size()
                ? "  Stuck? -D" + HINTS + "=all shows every hint; the lesson page is " + lesson.lesson().page()
                : "  The lesson page explains the idea: " + lesson.lesson().page());
        return out;
    }

    /** The class that runs a koan written once for every destination, where its code is in another file. */
    private static Optional<String> runBy(Course.KoanEntry koan) {
        Class<?> runner = koan.testClass();
        return koan.method().getDeclaringClass() == runner ? Optional.empty()
                : Optional.of(runner.getName().substring(runner.getPackageName().length() + 1));
    }

    private List<String> afterIt() {
        List<String> out = new ArrayList<>();
        long locked = count(Status.LOCKED);
        if (locked > 0) {
            out.add("");
            out.add(locked + " koan" + (locked == 1 ? " after it is" : "s after it are")
                    + " locked until it passes (-D" + KoanFocus.SWITCH + "=off runs every koan).");
        }
        List<String> alsoFailing = numbers(Status.FAILED);
        if (alsoFailing.size() > 1) {
            out.add("");
            out.add("Also failing: " + String.join(", ", alsoFailing.subList(1, alsoFailing.size())));
        }
        out.addAll(skipped());
        return out;
    }

    private List<String> noFailure() {
        List<String> out = new ArrayList<>();
        if (count(Status.PASSED) + count(Status.SKIPPED) == total) {
            out.add(count(Status.SKIPPED) > 0 ? "Every koan that could run here passes."
                    : Files.isDirectory(Path.of("solutions"))
                    ? "Every koan passes. Compare your exercises/ with the reference in solutions/."
                    : "Every koan passes.");
            out.add("Watch your own store run the lab walkthrough: ./mvnw -q compile exec:java");
        } else {
            out.add("Every koan that ran passes. Run all lessons together to see the next step.");
        }
        out.addAll(skipped());
        return out;
    }

    /** One line per lesson skipped as a whole (a missing server), else one per skipped koan. */
    private List<String> skipped() {
        List<String> out = new ArrayList<>();
        for (Course.LessonEntry lesson : lessons) {
            List<String> reasons = lesson.koans().stream().filter(koan -> is(lesson, koan, Status.SKIPPED))
                    .map(koan -> outcomes.get(key(lesson, koan)).reason()).toList();
            if (!reasons.isEmpty() && reasons.size() == lesson.koans().size() && reasons.stream().distinct().count() == 1) {
                out.add("");
                out.add("Lesson " + lesson.lesson().value() + " (" + reasons.size() + " koans) was skipped: "
                        + reasons.get(0).replaceFirst("^Skipped: ", ""));
                continue;
            }
            lesson.koans().stream().filter(koan -> is(lesson, koan, Status.SKIPPED)).forEach(koan -> out.add(
                    "Skipped: koan " + koan.card().number() + ": " + outcomes.get(key(lesson, koan)).reason()));
        }
        return out;
    }

    private List<String> numbers(Status status) {
        return lessons.stream().flatMap(lesson -> lesson.koans().stream().filter(koan -> is(lesson, koan, status)))
                .map(koan -> koan.card().number()).toList();
    }

    private long count(Status status) {
        return outcomes.values().stream().filter(outcome -> outcome.status() == status).count();
    }

    private boolean is(Course.LessonEntry lesson, Course.KoanEntry koan, Status status) {
        Outcome outcome = outcomes.get(key(lesson, koan));
        return outcome != null && outcome.status() == status;
    }

    private static String methodOf(String classDotMethod) {
        return classDotMethod.substring(classDotMethod.indexOf('.') + 1);
    }

    private static String key(Course.LessonEntry lesson, Course.KoanEntry koan) {
        return KoanResults.key(koan.testClass().getName(), koan.methodName());
    }

}
