package io.timewheel.executor;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The tests' sync point with the tick thread: an urgent command answered after the tick thread has read
 * everything offered before it, read the clock and handed every task due at that time to its executor's
 * ready queue (TickThread.afterExpiry).
 */
final class Sync extends TickThread.Command {
    private final TaskQueue queue;
    private final CountDownLatch done = new CountDownLatch(1);
    /** Written by the tick thread before done.countDown(). */
    private int wheelSize;
    /** The tick of the executor's wheel the tick thread saw (0: none yet). Written before done.countDown(). */
    private long wheelTickNanos;
    /** The tick thread's pacer's yields so far. Written before done.countDown(). */
    private long pacerYields;

    Sync(TaskQueue queue) {
        super(true);
        this.queue = queue;
    }

    @Override
    void run(TickThread tick) {
        tick.afterExpiry(this);
    }

    @Override
    void afterExpiry(TickThread tick) {
        wheelSize = queue.wheel.size();
        wheelTickNanos = queue.wheel.tickNanos();
        pacerYields = tick.pacerYields();
        done.countDown();
    }

    /** Waits for the answer; returns the executor's wheel size the tick thread saw. */
    int await(long timeout, TimeUnit unit) throws InterruptedException {
        if (!done.await(timeout, unit)) {
            throw new IllegalStateException("tick thread did not answer within " + timeout + " " + unit);
        }
        return wheelSize;
    }

    /** After await: how often the tick thread's pacer had yielded by then. */
    long pacerYields() {
        return pacerYields;
    }

    /** After await: the tick of the executor's wheel, or 0 if the tick thread had none for it. */
    long wheelTickNanos() {
        return wheelTickNanos;
    }
}
