package fencingkoans.harness.grading;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a learner's Java may use, by the fully qualified name of the type that owns each member it refers to.
 * Everything a solution of this course needs is here; anything else is refused with the reason a learner can
 * act on. The rules are written as an allowlist: a type that is not named is refused, however harmless.
 */
final class LearnerJavaRules {

    private static final String REFLECTION = "looks into or changes classes at run time (reflection)";
    private static final String ENSEMBLE = "starts or reaches ZooKeeper servers of its own; lesson 7's issuer needs "
            + "only the client the koan hands you";
    private static final String OWN_CONNECTION = "opens database connections of its own; use the connection or "
            + "ledger the koan hands you";
    private static final String PARALLEL = "runs code on threads of the JVM's shared pool; no koan of this course "
            + "needs one";

    /** Packages whose every type and member is allowed: the course's own code and plain data structures. */
    private static final List<String> OPEN_PACKAGES = List.of("fencingkoans.contract", "fencingkoans.sqlite",
            "fencingkoans.store", "fencingkoans.outside", "fencingkoans.lease", "java.util", "java.util.function",
            "java.util.stream", "java.time", "java.math", "java.sql", "java.nio.charset",
            // Lesson 7's issuer talks to ZooKeeper through the Curator client it is handed.
            "org.apache.curator.framework", "org.apache.curator.retry", "org.apache.zookeeper.data");

    /**
     * Packages open with everything below them: the Curator client's builders, and its recipes (the closed ones
     * below aside). Its connection state machinery and its implementation classes stay closed: they start threads.
     */
    private static final List<String> OPEN_PACKAGE_TREES = List.of("org.apache.curator.framework.api",
            "org.apache.curator.framework.recipes");

    /**
     * Parts of the open package trees that are refused all the same, by prefix: Curator's recipes that run code on
     * threads of their own (its locks and atomic counters do not, and stay open), and its factory, which opens a
     * client of its own.
     */
    private static final Map<String, String> CLOSED_IN_OPEN_TREES = Map.of(
            "org.apache.curator.framework.recipes.", "runs code on threads of its own (Curator's recipes other "
                    + "than locks and atomic); the lesson needs only the client the koan hands you",
            "org.apache.curator.framework.CuratorFrameworkFactory", "opens a ZooKeeper client of its own; use the "
                    + "client the koan hands you");

    /** Curator's recipes that run nothing on threads of their own. */
    private static final List<String> OPEN_RECIPES = List.of("org.apache.curator.framework.recipes.locks.",
            "org.apache.curator.framework.recipes.atomic.");

    /**
     * ZooKeeper's own types a solution names, each with its nested types. The rest of its package is closed: it
     * holds a client of its own, its command line and {@code Shell}, which starts programs.
     */
    private static final List<String> ZOOKEEPER_TYPES = List.of("org.apache.zookeeper.CreateMode",
            "org.apache.zookeeper.KeeperException", "org.apache.zookeeper.ZooDefs", "org.apache.zookeeper.Watcher",
            "org.apache.zookeeper.WatchedEvent", "org.apache.zookeeper.AddWatchMode", "org.apache.zookeeper.Op",
            "org.apache.zookeeper.OpResult", "org.apache.zookeeper.ZooKeeper.States");

    /** Types inside an open package that are refused all the same, with the reason. */
    private static final Map<String, String> CLOSED_IN_OPEN_PACKAGES = Map.ofEntries(
            Map.entry("java.util.ServiceLoader", "loads classes found at run time"),
            Map.entry("java.util.Timer", "starts a thread of its own"),
            Map.entry("java.util.TimerTask", "starts a thread of its own"),
            Map.entry("java.util.Scanner", "can read files; the koans hand your code what it reads, and String "
                    + "splits text"),
            Map.entry("java.util.Formatter", "writes files; String.format formats in memory"),
            Map.entry("java.util.ResourceBundle", "loads classes found by name at run time"),
            Map.entry("java.util.stream.StreamSupport", "makes streams that can run on threads of the JVM's shared "
                    + "pool; Collection.stream and Stream.of make every stream a solution needs"),
            Map.entry("java.sql.DriverManager", OWN_CONNECTION),
            Map.entry("java.sql.Driver", OWN_CONNECTION),
            Map.entry("fencingkoans.lease.Ensemble", ENSEMBLE),
            Map.entry("fencingkoans.lease.EnsembleClient", ENSEMBLE),
            Map.entry("fencingkoans.lease.LocalServers", ENSEMBLE));

    /**
     * Types of open packages of which only some members are allowed: Curator's own client opens connections and
     * threads of its own, and a solution only asks it for the handed session.
     */
    private static final Map<String, Set<String>> NARROWED_IN_OPEN_PACKAGES = Map.of(
            "org.apache.curator.CuratorZookeeperClient", Set.of("getZooKeeper"));

