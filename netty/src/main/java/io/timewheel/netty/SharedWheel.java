package io.timewheel.netty;

import io.timewheel.executor.WheelScheduledExecutorService;
import io.timewheel.executor.internal.queue.TaskEntry;
import io.timewheel.executor.internal.queue.TaskQueue;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;

import static java.util.concurrent.TimeUnit.DAYS;

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
     * A timeout goes into the executor's queue as its own entry (WheelTimeout is a TaskEntry), through
     * TaskQueue.addUncounted, not through schedule(): one object per timeout, not a timeout beside the
     * executor's task, and one count, its timer's, not the queue's as well (bench NettyScheduleCancelBenchmark
     * with -p timer=wheel-timer weighs each). What schedule() adds around the queue is STPE's shutdown
     * handling and starting workers, and what the queue's count decides is termination and the exit of
     * workers beyond the core; this executor is never shut down, and its one worker starts with the schedule
     * that finds its queue and, a core thread, never ends (a thread that dies is replaced, as
     * ThreadPoolExecutor replaces it). Its statistics (JFR's, or its MXBean under timewheel.jmx) count the
     * hand-offs, their lateness and its thread; the timeouts waiting are in no queued count but their timers'.
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

    /** The shared executor's queue, which WheelTimer puts its timeouts into (each its own entry). */
    static TaskQueue queue() {
        return Holder.QUEUE;
    }

    /** Whether the calling thread is the shared executor's hand-off thread. */
    static boolean isHandOffThread() {
        return Thread.currentThread() instanceof HandOffThread;
    }

    private static final class Holder {
        static final WheelScheduledExecutorService EXECUTOR = WheelScheduledExecutorService.builder()
                .corePoolSize(1)
                .threadFactory(new HandOffThreads())
                .name("timewheel-netty-timers")
                .build();
        static final TaskQueue QUEUE = queueOf(EXECUTOR);
    }

    /**
     * The executor's queue, which it keeps private: every entry names its queue (TaskEntry.queue), and a task
     * it schedules is its own entry. That first schedule also starts the hand-off thread, which the timeouts'
     * entries, put into the queue directly, do not.
     */
    private static TaskQueue queueOf(WheelScheduledExecutorService executor) {
        ScheduledFuture<?> first = executor.schedule(() -> { }, 1, DAYS);
        first.cancel(false);
        return ((TaskEntry) first).queue;
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
