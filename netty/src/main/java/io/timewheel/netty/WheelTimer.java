package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.ImmediateExecutor;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.timewheel.executor.internal.queue.TaskQueue;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.atomic.LongAdder;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * A Netty {@link Timer} on timewheel's shared tick thread, in place of {@code io.netty.util.HashedWheelTimer}:
 * its timeouts wait in the JVM-wide timing wheel (exact deadlines, never early, O(1) cancel, after which the
 * wheel lets go of the task within about a millisecond, or at its deadline if that is less than about 3 ms away;
 * no ticking), and its tasks run one at a
 * time, in deadline order (FIFO for equal deadlines), on a thread from its own {@link ThreadFactory}, which is
 * started shortly (2 to 3 ms) before a task comes due and ends once none has come due for 500 ms, however many
 * timeouts the timer still holds. It keeps HashedWheelTimer's contract: the exceptions of
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
     * Two parts, so that a timer holds a thread only while it has tasks to run:
     *   - the timing: every WheelTimer of the JVM schedules its timeouts on one shared wheel executor
     *     (SharedWheel), whose tick thread keeps them in the wheel and whose one hand-off thread, LEAD_NANOS
     *     before each deadline, runs WheelTimeout.run: it queues the timeout on its timer's runner
     *     (dueOnHandOffThread);
     *   - the running: each timer's SerialRunner waits for each deadline and runs the timeouts one at a time, in
     *     deadline order, then in the order handed over (the executor's: creation), on a thread from the timer's
     *     factory that starts when one is handed over and ends KEEP_ALIVE_MILLIS after the last (OnTimerThread).
     *     So the tasks of one timer never run at the same time, a slow task delays only its own timer, and an
     *     idle timer holds no thread, whatever timeouts it holds.
     *
     * The lead: at a deadline, only the timer's own thread has to get a CPU; the hand-off happened before, off
     * the task's critical path, as the executor's tick thread hands tasks to its workers ahead of time. On a
     * loaded machine, two threads that must each be scheduled at the deadline make a tail of a scheduler's time
     * slice (bench netty-timers, lateness p99). The lead is short, so that a timeout cancelled within it, which
     * its runner holds until its deadline, is let go of soon, and so that the runner wakes for it at most once
     * more than at its deadline. Equal deadlines stay in creation order: two timeouts of one deadline reach the
     * hand-off thread in the executor's order for equal times, creation. A timeout's entry is due at its
     * deadline less the lead it is scheduled ahead by (the lead, or the whole delay if shorter), which it keeps
     * (WheelTimeout.due): one clock reading per timeout, the executor's. A timer with a task executor hands each
     * task over at its deadline, without a lead, since the task executor runs it at once.
     * A timer with a task executor (HashedWheelTimer's constructor argument) hands each expired task to it from
     * the hand-off thread, as HashedWheelTimer's worker does, and needs no runner thread.
     *
     * The take-ahead: an entry's deadline is a hand-over time, not its task's, so the hand-off thread may take
     * it up to TAKE_AHEAD_NANOS earlier, when it looks anyway (WheelTimeout.takeAheadNanos; the executor's ready
     * queue takes only its head so, and waits for the head's deadline, not before). Under a stream of timeouts
     * it then wakes once per take-ahead and hands over all that fall due within it, not once per timeout, and
     * leaves the CPU to the timers' threads (bench netty-timers, lateness p99, decides it); the order is still
     * the executor's, (entry deadline, creation), so deadline order holds however late the hand-off thread is.
     * So a timeout reaches its runner between LEAD_NANOS and LEAD_NANOS + TAKE_AHEAD_NANOS before its deadline
     * (one due sooner, at once). Rounding the entries' deadlines down to a grid instead wakes it as rarely, but
     * hands a grid step over in creation order, which runs a later deadline first when the hand-off thread is
     * later than the lead (WheelTimerTest.deadlinesCloseTogether_runInDeadlineOrder fails).
     *
     * Keep-alive: 500 ms is half the second in which an idle timer promises to hold no thread of its own,
     * leaving the other half for the runner's own timed wake-up to be late on a loaded machine; and long
     * enough that a timer whose timeouts come due every few hundred milliseconds (read and idle timeouts,
     * retries) keeps one thread rather than starting one per task.
     *
     * State: stopped (any thread, via CAS) is null while the timer runs; stop() sets it, once, to the queue
     * that collects the timeouts it returns, so that one volatile read answers "stopped?" and, when it is
     * stopped, where a timeout that never ran goes. newTimeout reads it before and after scheduling: a
     * timeout scheduled while stop() ran either ran, or was collected by stop(), or is withdrawn by newTimeout,
     * which then throws as after a stop.
     *
     * stop() collects the timer's timeouts neither expired nor cancelled from three places, each by the
     * timeout's one CAS out of INIT (WheelTimeout.withdraw), so each is collected once and none runs after:
     *   1. still queued in the shared executor: its getQueue() snapshot, filtered by timer (each timeout is
     *      its own entry there; a scan of every timer's pending timeouts, paid by stop() alone);
     *   2. taken by the hand-off thread and not yet handed over: stop() waits for a task due now to pass the
     *      hand-off thread, which takes due tasks in deadline order (unless stop() runs on that thread: a task
     *      executor that runs tasks inline);
     *   3. handed over to the runner: its thread, or stop() itself, collects them, and stop() interrupts a
     *      running task and waits for it, as HashedWheelTimer.stop() interrupts and joins its worker.
     *
     * Pending count: with a limit, an AtomicLong incremented by newTimeout before it schedules (HashedWheelTimer's
     * counter, which the limit needs exact); without one, a LongAdder (no cache line shared by producers).
     * Both are decremented by the CAS out of INIT, so the count is exact at once after a cancel. It is the one
     * count a timeout is in (the shared queue leaves timeouts out of its own: SharedWheel). One per-timer
     * counter for both the count and the entries' sequences would save the shared Sequencer's add but make
     * every producer of a timer write one cache line (NettyScheduleCancelBenchmark with -t 2 decides it).
     *
     * Cancellation callback (Netty 4.2's TimerTask.cancelled, absent from 4.1): called through a method
     * handle found at class initialization, for tasks whose class overrides it (OVERRIDES_CANCELLED), on the
     * timer's own thread as HashedWheelTimer's worker calls it (handed to the runner); one for a cancel after
     * stop() is dropped, as HashedWheelTimer drops it.
     */

    /** How long the timer's thread waits for another due task before it ends (see the notes). */
    static final long KEEP_ALIVE_MILLIS = 500;

    /** How far ahead of its deadline a timeout is handed to its timer's thread, at least: 2^21 ns = 2.1 ms (see the notes). */
    static final long LEAD_NANOS = 1L << 21;

    /** How much earlier still the hand-off thread may hand a timeout over: 2^20 ns = 1.05 ms (see the notes). */
    static final long TAKE_AHEAD_NANOS = 1L << 20;

    /** The longest delay, as the executor caps it (STPE's triggerTime): deadlines compare without overflow. */
    private static final long MAX_NANOS = (Long.MAX_VALUE >>> 1) - 1;

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
    private final Executor taskExecutor;
    /** Runs the due timeouts on the timer's own thread. Immutable. */
    private final SerialRunner runner;
    /** The pending-timeout limit, {@code <= 0} for none. Immutable. */
    private final long maxPendingTimeouts;
    /** The pending count when there is a limit, else null. Any thread, atomically. */
    private final AtomicLong limited;
    /** The pending count when there is no limit, else null. Any thread. */
    private final LongAdder unlimited;
    /** Null while running; once stopped, the timeouts stop() returns (see the notes). Any thread, via CAS. */
    private volatile Queue<Timeout> stopped;

    /** A timer with {@link Executors#defaultThreadFactory()} and no pending-timeout limit. */
    public WheelTimer() {
        this(Executors.defaultThreadFactory());
    }

    /**
     * A timer whose tasks run on threads from {@code threadFactory}, with no pending-timeout limit.
     *
     * @param threadFactory makes the threads that run this timer's tasks
     * @throws NullPointerException if {@code threadFactory} is null
     */
    public WheelTimer(ThreadFactory threadFactory) {
        this(threadFactory, -1);
    }

    /**
     * A timer whose tasks run on threads from {@code threadFactory}, which rejects a new timeout while
     * {@code maxPendingTimeouts} are pending ({@code <= 0}: no limit), as HashedWheelTimer does.
     *
     * @param threadFactory      makes the threads that run this timer's tasks
     * @param maxPendingTimeouts the most timeouts pending at once, {@code <= 0} for no limit
     * @throws NullPointerException if {@code threadFactory} is null
     */
    public WheelTimer(ThreadFactory threadFactory, long maxPendingTimeouts) {
        this(threadFactory, maxPendingTimeouts, ImmediateExecutor.INSTANCE);
    }

    /**
     * As {@link #WheelTimer(ThreadFactory, long)}, and every expired task is handed to {@code taskExecutor}, as
     * HashedWheelTimer does (a rejection is logged and the task dropped); {@link ImmediateExecutor} runs it on
     * the timer's own thread.
     *
     * @param threadFactory      makes the threads that run this timer's tasks
     * @param maxPendingTimeouts the most timeouts pending at once, {@code <= 0} for no limit
     * @param taskExecutor       runs the expired tasks
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
     * @param facade             what the timeouts' {@code timer()} returns
     * @param threadFactory      makes the threads that run this timer's tasks
     * @param maxPendingTimeouts the most timeouts pending at once, {@code <= 0} for no limit
     * @param taskExecutor       runs the expired tasks
     * @return the timer behind {@code facade}
     * @throws NullPointerException if any argument is null
     */
    public static WheelTimer behind(Timer facade, ThreadFactory threadFactory, long maxPendingTimeouts,
                                    Executor taskExecutor) {
        return new WheelTimer(Objects.requireNonNull(facade, "facade"), threadFactory, maxPendingTimeouts, taskExecutor);
    }

    private WheelTimer(Timer facade, ThreadFactory threadFactory, long maxPendingTimeouts, Executor taskExecutor) {
        Objects.requireNonNull(threadFactory, "threadFactory");
        Objects.requireNonNull(taskExecutor, "taskExecutor");
        this.facade = facade == null ? this : facade;
        this.logger = InternalLoggerFactory.getInstance(this.facade.getClass());
        this.taskExecutor = taskExecutor == ImmediateExecutor.INSTANCE ? null : taskExecutor;
        this.maxPendingTimeouts = maxPendingTimeouts;
        this.limited = maxPendingTimeouts > 0 ? new AtomicLong() : null;
        this.unlimited = maxPendingTimeouts > 0 ? null : new LongAdder();
        this.runner = new SerialRunner(threadFactory, MILLISECONDS.toNanos(KEEP_ALIVE_MILLIS), new OnTimerThread());
        SharedWheel.executor(); // the shared executor's failures (none expected) surface here, not in newTimeout
    }

    /**
     * Does nothing while the timer runs: a WheelTimer has no thread to start (its timeouts wait on the
     * shared tick thread, its tasks run on a thread started shortly before one comes due).
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
        AtomicLong count = limited;
        if (count != null) {
            long n = count.incrementAndGet();
            if (n > maxPendingTimeouts) {
                count.decrementAndGet();
                throw new RejectedExecutionException("Number of pending timeouts (" + n
                        + ") is greater than or equal to maximum allowed pending timeouts (" + maxPendingTimeouts + ")");
            }
        } else {
            unlimited.increment();
        }
        if (stopped != null) {
            leftPending();
            throw new IllegalStateException("cannot be started once stopped");
        }
        long nanos = Math.min(Math.max(unit.toNanos(delay), 0), MAX_NANOS);
        int lead = taskExecutor == null ? (int) Math.min(LEAD_NANOS, nanos) : 0;
        TaskQueue queue = SharedWheel.queue();
        long now = System.nanoTime(); // the shared executor's clock: it is built without a test clock
        WheelTimeout timeout = new WheelTimeout(queue, this, task, now + (nanos - lead), lead);
        queue.addUncounted(timeout, now);
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
        if (runner.isRunnerThread()) {
            throw new IllegalStateException(facade.getClass().getSimpleName() + ".stop() cannot be called from "
                    + TimerTask.class.getSimpleName());
        }
        Queue<Timeout> collected = new ConcurrentLinkedQueue<>();
        if (!STOPPED.compareAndSet(this, null, collected)) {
            return Collections.emptySet();
        }
        for (Runnable queued : SharedWheel.executor().getQueue().toArray(new Runnable[0])) { // 1 (see the notes)
            if (queued instanceof WheelTimeout && ((WheelTimeout) queued).timer == this
                    && ((WheelTimeout) queued).withdraw()) {
                collected.add((WheelTimeout) queued);
            }
        }
        boolean interrupted = false;
        if (!SharedWheel.isHandOffThread()) { // 2
            CountDownLatch passed = new CountDownLatch(1);
            SharedWheel.executor().execute(passed::countDown);
            for (;;) {
                try {
                    passed.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        interrupted |= runner.stop(); // 3
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return new HashSet<>(collected);
    }

    /**
     * The timeouts neither expired nor cancelled: exact at once after a {@code cancel()}, and 0 after
     * {@link #stop()}.
     *
     * @return the pending timeouts
     */
    public long pendingTimeouts() {
        AtomicLong count = limited;
        return count != null ? count.get() : Math.max(0L, unlimited.sum());
    }

    @Override
    public String toString() {
        return facade == this ? "WheelTimer@" + Integer.toHexString(hashCode())
                : "WheelTimer behind " + facade.getClass().getName();
    }

    // ---------------------------------------------------------------------------------------------
    // For WheelTimeout

    /** A timeout left the pending state (INIT to EXPIRED or CANCELLED). */
    void leftPending() {
        AtomicLong count = limited;
        if (count != null) {
            count.decrementAndGet();
        } else {
            unlimited.decrement();
        }
    }

    /** The lead before a timeout's deadline (at it, with a task executor), on the shared hand-off thread (see the notes). */
    void dueOnHandOffThread(WheelTimeout timeout) {
        Queue<Timeout> s = stopped;
        if (s != null) {
            if (timeout.withdraw()) {
                s.add(timeout);
            }
            return;
        }
        Executor executor = taskExecutor;
        if (executor == null) {
            runner.handOver(timeout);
            return;
        }
        if (!timeout.expire()) {
            return; // cancelled meanwhile
        }
        try {
            executor.execute(timeout::runTask);
        } catch (Throwable e) {
            if (logger.isWarnEnabled()) {
                logger.warn("An exception was thrown while submit " + TimerTask.class.getSimpleName()
                        + " for execution.", e);
            }
        }
    }

    /** After a successful cancel: Netty 4.2's TimerTask.cancelled, on the timer's thread (see the notes). */
    void cancelled(WheelTimeout timeout) {
        TimerTask task = timeout.task();
        if (CANCELLED == null || stopped != null || !OVERRIDES_CANCELLED.get(task.getClass())) {
            return;
        }
        runner.handOver(new CancelledCallback(timeout));
    }

    /** Netty 4.2's TimerTask.cancelled(timeout), run on the timer's thread. */
    private final class CancelledCallback implements Runnable {
        private final WheelTimeout timeout;
        /** When it was handed over: it runs after the timeouts due by then. Immutable. */
        final long handedOver = System.nanoTime();

        CancelledCallback(WheelTimeout timeout) {
            this.timeout = timeout;
        }

        @Override
        public void run() {
            try {
                CANCELLED.invokeExact(timeout.task(), (Timeout) timeout);
            } catch (Throwable t) {
                if (logger.isWarnEnabled()) {
                    logger.warn("An exception was thrown while process a cancellation task", t);
                }
            }
        }
    }

    /** What the runner's thread does with each item handed over (see the notes). */
    private final class OnTimerThread implements SerialRunner.Work {
        @Override
        public void run(Object item) {
            if (item instanceof WheelTimeout) {
                WheelTimeout timeout = (WheelTimeout) item;
                Queue<Timeout> s = stopped;
                if (s != null) {
                    if (timeout.withdraw()) {
                        s.add(timeout);
                    }
                } else if (timeout.expire()) {
                    timeout.runTask();
                }
            } else if (stopped == null) {
                ((Runnable) item).run(); // a cancellation callback; dropped after stop(), as HashedWheelTimer
            }
        }

        @Override
        public long deadline(Object item) {
            return item instanceof WheelTimeout ? ((WheelTimeout) item).due() : ((CancelledCallback) item).handedOver;
        }

        @Override
        public void noThread(Throwable why) {
            if (logger.isWarnEnabled()) {
                logger.warn("The thread factory of " + facade.getClass().getSimpleName()
                        + " gave no thread: its due tasks run on " + SharedWheel.THREAD_NAME, why);
            }
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

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<WheelTimer, Queue> STOPPED =
            AtomicReferenceFieldUpdater.newUpdater(WheelTimer.class, Queue.class, "stopped");
}