    /**
     * Members of Curator's open packages, by name whatever builder or interface declares them, that run learner
     * code later on a thread of Curator's or ZooKeeper's: background callbacks, watchers and listeners.
     */
    private static final Set<String> CURATOR_CALLBACKS = Set.of("inBackground", "usingWatcher", "watched",
            "watchers", "getCuratorListenable", "getConnectionStateListenable", "getUnhandledErrorListenable",
            "postSafeNotify", "runSafe", "newWatcherRemoveCuratorFramework", "makeRevocable");
    private static final String CALLBACK = "runs your code later, on a thread of Curator's or ZooKeeper's (a "
            + "callback, a watcher or a listener); every call of the lesson is answered where it is made";

    /** Types of closed packages that are allowed, each with the members allowed ({@code *}: all of them). */
    private static final Map<String, Set<String>> ALLOWED_TYPES = Map.ofEntries(
            Map.entry("java.lang.Object", Set.of("*")),
            Map.entry("java.lang.String", Set.of("*")),
            Map.entry("java.lang.StringBuilder", Set.of("*")),
            Map.entry("java.lang.CharSequence", Set.of("*")),
            Map.entry("java.lang.Character", Set.of("*")),
            Map.entry("java.lang.Boolean", Set.of("*")),
            Map.entry("java.lang.Number", Set.of("*")),
            Map.entry("java.lang.Byte", Set.of("*")),
            Map.entry("java.lang.Short", Set.of("*")),
            Map.entry("java.lang.Integer", Set.of("*")),
            Map.entry("java.lang.Long", Set.of("*")),
            Map.entry("java.lang.Float", Set.of("*")),
            Map.entry("java.lang.Double", Set.of("*")),
            Map.entry("java.lang.Math", Set.of("*")),
            Map.entry("java.lang.StrictMath", Set.of("*")),
            Map.entry("java.lang.Enum", Set.of("*")),
            Map.entry("java.lang.Record", Set.of("*")),
            Map.entry("java.lang.Iterable", Set.of("*")),
            Map.entry("java.lang.Comparable", Set.of("*")),
            Map.entry("java.lang.AutoCloseable", Set.of("*")),
            Map.entry("java.lang.Runnable", Set.of("*")),
            Map.entry("java.lang.Override", Set.of("*")),
            Map.entry("java.lang.Deprecated", Set.of("*")),
            Map.entry("java.lang.SuppressWarnings", Set.of("*")),
            Map.entry("java.lang.FunctionalInterface", Set.of("*")),
            Map.entry("java.lang.SafeVarargs", Set.of("*")),
            Map.entry("java.lang.Class", Set.of("getName", "getSimpleName", "isInstance", "cast")),
            Map.entry("java.lang.System", Set.of("out", "err", "currentTimeMillis", "nanoTime", "lineSeparator",
                    "identityHashCode", "arraycopy")),
            Map.entry("java.io.PrintStream", Set.of("print", "println", "printf", "format", "flush")),
            Map.entry("java.io.IOException", Set.of("*")),
            Map.entry("java.io.UncheckedIOException", Set.of("*")),
            Map.entry("java.io.Serializable", Set.of("*")),
            Map.entry("java.nio.file.Path", Set.of("*")),
            Map.entry("java.nio.file.Paths", Set.of("*")),
            Map.entry("java.nio.file.Files", Set.of("copy", "exists", "notExists", "isRegularFile", "isDirectory",
                    "size")),
            Map.entry("java.nio.file.CopyOption", Set.of("*")),
            Map.entry("java.nio.file.StandardCopyOption", Set.of("*")),
            Map.entry("java.nio.file.LinkOption", Set.of("*")),
            // Plain computation on strings; lesson 4's koans show what normalizing a request id breaks.
            Map.entry("java.text.Normalizer", Set.of("*")),
            Map.entry("java.text.Normalizer.Form", Set.of("*")),
            Map.entry("org.apache.curator.utils.ZKPaths", Set.of("*")),
            Map.entry("org.apache.curator.CuratorConnectionLossException", Set.of("*")),
            // What Curator's atomic counters take; its allowRetry needs a sleeper, and grading allows none.
            Map.entry("org.apache.curator.RetryPolicy", Set.of("*")),
            // The handed client's own session, which tells one worker's ephemeral node from another's.
            Map.entry("org.apache.zookeeper.ZooKeeper", Set.of("getSessionId", "getSessionTimeout", "getState")));

