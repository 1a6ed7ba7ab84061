package fencingkoans.harness;

import fencingkoans.contract.NotWrittenYet;
import fencingkoans.pg.FunctionLines;
import fencingkoans.pg.PgSetupFailure;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opentest4j.AssertionFailedError;

/**
 * Tells what went wrong in a failed koan in a few calm lines: a method still to write, an expectation with
 * what happened instead, or an exception with only the course's own stack frames (the build tool, the test
 * engine, reflection and the assertion library are left out).
 */
final class FailureStory {

    /**
     * The stub's message, also when an assertion quotes it ("... but was: ...NotWrittenYet: Not written yet: ...")
     * or the server reports it from a SQL stub's RAISE.
     */
    private static final Pattern STUB = Pattern.compile(
            "Not written yet: (\\S+?)(?: \\(needed by [^)]*\\))?\\. Edit (\\S+), delete this (?:throw|RAISE)");
    private static final Pattern DESCRIPTION = Pattern.compile("^\\[(.*)\\]\\s*$", Pattern.DOTALL);
    /** Where a description written over several lines ends: its bracket, then the comparison's first line. */
    private static final Pattern DESCRIBED_COMPARISON = Pattern.compile("\\] ?\\R(?=expected: )");
    /** A stack frame an assertion's message quotes, or the line that stands for the frames it left out. */
    private static final Pattern QUOTED_FRAME = Pattern.compile(
            "^\\s*(at \\S+\\(.*\\)|\\.\\.\\.\\(\\d+ remaining lines.*|\\.\\.\\. \\d+ more)$");
    private static final List<String> MACHINERY = List.of("org.junit.", "org.apache.maven.", "org.assertj.",
            "org.opentest4j.", "java.lang.reflect.", "jdk.internal.", "sun.reflect.", "java.util.",
            "java.lang.Thread", "java.lang.Object", "com.intellij.", "org.eclipse.", KoanThread.class.getName());
    private static final int MAX_MESSAGE_LINES = 12;
    private static final int MAX_FRAMES = 6;
    /** The package of the classes in exercises/, the ones the learner writes. */
    private static final String LEARNER_PACKAGE = ExerciseFiles.FOLDER.substring(NotWrittenYet.EXERCISES.length())
            .replace('/', '.');

    /** The method the learner has still to write, and its file, if the stub is what failed. */
    record Stub(String method, String file) {
    }

    private FailureStory() {
    }

