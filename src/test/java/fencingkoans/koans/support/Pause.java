package fencingkoans.koans.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a worker thread at a checkpoint until the koan releases it. Latches, not sleeps: the order of events
 * is the same on every run. The timeout only turns a hang into a clear failure.
 */
public final class Pause {

    private static final long PATIENCE_SECONDS = 30;

    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** Called by the paused thread, at the checkpoint. */
    public void hold() {
        reached.countDown();
        await(released, "the koan never released the paused worker");
    }

    /** Waits until the worker is held at the checkpoint. */
    public void awaitReached() {
        await(reached, "the worker never reached its checkpoint");
    }

    public void release() {
        released.countDown();
    }

    private static void await(CountDownLatch latch, String failure) {
        try {
            if (!latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError(failure + " within " + PATIENCE_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(failure + ": interrupted", e);
        }
    }
}