    /** Why a closed package is closed, by package prefix; the first match wins. */
    private static final List<Map.Entry<String, String>> CLOSED_PACKAGES = List.of(
            Map.entry("java.lang.reflect", REFLECTION),
            Map.entry("java.lang.invoke", "calls methods through handles (reflection)"),
            Map.entry("java.lang.instrument", "rewrites classes while they run"),
            Map.entry("java.util.concurrent", "works with threads; no koan of this course needs one"),
            Map.entry("java.net", "opens network connections"),
            Map.entry("javax.net", "opens network connections"),
            Map.entry("java.nio.channels", "opens files or sockets directly"),
            Map.entry("java.io", "reads or writes files and streams directly"),
            Map.entry("java.nio.file", "reads or writes files; lesson 5 needs only Files.copy(Path, Path, ...)"),
            Map.entry("sun.", "uses the JDK's unsafe internals"),
            Map.entry("jdk.", "uses the JDK's internals"),
            Map.entry("com.sun.", "uses the JDK's internals"),
            Map.entry("javax.sql", OWN_CONNECTION),
            Map.entry("org.apache.curator.framework.state.", CALLBACK),
            Map.entry("org.apache.curator.framework.imps.", "reaches past the client you are handed into Curator's "
                    + "own implementation, which starts threads of its own"),
            Map.entry("org.apache.zookeeper.", "reaches past the Curator client into ZooKeeper's own client, "
                    + "command line or shell (which starts programs)"),
            Map.entry("org.junit", "reaches into the test framework that grades the koans"),
            Map.entry("org.opentest4j", "reaches into the test framework that grades the koans"),
            Map.entry("org.assertj", "reaches into the test framework that grades the koans"),
            Map.entry("fencingkoans.harness", "reaches into the course's grading machinery"),
            Map.entry("fencingkoans.koans", "reaches into the koans themselves"));

    /** Why a type of java.lang outside the allowlist is refused, for the ones a learner might reach for. */
    private static final Map<String, String> JAVA_LANG_REASONS = Map.of(
            "java.lang.Runtime", "starts programs or stops the JVM",
            "java.lang.ProcessBuilder", "starts another program",
            "java.lang.Process", "controls another program",
            "java.lang.ProcessHandle", "controls other programs",
            "java.lang.Thread", "starts or controls threads; no koan of this course needs one",
            "java.lang.ThreadGroup", "starts or controls threads; no koan of this course needs one",
            "java.lang.ClassLoader", "loads classes of its own",
            "java.lang.StackWalker", "looks into the running program's stack",
            "java.lang.Module", "looks into or changes modules at run time",
            "java.lang.ModuleLayer", "looks into or changes modules at run time");

    /** Members of allowed types that are refused, with a reason (the rest of the type stays allowed). */
    private static final Map<String, String> MEMBER_REASONS = Map.ofEntries(
            Map.entry("java.lang.System.exit", "stops the JVM that grades the koans"),
            Map.entry("java.lang.System.getenv", "reads the environment, where credentials may live"),
            Map.entry("java.lang.System.getProperty", "reads the JVM's settings"),
            Map.entry("java.lang.System.getProperties", "reads the JVM's settings"),
            Map.entry("java.lang.Boolean.getBoolean", "reads the JVM's settings; Boolean.parseBoolean reads a string"),
            Map.entry("java.lang.Integer.getInteger", "reads the JVM's settings; Integer.parseInt reads a string"),
            Map.entry("java.lang.Long.getLong", "reads the JVM's settings; Long.parseLong reads a string"),
            Map.entry("java.lang.System.setProperty", "changes the JVM's settings"),
            Map.entry("java.lang.System.setOut", "replaces the JVM's output"),
            Map.entry("java.lang.System.setErr", "replaces the JVM's output"),
            Map.entry("java.lang.System.setIn", "replaces the JVM's input"),
            Map.entry("java.lang.System.load", "loads native code"),
            Map.entry("java.lang.System.loadLibrary", "loads native code"),
            Map.entry("java.lang.System.console", "reads the terminal"),
            Map.entry("java.lang.System.in", "reads the JVM's input"),
            Map.entry("java.lang.Class.forName", "loads classes by name (reflection)"),
            Map.entry("fencingkoans.sqlite.Database.connect", OWN_CONNECTION),
            Map.entry("fencingkoans.sqlite.Database.create", OWN_CONNECTION),
            Map.entry("fencingkoans.sqlite.Database.snapshot", "writes a file; lesson 5 needs only Files.copy(Path, "
                    + "Path, ...)"),
            Map.entry("fencingkoans.sqlite.Ledger.open", OWN_CONNECTION),
            Map.entry("fencingkoans.sqlite.Checkpoints.clear", "takes away the koans' own seams; lesson 5 needs "
                    + "only once or on"),
            Map.entry("java.util.Locale.setDefault", "changes the JVM's settings"),
            Map.entry("java.util.TimeZone.setDefault", "changes the JVM's settings"),
            Map.entry("java.util.Collection.parallelStream", PARALLEL),
            Map.entry("java.util.stream.BaseStream.parallel", PARALLEL),
            Map.entry("java.util.stream.IntStream.parallel", PARALLEL),
            Map.entry("java.util.stream.LongStream.parallel", PARALLEL),
            Map.entry("java.util.stream.DoubleStream.parallel", PARALLEL),
            Map.entry("java.util.Arrays.parallelSort", PARALLEL),
            Map.entry("java.util.Arrays.parallelSetAll", PARALLEL),
            Map.entry("java.util.Arrays.parallelPrefix", PARALLEL),
            Map.entry("java.nio.file.Files.write", "writes files; lesson 5 needs only Files.copy(Path, Path, ...)"),
            Map.entry("java.nio.file.Files.writeString", "writes files; lesson 5 needs only Files.copy(Path, Path, "
                    + "...)"));