    static Optional<Stub> stub(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof NotWrittenYet stub) {
                return Optional.of(new Stub(stub.method(), stub.file()));
            }
            Matcher quoted = STUB.matcher(String.valueOf(cause.getMessage()));
            if (quoted.find()) {
                return Optional.of(new Stub(quoted.group(1), quoted.group(2)));
            }
        }
        return Optional.empty();
    }

    /** Lesson 6's set-up stopped on the learner's SQL, if that is what failed: its diagnosis. */
    static Optional<PgSetupFailure> setupFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PgSetupFailure setup) {
                return Optional.of(setup);
            }
        }
        return Optional.empty();
    }

    /**
     * What was expected and what happened, or which exception came from where; after a line that names a line of
     * lesson 6's function, the place of that line in the learner's file, since PL/pgSQL counts from the body.
     */
    static List<String> whatHappened(Throwable failure) {
        List<String> lines = new ArrayList<>();
        List<String> places = new ArrayList<>();
        for (String line : told(failure)) {
            lines.add(line);
            FunctionLines.whereIn(line).filter(place -> !places.contains(place)).ifPresent(place -> {
                places.add(place);
                lines.add("(" + place + ")");
            });
        }
        return lines;
    }

    private static List<String> told(Throwable failure) {
        if (failure instanceof AssertionFailedError compared && compared.isExpectedDefined()
                && compared.isActualDefined()) {
            List<String> lines = new ArrayList<>();
            description(compared).ifPresent(described -> lines.addAll(described.lines().toList()));
            lines.add("expected: " + compared.getExpected().getStringRepresentation());
            lines.add(" but was: " + compared.getActual().getStringRepresentation());
            return lines;
        }
        if (failure instanceof AssertionError) {
            return messageLines(failure);
        }
        List<String> lines = new ArrayList<>();
        if (failure instanceof TimeoutException && failure.getCause() != null) {
            // The cause carries the stack of the koan's own thread at the moment time ran out.
            lines.add(failure.getMessage() + ": no answer came. Is there a loop, a retry or a wait that never ends?");
            lines.add("It was still busy here:");
            lines.addAll(frames(failure.getCause()));
            lines.add("(Its thread may go on running: if watch mode stays slow after this, stop it and start it again.)");
            return lines;
        }
        lines.add("threw " + failure.getClass().getName() + ": " + failure.getMessage());
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            lines.add("caused by " + cause.getClass().getName() + ": " + cause.getMessage());
        }
        lines.addAll(frames(failure));
        return lines;
    }

    /**
     * The course's own frames, the first few; when the learner's code lies deeper than those, its first frame too,
     * so that an exception thrown inside a library still points at the line that called it.
     */
    private static List<String> frames(Throwable failure) {
        List<StackTraceElement> course = Arrays.stream(failure.getStackTrace()).filter(FailureStory::isCourseFrame)
                .toList();
        List<StackTraceElement> shown = new ArrayList<>(course.subList(0, Math.min(MAX_FRAMES, course.size())));
        boolean learnerShown = shown.stream().anyMatch(FailureStory::isLearnerFrame);
        List<String> lines = new ArrayList<>(shown.stream().map(FailureStory::frame).toList());
        if (!learnerShown) {
            course.stream().filter(FailureStory::isLearnerFrame).findFirst()
                    .ifPresent(first -> lines.addAll(List.of("  ...", frame(first))));
        }
        return lines;
    }

    private static String frame(StackTraceElement frame) {
        return "  at " + frame.getClassName() + "." + frame.getMethodName() + "(" + frame.getFileName() + ":"
                + frame.getLineNumber() + ")";
    }

    /** The line of the koan where it failed (in the koan's own method, not a helper), as a path one can open. */
    static Optional<String> koanLine(Throwable failure, Class<?> lessonClass, String koanMethod) {
        List<StackTraceElement> inLesson = Arrays.stream(failure.getStackTrace())
                .filter(frame -> frame.getClassName().equals(lessonClass.getName())
                        || frame.getClassName().startsWith(lessonClass.getName() + "$"))
                .toList();
        return inLesson.stream().filter(frame -> frame.getMethodName().equals(koanMethod)).findFirst()
                .or(() -> inLesson.stream().findFirst())
                .map(frame -> sourcePath(lessonClass, frame.getFileName(), frame.getLineNumber()));
    }

    /**
     * Where the body of a koan that only overrides one written in another file lies (lesson 6 reruns the koans of
     * lessons 1, 2 and 4 so): its line in the failure's stack, else the first line of the inherited method.
     */
    static Optional<String> inheritedBodyLine(Throwable failure, Method koan) {
        return inheritedBody(koan.getDeclaringClass(), koan).map(body -> Arrays.stream(failure.getStackTrace())
                .filter(frame -> frame.getClassName().equals(body.getDeclaringClass().getName())
                        && frame.getMethodName().equals(koan.getName()))
                .findFirst().map(frame -> sourcePath(body.getDeclaringClass(), frame.getFileName(),
                        frame.getLineNumber()))
                .orElseGet(() -> {
                    SourceLines lines = SourceLines.of(body.getDeclaringClass());
                    return sourcePath(body.getDeclaringClass(), lines.file(),
                            lines.firstLines().getOrDefault(koan.getName(), 0));
                }));
    }

    /** The default method of an interface of {@code type} that {@code koan} overrides, if there is one. */
    private static Optional<Method> inheritedBody(Class<?> type, Method koan) {
        for (Class<?> face : type.getInterfaces()) {
            try {
                Method inherited = face.getDeclaredMethod(koan.getName(), koan.getParameterTypes());
                if (inherited.isDefault()) {
                    return Optional.of(inherited);
                }
            } catch (NoSuchMethodException notHere) {
                // Perhaps one of its own interfaces declares it.
            }
            Optional<Method> deeper = inheritedBody(face, koan);
            if (deeper.isPresent()) {
                return deeper;
            }
        }
        return type.getSuperclass() == null ? Optional.empty() : inheritedBody(type.getSuperclass(), koan);
    }

    /**
     * The whole statement of the koan's source that holds {@code place} ("path:line", as {@link #koanLine} gives
     * it), from the line after the statement before it to its own end; empty where the source is not at hand.
     */
    static Optional<String> statementAt(String place) {
        int colon = place.lastIndexOf(':');
        try {
            List<String> lines = Files.readAllLines(Path.of(place.substring(0, colon)));
            int line = Integer.parseInt(place.substring(colon + 1)) - 1;
            if (line < 0 || line >= lines.size()) {
                return Optional.empty();
            }
            int start = line;
            while (start > 0 && !endsAStatement(lines.get(start - 1))) {
                start--;
            }
            int end = line;
            while (end < lines.size() - 1 && !endsAStatement(lines.get(end))) {
                end++;
            }
            return Optional.of(String.join("\n", lines.subList(start, end + 1)));
        } catch (IOException | RuntimeException noSource) {
            return Optional.empty();
        }
    }

    private static boolean endsAStatement(String line) {
        String code = line.strip();
        return code.isEmpty() || code.endsWith(";") || code.endsWith("{") || code.endsWith("}");
    }

    private static String sourcePath(Class<?> type, String file, int line) {
        return "src/test/java/" + type.getPackageName().replace('.', '/') + "/" + file + ":" + line;
    }

    /** The description in brackets that starts the message, over as many lines as it was written on. */
    private static Optional<String> description(Throwable failure) {
        String message = String.valueOf(failure.getMessage()).strip();
        Matcher compared = DESCRIBED_COMPARISON.matcher(message);
        Matcher described = DESCRIPTION.matcher(compared.find() ? message.substring(0, compared.start() + 1)
                : message.lines().findFirst().orElse(""));
        return described.matches() ? Optional.of(described.group(1)) : Optional.empty();
    }

    private static List<String> messageLines(Throwable failure) {
        List<String> lines = new ArrayList<>();
        for (String line : String.valueOf(failure.getMessage()).strip().split("\\R")) {
            Matcher described = DESCRIPTION.matcher(line);
            if (described.matches()) {
                lines.add(described.group(1));
            } else if (!line.isBlank() && !QUOTED_FRAME.matcher(line).matches()) {
                lines.add(line);
            }
        }
        if (lines.size() > MAX_MESSAGE_LINES) {
            int left = lines.size() - MAX_MESSAGE_LINES;
            lines = new ArrayList<>(lines.subList(0, MAX_MESSAGE_LINES));
            lines.add("(" + left + " more lines)");
        }
        return lines;
    }

    private static boolean isLearnerFrame(StackTraceElement frame) {
        return frame.getClassName().startsWith(LEARNER_PACKAGE);
    }

    private static boolean isCourseFrame(StackTraceElement frame) {
        return MACHINERY.stream().noneMatch(frame.getClassName()::startsWith);
    }
}
