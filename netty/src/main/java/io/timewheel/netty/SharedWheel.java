package io.timewheel.netty;

import io.timewheel.executor.WheelScheduledExecutorService;
import io.timewheel.wheel.TimerEntry;

import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ThreadFactory;

/**
 * The one wheel executor that every WheelTimer of a JVM (of a class loader, under the agent) schedules its
 * timeouts on: the JVM's shared tick thread keeps them, and one thread of its own, "timewheel-netty-timer",
 * hands each timeout to its timer's own thread (SerialRunner) shortly before its deadline. Any thread.
 */
final class SharedWheel {
    /*
     * Implementation notes
     *
     * The hand-off thread is the executor's one core thread, which never times out: with no timeout due within
     * the ready queue's near term it waits without a time limit, so a JVM whose timers are idle, however many
     * timeouts they hold, costs it no wake-up. It never runs a TimerTask: it runs WheelTimeout.run, which
     * queues the timeout on its timer's runner (or, for a timer with a task executor, hands the task to that
     * executor, as HashedWheelTimer's worker does). What it can run of an application's is a timer's thread
     * factory, when a runner starts a thread, and a task executor's execute: a slow one delays the hand-offs
     * of every timer (documented in the module's README).
     *
     * Created on first use (the holder class), never shut down: it belongs to no timer. A timer's stop() takes
     * its own timeouts out of it.
     */

    /** The hand-off thread's name. */
    static final String THREAD_NAME = "timewheel-netty-timer";

    private SharedWheel() {
    }

    /** The shared executor. */
    static WheelScheduledExecutorService executor() {
        return Holder.EXECUTOR;
    }

    /** Whether the calling thread is the shared executor's hand-off thread. */
    static boolean isHandOffThread() {
        return Thread.currentThread() instanceof HandOffThread;
    }

    private static final class Holder {
        static final WheelScheduledExecutorService EXECUTOR = new Shared(WheelScheduledExecutorService.builder()
                .corePoolSize(1)
                .threadFactory(new HandOffThreads())
                .name("timewheel-netty-timers"));
    }

    /** What is told when its executor entry is due, as it is scheduled: a WheelTimeout. */
    interface Scheduled {
        /** On the scheduling thread, before the entry is queued: the entry is due at {@code entryDeadline}. */
        void scheduled(long entryDeadline);
    }

    /**
     * The executor, which tells each Scheduled task when its entry is due as it schedules it (before the entry
     * is queued, on the producer's thread), so that a timeout's deadline costs no clock reading of its own and
     * is written before any other thread sees the timeout. The task it returns is the one it is given: the
     * executor's own entry, as without a decorator.
     */
    private static final class Shared extends WheelScheduledExecutorService {
        Shared(Builder builder) {
            super(builder);
        }

        @Override
        protected <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
            if (runnable instanceof Scheduled) {
                ((Scheduled) runnable).scheduled(((TimerEntry) task).deadline());
            }
            return task;
        }
    }

    /** The hand-off thread: a daemon (it must not keep a JVM alive), with no context class loader to pin. */
    private static final class HandOffThreads implements ThreadFactory {
        @Override
        public Thread newThread(Runnable r) {
            Thread t = new HandOffThread(r);
            t.setDaemon(true);
            t.setContextClassLoader(null);
            return t;
        }
    }

    private static final class HandOffThread extends Thread {
        HandOffThread(Runnable r) {
            super(null, r, THREAD_NAME, 0, false);
        }
    }
}
