package fencingkoans.koans.support;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Holds a worker thread at a checkpoint until the koan releases it. Latches, not sleeps: the order of events
 * is the same on every run. The timeout only turns a hang into a clear failure.
 */
public final class Pause {

    private static final long PATIENCE_SECONDS = 30;

    private final CompletableFuture<Void> reached = new CompletableFuture<>();
    private final CountDownLatch released = new CountDownLatch(1);

    /** Called by the paused thread, at the checkpoint. */
    public void hold() {
        reached.complete(null);
        try {
            if (!released.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the koan never released the paused worker within " + PATIENCE_SECONDS
                        + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("the paused worker was interrupted", e);
        }
    }

    /**
     * Waits until {@code worker} is held at the checkpoint. If the worker finishes first, fails at once and says
     * how it finished: it never reached the moment the koan is about.
     */
    public void awaitReached(CompletableFuture<?> worker) {
        awaitReached(worker, "does it read the generation with ledger.installedGeneration?");
    }

    /** The same, with the question to ask when the worker finished without reaching the checkpoint. */
    public void awaitReached(CompletableFuture<?> worker, String question) {
        try {
            CompletableFuture.anyOf(reached, worker).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException failed) {
            throw new AssertionError("the worker failed before reaching its checkpoint: " + failed.getCause(),
                    failed.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the worker never reached its checkpoint within " + PATIENCE_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the worker", e);
        }
        if (!reached.isDone()) {
            throw new AssertionError("the paused call finished (" + worker.join() + ") without reaching its "
                    + "checkpoint: " + question);
        }
    }

    public void release() {
        released.countDown();
    }
}