    /**
     * Members, by name whatever type declares them, that read the running program's stack: the koan's class and
     * method are on it, and code that knows which koan calls it can answer each from a table.
     */
    private static final Set<String> STACK_MEMBERS = Set.of("getStackTrace", "printStackTrace", "getAllStackTraces");

    private static final String NOT_NEEDED = "no solution of this course needs it, so grading does not allow it";

    private LearnerJavaRules() {
    }

    /**
     * Why {@code member} of {@code owner} may not be used, or empty when it may. {@code member} is null for a use of
     * the type itself (a declaration, a cast, a {@code new}); {@code parameters} are the types a method or
     * constructor takes, as the compiler resolved the call.
     */
    static Optional<String> refusal(String owner, String packageName, String member, List<String> parameters) {
        if (member != null && STACK_MEMBERS.contains(member)) {
            return Optional.of(JAVA_LANG_REASONS.get("java.lang.StackWalker"));
        }
        if (member != null && MEMBER_REASONS.containsKey(owner + "." + member)) {
            return Optional.of(MEMBER_REASONS.get(owner + "." + member));
        }
        if (owner.equals("java.nio.file.Files") && parameters.stream().anyMatch(type -> type.startsWith("java.io."))) {
            // Files.copy(Path, OutputStream) would print any file to System.out.
            return Optional.of("reads or writes a stream; lesson 5 needs only Files.copy(Path, Path, ...)");
        }
        if (member != null && owner.startsWith("org.apache.curator.") && CURATOR_CALLBACKS.contains(member)) {
            return Optional.of(CALLBACK);
        }
        if (NARROWED_IN_OPEN_PACKAGES.containsKey(owner)) {
            return member != null && NARROWED_IN_OPEN_PACKAGES.get(owner).contains(member) ? Optional.empty()
                    : Optional.of("opens a ZooKeeper client of its own; use the client the koan hands you");
        }
        if (CLOSED_IN_OPEN_PACKAGES.containsKey(owner)) {
            return Optional.of(CLOSED_IN_OPEN_PACKAGES.get(owner));
        }
        Optional<String> closedInTree = CLOSED_IN_OPEN_TREES.entrySet().stream()
                .filter(closed -> owner.startsWith(closed.getKey()))
                .filter(closed -> OPEN_RECIPES.stream().noneMatch(owner::startsWith))
                .map(Map.Entry::getValue).findFirst();
        if (closedInTree.isPresent()) {
            return closedInTree;
        }
        if (ZOOKEEPER_TYPES.stream().anyMatch(type -> owner.equals(type) || owner.startsWith(type + "."))) {
            return Optional.empty();
        }
        if (OPEN_PACKAGES.contains(packageName)
                || OPEN_PACKAGE_TREES.stream().anyMatch(tree -> (packageName + ".").startsWith(tree + "."))) {
            return Optional.empty();
        }
        Set<String> members = ALLOWED_TYPES.get(owner);
        if (members != null) {
            return member == null || members.contains("*") || members.contains(member) ? Optional.empty()
                    : Optional.of(owner.equals("java.lang.Class") ? REFLECTION : NOT_NEEDED);
        }
        if (packageName.equals("java.lang") && isThrowableName(owner)) {
            return Optional.empty();
        }
        if (JAVA_LANG_REASONS.containsKey(owner)) {
            return Optional.of(JAVA_LANG_REASONS.get(owner));
        }
        return CLOSED_PACKAGES.stream().filter(closed -> (packageName + ".").startsWith(closed.getKey()))
                .map(Map.Entry::getValue).findFirst()
                .or(() -> Optional.of(NOT_NEEDED));
    }

    /** Exceptions and errors of java.lang are what a solution throws and catches. */
    private static boolean isThrowableName(String owner) {
        String name = simple(owner);
        return name.equals("Throwable") || name.endsWith("Exception") || name.endsWith("Error");
    }

    private static String simple(String qualified) {
        return qualified.substring(qualified.lastIndexOf('.') + 1);
    }
}
