package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.ImmediateExecutor;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.timewheel.executor.WheelScheduledExecutorService;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * A Netty {@link Timer} on timewheel's shared tick thread, in place of {@code io.netty.util.HashedWheelTimer}:
 * its timeouts wait in the JVM-wide timing wheel (exact deadlines, never early, O(1) cancel that releases the
 * task at once, no ticking), and its tasks run one at a time, in deadline order (FIFO for equal deadlines), on
 * a thread from its own {@link ThreadFactory}, which ends once no task has come due for 500 ms (while
 * nothing is pending). It keeps HashedWheelTimer's contract: the exceptions of
 * {@link #newTimeout}, {@link #start()} and {@link #stop()}, the pending-timeout limit, the task executor,
 * and the logging of a task that throws (see the module's README for every difference).
 *
 * <p>Thread safety: every method may be called from any thread, except {@link #stop()} from a task of this
 * timer (IllegalStateException, as on HashedWheelTimer).
 */
public final class WheelTimer implements Timer {
    /*
     * Implementation notes
     *
     * One WheelScheduledExecutorService per timer, through its public API only: the shared tick thread (the
     * executor's default), a pool of one thread from the timer's factory, so that the tasks run one at a time
     * in the executor's (deadline, submission) order; allowCoreThreadTimeOut with a keep-alive of
     * KEEP_ALIVE_MILLIS; remove-on-cancel. A timeout is a WheelTimeout: the Runnable the executor runs, and
     * the Timeout the caller holds (its state machine and its future are there).
     *
     * Keep-alive: 500 ms is half the second in which an idle timer promises to hold no thread of its own,
     * which leaves the other half for the worker's own time-out wake-up to be late on a loaded machine; and
     * it is long enough that a timer whose timeouts come due every few hundred milliseconds (read and idle
     * timeouts, retries) keeps one thread rather than creating one per task. The pool applies
     * ThreadPoolExecutor's rule for the last worker: it stays while the queue holds a task, however far
     * ahead, waking once per keep-alive (README, "Differences").
     *
     * State: stopped (any thread, via CAS) is null while the timer runs; stop() sets it, once, to the queue
     * that collects the timeouts it returns, so that one volatile read answers "stopped?" and, when it is
     * stopped, where a timeout that never ran goes. newTimeout reads it before and after scheduling: a
     * timeout scheduled while stop() ran either ran, or was collected by stop(), or is withdrawn by
     * newTimeout, which then throws as after a stop.
     *
     * stop(), with the executor's public API only: the executor's futures are not our timeouts, and
     * shutdownNow() cancels without running them. So stop() shuts the executor down (queued delayed tasks
     * stay, STPE's default policy), then runs every future of a getQueue() snapshot itself: a WheelTimeout
     * run after the stop collects itself (INIT -> CANCELLED) instead of running its task, and so does one
     * that the worker takes meanwhile. Then shutdownNow() and awaitTermination in 100 ms steps, each
     * interrupting the worker again, as HashedWheelTimer.stop() interrupts and joins its worker until it
     * has ended.
     *
     * Pending count: with a limit, an AtomicLong incremented by newTimeout and decremented by each INIT ->
     * EXPIRED or INIT -> CANCELLED (HashedWheelTimer's counter, which the limit needs to be exact). Without
     * one, the executor's queue size (a striped count: nothing shared on the schedule and cancel paths),
     * minus the cancellation callbacks queued (below). A timeout a worker has taken but not yet started is
     * out of the queue and not yet expired: for that instant the count is one low.
     *
     * Cancellation callback (Netty 4.2's TimerTask.cancelled, absent from 4.1): called through a method
     * handle found at class initialization, for tasks whose class overrides it (OVERRIDES_CANCELLED), on
     * the timer's own thread as HashedWheelTimer's worker calls it, through the executor (a task due now,
     * after those already due). One queued when stop() begins is run by stop()'s own snapshot loop, on the
     * thread that calls stop(); one for a cancel after stop() is dropped, as HashedWheelTimer drops it.
     *
     * The worker: the factory wrapper records each thread it creates as it starts (worker), so that stop()
     * knows it is called from a task; the pool has one thread at a time, so the field names the only thread
     * that can be running this timer's tasks.
     */

    /** How long the timer's thread waits for a due task before it ends: 500 ms (see the notes). */
    static final long KEEP_ALIVE_MILLIS = 500;

    /** TimerTask.cancelled(Timeout) (Netty 4.2+), or null (4.1). Immutable. */
    private static final MethodHandle CANCELLED = cancelledHook();

    /** Whether a TimerTask class overrides TimerTask.cancelled (only asked when CANCELLED is not null). */
    private static final ClassValue<Boolean> OVERRIDES_CANCELLED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("cancelled", Timeout.class).getDeclaringClass() != TimerTask.class;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };

    /** What the timeouts' {@code timer()} returns: this, or the facade given to {@link #behind}. Immutable. */
    final Timer facade;
    /** Where a task that throws is reported: the logger named after the facade's class. Immutable. */
    final InternalLogger logger;
    /** The executor expired tasks are handed to, or null to run them on the timer's own thread. Immutable. */
    final Executor taskExecutor;
    /** The timing and the timer's own thread. Immutable. */
    private final WheelScheduledExecutorService executor;
    /** The user's thread factory. Immutable. */
    private final ThreadFactory threadFactory;
    /** The pending-timeout limit, {@code <= 0} for none. Immutable. */
    private final long maxPendingTimeouts;
    /** The pending count when there is a limit, else null. Any thread, atomically. */
    private final AtomicLong pending;
    /** Null while running; once stopped, the timeouts stop() returns (see the notes). Any thread, via CAS. */
    volatile Queue<Timeout> stopped;
    /** The thread that runs this timer's tasks now, or null. Written by that thread as it starts and ends. */
    private volatile Thread worker;
    /** Cancellation callbacks queued in the executor and not yet started. Any thread, via CAS. */
    private volatile int callbacksQueued;

    /** A timer with {@link Executors#defaultThreadFactory()} and no pending-timeout limit. */
    public WheelTimer() {
        this(Executors.defaultThreadFactory());
    }

    /**
     * A timer whose tasks run on threads from {@code threadFactory}, with no pending-timeout limit.
     *
     * @throws NullPointerException if {@code threadFactory} is null
     */
    public WheelTimer(ThreadFactory threadFactory) {
        this(threadFactory, -1);
    }

    /**
     * A timer whose tasks run on threads from {@code threadFactory}, which rejects a new timeout while
     * {@code maxPendingTimeouts} are pending ({@code <= 0}: no limit), as HashedWheelTimer does.
     *
     * @throws NullPointerException if {@code threadFactory} is null
     */
    public WheelTimer(ThreadFactory threadFactory, long maxPendingTimeouts) {
        this(threadFactory, maxPendingTimeouts, ImmediateExecutor.INSTANCE);
    }

    /**
     * As {@link #WheelTimer(ThreadFactory, long)}, and every expired task is handed to {@code taskExecutor}
     * by the timer's thread, as HashedWheelTimer does (a rejection is logged and the task dropped);
     * {@link ImmediateExecutor} runs it on the timer's own thread.
     *
     * @throws NullPointerException if {@code threadFactory} or {@code taskExecutor} is null
     */
    public WheelTimer(ThreadFactory threadFactory, long maxPendingTimeouts, Executor taskExecutor) {
        this(null, threadFactory, maxPendingTimeouts, taskExecutor);
    }

    /**
     * A timer for the agent's rewritten HashedWheelTimer: as {@link #WheelTimer(ThreadFactory, long, Executor)},
     * but its timeouts' {@link Timeout#timer()} returns {@code facade}, and the messages and the logger name
     * the facade's class.
     *
     * @throws NullPointerException if any argument is null
     */
    public static WheelTimer behind(Timer facade, ThreadFactory threadFactory, long maxPendingTimeouts,
                                    Executor taskExecutor) {
        return new WheelTimer(Objects.requireNonNull(facade, "facade"), threadFactory, maxPendingTimeouts, taskExecutor);
    }

    private WheelTimer(Timer facade, ThreadFactory threadFactory, long maxPendingTimeouts, Executor taskExecutor) {
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        Objects.requireNonNull(taskExecutor, "taskExecutor");
        this.facade = facade == null ? this : facade;
        this.logger = InternalLoggerFactory.getInstance(this.facade.getClass());
        this.taskExecutor = taskExecutor == ImmediateExecutor.INSTANCE ? null : taskExecutor;
        this.maxPendingTimeouts = maxPendingTimeouts;
        this.pending = maxPendingTimeouts > 0 ? new AtomicLong() : null;
        WheelScheduledExecutorService e = WheelScheduledExecutorService.builder()
                .corePoolSize(1)
                .threadFactory(new OwnThreads())
                .name(this.facade.getClass().getSimpleName() + "@" + Integer.toHexString(System.identityHashCode(this)))
                .build();
        e.setRemoveOnCancelPolicy(true);
        e.setKeepAliveTime(KEEP_ALIVE_MILLIS, MILLISECONDS);
        e.allowCoreThreadTimeOut(true);
        this.executor = e;
    }

    /**
     * Does nothing while the timer runs: a WheelTimer has no thread to start (its timeouts wait on the
     * shared tick thread, its tasks run on a thread started when one comes due).
     *
     * @throws IllegalStateException if the timer has been stopped, as HashedWheelTimer
     */
    public void start() {
        if (stopped != null) {
            throw new IllegalStateException("cannot be started once stopped");
        }
    }

    /**
     * Schedules {@code task} to run once, on the timer's thread (or its task executor), {@code delay} after now,
     * never earlier; a delay {@code <= 0} means now.
     *
     * @throws NullPointerException       if {@code task} or {@code unit} is null
     * @throws RejectedExecutionException if the pending-timeout limit would be exceeded
     * @throws IllegalStateException      if the timer has been stopped
     */
    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        if (unit == null) {
            throw new NullPointerException("unit");
        }
        AtomicLong count = pending;
        if (count != null) {
            long n = count.incrementAndGet();
            if (n > maxPendingTimeouts) {
                count.decrementAndGet();
                throw new RejectedExecutionException("Number of pending timeouts (" + n
                        + ") is greater than or equal to maximum allowed pending timeouts (" + maxPendingTimeouts + ")");
            }
        }
        if (stopped != null) {
            leftPending();
            throw new IllegalStateException("cannot be started once stopped");
        }
        WheelTimeout timeout = new WheelTimeout(this, task);
        try {
            timeout.future = executor.schedule(timeout, delay, unit);
        } catch (RejectedExecutionException shutDown) { // stop() shut the executor down since the check above
            leftPending();
            throw new IllegalStateException("cannot be started once stopped");
        }
        if (stopped != null && timeout.withdraw()) { // stop() began meanwhile and has not collected it
            throw new IllegalStateException("cannot be started once stopped");
        }
        return timeout;
    }

    /**
     * Stops the timer: waits for a running task to end (interrupting its thread, as HashedWheelTimer does) and
     * returns the timeouts that were neither expired nor cancelled, each now cancelled. A second call returns
     * an empty set.
     *
     * @throws IllegalStateException if called from a task of this timer
     */
    @Override
    public Set<Timeout> stop() {
        if (Thread.currentThread() == worker) {
            throw new IllegalStateException(facade.getClass().getSimpleName() + ".stop() cannot be called from "
                    + TimerTask.class.getSimpleName());
        }
        Queue<Timeout> collected = new ConcurrentLinkedQueue<>();
        if (!STOPPED.compareAndSet(this, null, collected)) {
            return Collections.emptySet();
        }
        executor.shutdown();
        for (Runnable queued : executor.getQueue().toArray(new Runnable[0])) {
            queued.run(); // a WheelTimeout collects itself into `collected` (see the notes)
        }
        boolean interrupted = false;
        do {
            executor.shutdownNow();
            try {
                executor.awaitTermination(100, MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        } while (!executor.isTerminated());
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return new HashSet<>(collected);
    }

    /**
     * The timeouts neither expired nor cancelled: exact at once after a {@code cancel()}, and 0 after
     * {@link #stop()}. Without a pending-timeout limit it is read from the executor's striped queue count,
     * which may be one low while a due task passes from the queue to the timer's thread.
     */
    public long pendingTimeouts() {
        AtomicLong count = pending;
        if (count != null) {
            return count.get();
        }
        return Math.max(0, executor.getQueue().size() - callbacksQueued);
    }

    @Override
    public String toString() {
        return facade == this ? "WheelTimer(" + executor + ")" : "WheelTimer behind " + facade.getClass().getName();
    }

    // ---------------------------------------------------------------------------------------------
    // For WheelTimeout

    /** A timeout left the pending state (INIT to EXPIRED or CANCELLED). */
    void leftPending() {
        AtomicLong count = pending;
        if (count != null) {
            count.decrementAndGet();
        }
    }

    /** After a successful cancel: Netty 4.2's TimerTask.cancelled, on the timer's thread (see the notes). */
    void cancelled(WheelTimeout timeout) {
        TimerTask task = timeout.task();
        if (CANCELLED == null || !OVERRIDES_CANCELLED.get(task.getClass())) {
            return;
        }
        CALLBACKS.incrementAndGet(this);
        try {
            executor.execute(() -> {
                CALLBACKS.decrementAndGet(this);
                try {
                    CANCELLED.invokeExact(task, (Timeout) timeout);
                } catch (Throwable t) {
                    if (logger.isWarnEnabled()) {
                        logger.warn("An exception was thrown while process a cancellation task", t);
                    }
                }
            });
        } catch (RejectedExecutionException stoppedMeanwhile) {
            CALLBACKS.decrementAndGet(this);
        }
    }

    private static MethodHandle cancelledHook() {
        try {
            return MethodHandles.publicLookup().findVirtual(TimerTask.class, "cancelled",
                    MethodType.methodType(void.class, Timeout.class));
        } catch (NoSuchMethodException | IllegalAccessException netty41) {
            return null;
        }
    }

    /** The timer's thread factory, recording the thread that serves the timer (see the notes). */
    private final class OwnThreads implements ThreadFactory {
        @Override
        public Thread newThread(Runnable r) {
            return threadFactory.newThread(() -> {
                Thread self = Thread.currentThread();
                worker = self;
                try {
                    r.run();
                } finally {
                    WORKER.compareAndSet(WheelTimer.this, self, null);
                }
            });
        }
    }

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<WheelTimer, Queue> STOPPED =
            AtomicReferenceFieldUpdater.newUpdater(WheelTimer.class, Queue.class, "stopped");
    private static final AtomicReferenceFieldUpdater<WheelTimer, Thread> WORKER =
            AtomicReferenceFieldUpdater.newUpdater(WheelTimer.class, Thread.class, "worker");
    private static final AtomicIntegerFieldUpdater<WheelTimer> CALLBACKS =
            AtomicIntegerFieldUpdater.newUpdater(WheelTimer.class, "callbacksQueued");
}
