package io.timewheel.executor.internal.queue;

import io.timewheel.executor.ManualClock;

import java.util.concurrent.RunnableScheduledFuture;

/**
 * For tests of the queue's parts on a manual clock: a TaskQueue that no executor and no tick thread serve,
 * whose entries the tests place in a ReadyQueue of their own.
 */
abstract class QueueTestBase {
    ManualClock clock;
    TaskQueue queue;

    /** A fresh clock at {@code startTime} and a queue on it ({@code threads}: unused, kept for symmetry). */
    void start(long startTime, int threads) {
        clock = new ManualClock(startTime);
        queue = newQueue(clock);
    }

    /** A queue whose executor answers nothing: the tests never run, re-arm or cancel its entries through it. */
    static TaskQueue newQueue(io.timewheel.executor.internal.NanoClock clock) {
        return new TaskQueue(clock, null, 1L << 22) {
            @Override
            protected long triggerTime(long delayNanos) {
                return clock.nanoTime() + delayNanos;
            }

            @Override
            protected boolean canRunInCurrentRunState(RunnableScheduledFuture<?> task) {
                return true;
            }

            @Override
            protected void reExecutePeriodic(TaskEntry task, boolean viaWorker) {
                throw new UnsupportedOperationException();
            }

            @Override
            protected void taskCancelled() {
            }

            @Override
            protected void periodicRunFailed() {
            }
        };
    }
}
