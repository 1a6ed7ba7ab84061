package fencingkoans.harness;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Runs every koan, and every set-up and clean-up of a lesson, on one thread kept for the whole run, and stops
 * waiting for it after the limit {@value #LIMIT} sets (junit-platform.properties): a koan that never answers then fails with the stack its
 * thread was in, and the run goes on, on a new thread. JUnit's own preemptive timeout does the same with a new
 * thread for each method, which cost about 2 ms a koan, more than most koans take.
 */
public final class KoanThread implements InvocationInterceptor {

    /** The configuration parameter for the limit, in JUnit's form ("45 s", "500 ms"). */
    public static final String LIMIT = "koans.timeout";

    private static final ExtensionContext.Namespace RUN = ExtensionContext.Namespace.create(KoanThread.class);

    /** The thread of one run, closed with the run; replaced when a koan outlives the limit on it. */
    private static final class Worker implements AutoCloseable {

        private final ClassLoader courseLoader = Thread.currentThread().getContextClassLoader();
        private Thread current;
        private ExecutorService thread = newThread();

        private ExecutorService newThread() {
            return Executors.newSingleThreadExecutor(task -> {
                current = new Thread(task, "koan");
                current.setDaemon(true);
                current.setContextClassLoader(courseLoader);
                return current;
            });
        }

        synchronized Future<Object> submit(Invocation<?> invocation) {
            return thread.submit(() -> {
                try {
                    return invocation.proceed();
                } catch (Exception | Error thrown) {
                    throw thrown;
                } catch (Throwable other) {
                    throw new ExecutionException(other);
                } finally {
                    // An interrupt a koan left behind belongs to it, not to the next koan on this thread.
                    Thread.interrupted();
                }
            });
        }

        /** The stuck thread is interrupted and left to end on its own; later koans get a thread of their own. */
        synchronized StackTraceElement[] giveUp() {
            StackTraceElement[] where = current.getStackTrace();
            thread.shutdownNow();
            thread = newThread();
            return where;
        }

        @Override
        public synchronized void close() {
            thread.shutdownNow();
        }
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        onTheKoanThread(invocation, method, context);
    }

    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        onTheKoanThread(invocation, method, context);
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        onTheKoanThread(invocation, method, context);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        onTheKoanThread(invocation, method, context);
    }

    @Override
    public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        onTheKoanThread(invocation, method, context);
    }

    private static void onTheKoanThread(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        Duration limit = context.getConfigurationParameter(LIMIT, KoanThread::duration).orElseThrow(
                () -> new IllegalStateException(LIMIT + " is not set: junit-platform.properties sets it for the koans"));
        Worker worker = context.getRoot().getStore(RUN).getOrComputeIfAbsent(Worker.class, type -> new Worker(),
                Worker.class);
        Future<Object> answer = worker.submit(invocation);
        try {
            answer.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException thrown) {
            throw thrown.getCause() instanceof ExecutionException wrapped ? wrapped.getCause() : thrown.getCause();
        } catch (TimeoutException late) {
            Throwable stuck = new Throwable("the koan's thread when time ran out");
            stuck.setStackTrace(worker.giveUp());
            TimeoutException timedOut = new TimeoutException(method.getExecutable().getName() + "() timed out after "
                    + text(limit));
            timedOut.initCause(stuck);
            throw timedOut;
        }
    }

    /** JUnit's form of a duration: a number and a unit, "45 s" or "500 ms". */
    static Duration duration(String text) {
        String[] parts = text.trim().split("\\s+");
        if (parts.length != 2 || !parts[0].matches("\\d+")) {
            throw new IllegalArgumentException(LIMIT + " must be a whole number and a unit (\"45 s\", \"500 ms\"), "
                    + "not \"" + text + "\"");
        }
        long amount = Long.parseLong(parts[0]);
        return switch (parts[1]) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> throw new IllegalArgumentException(LIMIT + "'s unit is ms, s or m, not \"" + parts[1] + "\"");
        };
    }

    private static String text(Duration limit) {
        return limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " seconds" : limit.toMillis() + " milliseconds";
    }
}
