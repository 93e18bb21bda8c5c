package io.timewheel.tck;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot latch that tasks wait on and the test opens. Any thread. Waits are bounded (a forgotten gate
 * fails the test instead of hanging it), and {@link ExecutorCleanup} opens every gate after each test.
 */
public final class Gate {
    static final long MAX_WAIT_SECONDS = 60;

    private final CountDownLatch latch = new CountDownLatch(1);

    public void open() {
        latch.countDown();
    }

    public boolean isOpen() {
        return latch.getCount() == 0;
    }

    /** Waits until opened; throws {@link InterruptedException} if the waiting thread is interrupted. */
    public void await() throws InterruptedException {
        if (!latch.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("gate not opened within " + MAX_WAIT_SECONDS + " s");
        }
    }

    /**
     * Waits until opened, ignoring interrupts while waiting; returns whether the thread was interrupted
     * meanwhile (and leaves its interrupt status set if so).
     */
    public boolean awaitUninterruptibly() {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_WAIT_SECONDS);
        while (true) {
            try {
                if (latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    break;
                }
                throw new AssertionError("gate not opened within " + MAX_WAIT_SECONDS + " s");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return interrupted;
    }
}
