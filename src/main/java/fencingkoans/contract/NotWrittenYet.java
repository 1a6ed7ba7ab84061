package fencingkoans.contract;

import java.util.Optional;

/**
 * Thrown by every method the learner still has to write. It names the method and the file to edit, both found
 * on the stack where the stub throws it, and the koan that was running, so that a failing koan points straight
 * at the work.
 */
public final class NotWrittenYet extends RuntimeException {

    /** Where the learner's Java lives, relative to the project root: the one place this path is written. */
    public static final String EXERCISES = "exercises/src/main/java/";

    /** The system property in which the koan runner publishes the number of the koan that runs now. */
    public static final String RUNNING_KOAN = "fencingkoans.running-koan";

    private final Optional<String> koan;
    private final String file;
    private final String method;

    /** Thrown from the stub itself: {@code throw new NotWrittenYet();} */
    public NotWrittenYet() {
        this(StackWalker.getInstance().walk(frames -> frames
                .filter(frame -> !frame.getClassName().equals(NotWrittenYet.class.getName())).findFirst())
                .orElseThrow());
    }

    private NotWrittenYet(StackWalker.StackFrame stub) {
        this(Optional.ofNullable(System.getProperty(RUNNING_KOAN)), EXERCISES
                + topLevel(stub.getClassName()).replace('.', '/') + ".java", simpleName(topLevel(stub.getClassName()))
                + "." + stub.getMethodName());
    }

    private NotWrittenYet(Optional<String> koan, String file, String method) {
        super("Not written yet: " + method + koan.map(number -> " (needed by koan " + number + ")").orElse("")
                + ". Edit " + file + ", delete this throw and write the method yourself.");
        this.koan = koan;
        this.file = file;
        this.method = method;
    }

    /** The koan that was running when the stub threw; empty outside the koans (the lab walkthrough, say). */
    public Optional<String> koan() {
        return koan;
    }

    public String file() {
        return file;
    }

    /** As {@code Class.method}, for example "FencedStore.apply". */
    public String method() {
        return method;
    }

    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
