package io.timewheel.executor;

import io.timewheel.wheel.TimerWheel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * A {@link ScheduledThreadPoolExecutor} that keeps its delayed tasks in a hashed hierarchical timing wheel:
 * schedule and cancel are O(1) and lock-free, cancelled tasks are reclaimed at once whatever the
 * remove-on-cancel policy, and the contract is STPE's, all of it: every constructor, method, exception,
 * policy and hook behaves as STPE documents (see the README for the known differences).
 *
 * <p>Thread safety: every public method may be called from any thread, as on STPE.
 *
 * <pre>
 * Implementation notes
 *
 * It extends STPE so that every cast, instanceof and STPE-specific call keeps working, but it never uses
 * STPE's queue or workers: every public method is overridden. The inherited fields serve only as storage
 * for the configuration (core size, keep-alive, policies, factory, handler), set through the inherited
 * setters so that their argument checks and exceptions are exactly STPE's; those setters only poke at
 * STPE's own (empty, idle) machinery, which never starts a thread.
 *
 * Engine:
 *   tick thread   owns this executor's TimerWheel (field wheel: tick thread only); see TickThread.
 *   ready         the due tasks, a heap under its own lock; workers block on it.
 *   workers       our own pool, with ThreadPoolExecutor's semantics: ctl packs the run state and the
 *                 worker count; workers, largestPoolSize, completedTaskCount are guarded by mainLock.
 *   queued        how many tasks are in the queue (inbox + wheel + ready), counted by whoever puts a task
 *                 into the QUEUED state and uncounted by whoever takes it out (see QueuedTask); it is
 *                 what "the queue is empty" means for termination and for the workers' exit rule.
 * A task with a future deadline goes to the tick thread's inbox; one that is already due goes straight
 * to ready. When it falls due, the tick thread moves it to ready and signals a worker.
 *
 * Run state (ctl high bits): RUNNING -&gt; SHUTDOWN -&gt; STOP -&gt; TIDYING -&gt; TERMINATED, as in
 * ThreadPoolExecutor; SHUTDOWN may go straight to TIDYING, terminated() runs once, in TIDYING.
 * </pre>
 */
public class WheelScheduledExecutorService extends ScheduledThreadPoolExecutor {

    /** Delays are capped at 2^62 ns (146 years), as the JDK does, so deadline differences never overflow. */
    private static final long MAX_NANOS = (Long.MAX_VALUE >>> 1) - 1;

    // ctl: run state in the high 3 bits, worker count in the low 29
    private static final int COUNT_BITS = Integer.SIZE - 3;
    private static final int COUNT_MASK = (1 << COUNT_BITS) - 1;
    private static final int RUNNING = -1 << COUNT_BITS;
    private static final int SHUTDOWN = 0;
    private static final int STOP = 1 << COUNT_BITS;
    private static final int TIDYING = 2 << COUNT_BITS;
    private static final int TERMINATED = 3 << COUNT_BITS;

    /** Run state and worker count. Any thread, via CAS. */
    private final AtomicInteger ctl = new AtomicInteger(RUNNING);
    private final ReentrantLock mainLock = new ReentrantLock();
    private final Condition termination = mainLock.newCondition();
    /** Guarded by mainLock. */
    private final HashSet<Worker> workers = new HashSet<>();
    /** Guarded by mainLock. */
    private int largestPoolSize;
    /** Tasks completed by workers that have exited. Guarded by mainLock. */
    private long completedTaskCount;

    /** Tasks in the queue. Any thread; see the notes. */
    private final AtomicLong queued = new AtomicLong();
    /**
     * A time at or before the deadline of every task of ours that the tick thread holds (inbox or wheel)
     * and has not handed over. Producers lower it (CAS) after offering; the tick thread raises it after
     * each hand-over, by CAS from the value it read before draining. A task due within the lead skips the
     * wheel only if it is due strictly before this: so a task never overtakes an earlier or equal one
     * that a late tick thread still holds.
     */
    private volatile long pendingEarliest;
    /** The value of pendingEarliest the tick thread read before its last drain. Tick thread only. */
    long pendingEarliestSeen;
    final ReadyQueue ready;
    private final QueueView queueView = new QueueView(this);

    final NanoClock clock;
    final long tickNanos;
    private final TickThread tick;
    /** This executor's wheel. Tick thread only. */
    TimerWheel<QueuedTask> wheel;

    /**
     * Creates an executor with the given core pool size, as {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int)}.
     *
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     */
    public WheelScheduledExecutorService(int corePoolSize) {
        this(corePoolSize, Executors.defaultThreadFactory(), new AbortPolicy(), builder());
    }

    /**
     * As {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int, ThreadFactory)}.
     *
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     * @throws NullPointerException     if {@code threadFactory} is null
     */
    public WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory) {
        this(corePoolSize, threadFactory, new AbortPolicy(), builder());
    }

    /**
     * As {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int, RejectedExecutionHandler)}.
     *
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     * @throws NullPointerException     if {@code handler} is null
     */
    public WheelScheduledExecutorService(int corePoolSize, RejectedExecutionHandler handler) {
        this(corePoolSize, Executors.defaultThreadFactory(), handler, builder());
    }

    /**
     * As {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int, ThreadFactory, RejectedExecutionHandler)}.
     *
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     * @throws NullPointerException     if {@code threadFactory} or {@code handler} is null
     */
    public WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory,
                                         RejectedExecutionHandler handler) {
        this(corePoolSize, threadFactory, handler, builder());
    }

    /** For subclasses that want the wheel options: {@code super(builder().corePoolSize(4).tickNanos(..))}. */
    protected WheelScheduledExecutorService(Builder builder) {
        this(builder.corePoolSize, builder.threadFactory, builder.handler, builder);
    }

    /** The arguments go to STPE's constructor untouched, so bad ones fail there, in STPE's order. */
    private WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory,
                                          RejectedExecutionHandler handler, Builder options) {
        super(corePoolSize, threadFactory, handler);
        this.clock = options.clock;
        this.ready = new ReadyQueue(options.clock);
        this.pendingEarliest = options.clock.nanoTime() + Long.MAX_VALUE;
        this.tickNanos = options.tickNanos;
        this.tick = options.dedicatedTickThread || options.clock != NanoClock.SYSTEM
                ? TickThread.dedicated(this, options.clock)
                : TickThread.shared();
    }

    /** A builder for an executor with wheel options. */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a {@link WheelScheduledExecutorService}. Not thread safe. */
    public static final class Builder {
        private int corePoolSize = 1;
        private ThreadFactory threadFactory = Executors.defaultThreadFactory();
        private RejectedExecutionHandler handler = new AbortPolicy();
        private long tickNanos = defaultTickNanos();
        private boolean dedicatedTickThread;
        private NanoClock clock = NanoClock.SYSTEM;

        Builder() {
        }

        /** The core pool size (default 1). Checked by the executor's constructor: negative is an IllegalArgumentException. */
        public Builder corePoolSize(int corePoolSize) {
            this.corePoolSize = corePoolSize;
            return this;
        }

        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        public Builder rejectedExecutionHandler(RejectedExecutionHandler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * The wheel's tick: a power of two nanoseconds from 1 to 2^36 (default 2^20 ns = 1.05 ms, or the
         * system property {@code timewheel.tickNanos}). Deadlines stay exact whatever the tick: it only
         * trades the wheel's bookkeeping against how many timers share a slot.
         */
        public Builder tickNanos(long tickNanos) {
            this.tickNanos = checkTick(tickNanos);
            return this;
        }

        private static long checkTick(long tickNanos) {
            if (tickNanos <= 0 || tickNanos > TimerWheel.MAX_TICK_NANOS || Long.bitCount(tickNanos) != 1) {
                throw new IllegalArgumentException("tickNanos must be a power of two in [1, 2^36]: " + tickNanos);
            }
            return tickNanos;
        }

        /**
         * Whether this executor gets a tick thread of its own (which ends when the executor terminates)
         * instead of sharing the JVM-wide one (default false).
         */
        public Builder dedicatedTickThread(boolean dedicated) {
            this.dedicatedTickThread = dedicated;
            return this;
        }

        /** Test hook: the time source (implies a dedicated tick thread). */
        Builder clock(NanoClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public WheelScheduledExecutorService build() {
            return new WheelScheduledExecutorService(this);
        }

        private static long defaultTickNanos() {
            String value = System.getProperty("timewheel.tickNanos");
            if (value != null) {
                try {
                    return checkTick(Long.parseLong(value.trim()));
                } catch (RuntimeException e) {
                    System.getLogger("io.timewheel").log(System.Logger.Level.WARNING,
                            "ignoring timewheel.tickNanos=" + value + ": " + e.getMessage());
                }
            }
            return TimerWheel.DEFAULT_TICK_NANOS;
        }
    }

    // =============================================================================================
    // Scheduling

    long nanoTime() {
        return clock.nanoTime();
    }

    long triggerTime(long delayNanos) {
        return clock.nanoTime() + Math.min(delayNanos, MAX_NANOS);
    }

    private static long delayNanos(long delay, TimeUnit unit) {
        return Math.min(unit.toNanos(delay < 0 ? 0 : delay), MAX_NANOS);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        long now = clock.nanoTime();
        ScheduledTask<Void> task = new ScheduledTask<>(this, command, now + delayNanos(delay, unit));
        RunnableScheduledFuture<Void> decorated = decorateTask(command, task);
        delayedExecute(decorated, task, now);
        return decorated;
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        if (callable == null || unit == null) {
            throw new NullPointerException();
        }
        long now = clock.nanoTime();
        ScheduledTask<V> task = new ScheduledTask<>(this, callable, now + delayNanos(delay, unit));
        RunnableScheduledFuture<V> decorated = decorateTask(callable, task);
        delayedExecute(decorated, task, now);
        return decorated;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        if (period <= 0L) {
            throw new IllegalArgumentException();
        }
        return schedulePeriodic(command, initialDelay, unit, unit.toNanos(period));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        if (delay <= 0L) {
            throw new IllegalArgumentException();
        }
        return schedulePeriodic(command, initialDelay, unit, -unit.toNanos(delay));
    }

    private ScheduledFuture<?> schedulePeriodic(Runnable command, long initialDelay, TimeUnit unit, long period) {
        long now = clock.nanoTime();
        PeriodicTask<Void> task = new PeriodicTask<>(this, command, now + delayNanos(initialDelay, unit), period);
        RunnableScheduledFuture<Void> decorated = decorateTask(command, task);
        task.outerTask = decorated;
        delayedExecute(decorated, task, now);
        return decorated;
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, NANOSECONDS);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return schedule(task, 0, NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return schedule(Executors.callable(task, result), 0, NANOSECONDS);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return schedule(task, 0, NANOSECONDS);
    }

    /** STPE's delayedExecute: reject after shutdown, else enqueue, then re-check against a racing shutdown. */
    private void delayedExecute(RunnableScheduledFuture<?> task, ScheduledTask<?> inner, long now) {
        if (isShutdown()) {
            reject(task);
            return;
        }
        QueuedTask entry = enqueue(task, inner, now);
        if (!canRunInCurrentRunState(task) && removeEntry(entry)) {
            task.cancel(false);
            tryTerminate(); // as STPE's remove(task): a racing shutdown may be waiting for this task to go
        } else {
            ensurePrestart();
        }
    }

    /** Puts a task into the queue: its own entry if it is ours, else a holder for the decorated object. */
    private QueuedTask enqueue(RunnableScheduledFuture<?> task, ScheduledTask<?> inner, long now) {
        if (task == null) {
            throw new NullPointerException(); // decorateTask returned null: STPE's queue refuses it too
        }
        QueuedTask entry;
        queued.incrementAndGet();
        if (task == inner) {
            inner.markQueued();
            entry = inner;
        } else {
            entry = foreign(task);
        }
        dispatch(entry, now);
        return entry;
    }

    private ForeignTask foreign(RunnableScheduledFuture<?> task) {
        return new ForeignTask(this, task, triggerTime(Math.max(0L, task.getDelay(NANOSECONDS))));
    }

    /**
     * Sends a queued entry where it waits: the ready queue if due within the lead at {@code now} (the
     * workers make the last, exact wait), else the tick thread.
     */
    private void dispatch(QueuedTask entry, long now) {
        long deadline = entry.nextDeadline();
        if (deadline - now <= ReadyQueue.LEAD_NANOS && deadline - pendingEarliest < 0) {
            entry.refreshDeadline();
            ready.push(entry);
        } else {
            // Later than the lead, or the tick thread still holds an earlier or equal deadline of ours
            // (it is running late): it must hand that one over first, so this one goes through it too.
            tick.schedule(entry);
            lowerPendingEarliest(deadline);
        }
    }

    /** After an entry was offered to the tick thread: keeps pendingEarliest a lower bound. Any thread. */
    private void lowerPendingEarliest(long deadline) {
        for (long seen = pendingEarliest; deadline - seen < 0; seen = pendingEarliest) {
            if (PENDING_EARLIEST.compareAndSet(this, seen, deadline)) {
                return;
            }
        }
    }

    /** Tick thread: reads pendingEarliest before it drains the inbox. */
    long pendingEarliestBeforeDrain() {
        return pendingEarliest;
    }

    /**
     * Tick thread, after handing over what is due: publishes its wheel's next deadline, unless a producer
     * lowered the bound since {@code seen} was read (then the lower value stays, which is conservative).
     */
    void publishPendingEarliest(long seen, long nextDeadline) {
        PENDING_EARLIEST.compareAndSet(this, seen, nextDeadline);
    }

    /** After a periodic run: STPE's reExecutePeriodic. {@code viaWorker}: taken off the queue by a worker. */
    void reExecutePeriodic(PeriodicTask<?> task, boolean viaWorker) {
        RunnableScheduledFuture<?> outer = task.outerTask;
        if (canRunInCurrentRunState(outer)) {
            QueuedTask entry;
            queued.incrementAndGet();
            if (outer == task) {
                if (!task.rearm(true)) {
                    queued.decrementAndGet(); // cancelled while running: nothing to re-queue
                    return;
                }
                entry = task;
                if (viaWorker) {
                    dispatch(entry, clock.nanoTime());
                } else {
                    tick.command(new TickThread.Refile(entry)); // it may still be in the inbox or the wheel
                    lowerPendingEarliest(task.nextDeadline());
                }
            } else {
                if (!task.rearm(false)) {
                    queued.decrementAndGet();
                    return;
                }
                entry = foreign(outer);
                dispatch(entry, clock.nanoTime());
            }
            if (canRunInCurrentRunState(outer) || !removeEntry(entry)) {
                ensurePrestart();
                return;
            }
            tryTerminate();
        }
        outer.cancel(false);
    }

    /** STPE's canRunInCurrentRunState. */
    boolean canRunInCurrentRunState(RunnableScheduledFuture<?> task) {
        int c = ctl.get();
        if (isRunning(c)) {
            return true;
        }
        if (runStateAtLeast(c, STOP)) {
            return false;
        }
        return task.isPeriodic()
                ? getContinueExistingPeriodicTasksAfterShutdownPolicy()
                : (getExecuteExistingDelayedTasksAfterShutdownPolicy() || task.getDelay(NANOSECONDS) <= 0);
    }

    private void reject(RunnableScheduledFuture<?> task) {
        getRejectedExecutionHandler().rejectedExecution(task, this);
    }

    /** Counts an entry out of the queue. Called by whoever took it out of QUEUED. */
    void dequeued() {
        queued.decrementAndGet();
    }

    /**
     * A queued task of ours was cancelled: if the tick thread had filed it, its memory goes now, not at its
     * deadline, whatever the remove-on-cancel policy.
     */
    void cancelled(QueuedTask task, boolean wasFiled) {
        if (wasFiled) {
            unlink(task);
        }
        if (!isRunning(ctl.get())) {
            tryTerminate();
        }
    }

    /** Asks the tick thread to drop an entry that left the queue from the wheel. */
    private void unlink(QueuedTask entry) {
        tick.command(new TickThread.Unlink(entry));
    }

    /** Takes an entry out of the queue without running it. */
    boolean removeEntry(QueuedTask entry) {
        int removed = entry.tryRemove();
        if (removed == QueuedTask.REMOVED_FILED) {
            unlink(entry);
        }
        return removed != QueuedTask.NOT_REMOVED;
    }

    // =============================================================================================
    // The queue

    TickThread tickThread() {
        return tick;
    }

    long queuedCount() {
        return queued.get();
    }

    /** The queued entries, at one instant of the tick thread, earliest deadline first. */
    List<QueuedTask> snapshot() {
        if (queued.get() <= 0) {
            return new ArrayList<>();
        }
        TickThread.Snapshot request = new TickThread.Snapshot(this, false);
        tick.command(request);
        return request.await(tick);
    }

    /** Takes every queued entry out of the queue, earliest deadline first. */
    private List<QueuedTask> drainQueue() {
        if (queued.get() <= 0) {
            return new ArrayList<>();
        }
        TickThread.Snapshot request = new TickThread.Snapshot(this, true);
        tick.command(request);
        return request.await(tick);
    }

    /** STPE's queue semantics for remove(Object): our own task by identity, anything else by equals. */
    boolean removeFromQueue(Object o) {
        if (o == null) {
            return false;
        }
        if (o instanceof QueuedTask && ((QueuedTask) o).owner == this) {
            return removeEntry((QueuedTask) o);
        }
        for (QueuedTask entry : snapshot()) {
            if (entry instanceof ForeignTask && o.equals(entry.task()) && removeEntry(entry)) {
                return true;
            }
        }
        return false;
    }

    boolean queueContains(Object o) {
        if (o instanceof QueuedTask && ((QueuedTask) o).owner == this) {
            return ((QueuedTask) o).isQueued();
        }
        if (o == null) {
            return false;
        }
        for (QueuedTask entry : snapshot()) {
            if (o.equals(entry.task())) {
                return true;
            }
        }
        return false;
    }

    /** Adds a foreign scheduled future offered through {@code getQueue()}, as STPE's queue would. */
    void offerToQueue(RunnableScheduledFuture<?> task) {
        queued.incrementAndGet();
        dispatch(foreign(task), clock.nanoTime());
    }

    /**
     * Returns the task queue: a live view of every task not yet started, delayed and due. Its size is
     * exact and O(1); contains is O(1) for the executor's own tasks; iteration and toArray work on a
     * snapshot taken by the tick thread; remove takes a task out of the queue as {@link #remove} does.
     */
    @Override
    public BlockingQueue<Runnable> getQueue() {
        return queueView;
    }

    @Override
    public boolean remove(Runnable task) {
        boolean removed = removeFromQueue(task);
        tryTerminate();
        return removed;
    }

    @Override
    public void purge() {
        for (QueuedTask entry : snapshot()) {
            Runnable r = entry.task();
            if (r instanceof Future<?> && ((Future<?>) r).isCancelled()) {
                removeEntry(entry);
            }
        }
        tryTerminate();
    }

    // =============================================================================================
    // Policies

    @Override
    public void setContinueExistingPeriodicTasksAfterShutdownPolicy(boolean value) {
        super.setContinueExistingPeriodicTasksAfterShutdownPolicy(value);
        if (!value && isShutdown()) {
            onShutdown();
        }
    }

    @Override
    public boolean getContinueExistingPeriodicTasksAfterShutdownPolicy() {
        return super.getContinueExistingPeriodicTasksAfterShutdownPolicy();
    }

    @Override
    public void setExecuteExistingDelayedTasksAfterShutdownPolicy(boolean value) {
        super.setExecuteExistingDelayedTasksAfterShutdownPolicy(value);
        if (!value && isShutdown()) {
            onShutdown();
        }
    }

    @Override
    public boolean getExecuteExistingDelayedTasksAfterShutdownPolicy() {
        return super.getExecuteExistingDelayedTasksAfterShutdownPolicy();
    }

    /**
     * Sets whether a cancelled task is removed from the queue at once. Either way this executor drops a
     * cancelled task from its wheel at once (the JDK keeps it until its delay elapses when false).
     */
    @Override
    public void setRemoveOnCancelPolicy(boolean value) {
        super.setRemoveOnCancelPolicy(value);
    }

    @Override
    public boolean getRemoveOnCancelPolicy() {
        return super.getRemoveOnCancelPolicy();
    }

    /** STPE's onShutdown: cancels the queued tasks the shutdown policies do not keep. */
    private void onShutdown() {
        boolean keepDelayed = getExecuteExistingDelayedTasksAfterShutdownPolicy();
        boolean keepPeriodic = getContinueExistingPeriodicTasksAfterShutdownPolicy();
        for (QueuedTask entry : snapshot()) {
            Runnable r = entry.task();
            if (!(r instanceof RunnableScheduledFuture)) {
                continue;
            }
            RunnableScheduledFuture<?> t = (RunnableScheduledFuture<?>) r;
            if ((t.isPeriodic() ? !keepPeriodic : (!keepDelayed && t.getDelay(NANOSECONDS) > 0)) || t.isCancelled()) {
                if (removeEntry(entry)) {
                    t.cancel(false);
                }
            }
        }
        tryTerminate();
    }

    // =============================================================================================
    // Lifecycle

    private static int runStateOf(int c) {
        return c & ~COUNT_MASK;
    }

    private static int workerCountOf(int c) {
        return c & COUNT_MASK;
    }

    private static int ctlOf(int runState, int workerCount) {
        return runState | workerCount;
    }

    private static boolean runStateLessThan(int c, int s) {
        return c < s;
    }

    private static boolean runStateAtLeast(int c, int s) {
        return c >= s;
    }

    private static boolean isRunning(int c) {
        return c < SHUTDOWN;
    }

    private void advanceRunState(int targetState) {
        for (;;) {
            int c = ctl.get();
            if (runStateAtLeast(c, targetState) || ctl.compareAndSet(c, ctlOf(targetState, workerCountOf(c)))) {
                break;
            }
        }
    }

    @Override
    public void shutdown() {
        mainLock.lock();
        try {
            advanceRunState(SHUTDOWN);
            interruptIdleWorkers(false);
        } finally {
            mainLock.unlock();
        }
        onShutdown();
        tryTerminate();
    }

    @Override
    public List<Runnable> shutdownNow() {
        mainLock.lock();
        try {
            advanceRunState(STOP);
            interruptWorkers();
        } finally {
            mainLock.unlock();
        }
        List<Runnable> tasks = new ArrayList<>();
        for (QueuedTask entry : drainQueue()) {
            tasks.add(entry.task());
        }
        tryTerminate();
        return tasks;
    }

    @Override
    public boolean isShutdown() {
        return runStateAtLeast(ctl.get(), SHUTDOWN);
    }

    @Override
    public boolean isTerminating() {
        int c = ctl.get();
        return runStateAtLeast(c, SHUTDOWN) && runStateLessThan(c, TERMINATED);
    }

    @Override
    public boolean isTerminated() {
        return runStateAtLeast(ctl.get(), TERMINATED);
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        mainLock.lock();
        try {
            while (runStateLessThan(ctl.get(), TERMINATED)) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = termination.awaitNanos(nanos);
            }
            return true;
        } finally {
            mainLock.unlock();
        }
    }

    /** Moves to TERMINATED if SHUTDOWN with an empty queue, or STOP, and no worker is left. */
    private void tryTerminate() {
        for (;;) {
            int c = ctl.get();
            if (isRunning(c) || runStateAtLeast(c, TIDYING)
                    || (runStateLessThan(c, STOP) && queued.get() > 0)) {
                return;
            }
            if (workerCountOf(c) != 0) {
                interruptIdleWorkers(true); // let the exit propagate from worker to worker
                return;
            }
            mainLock.lock();
            try {
                if (ctl.compareAndSet(c, ctlOf(TIDYING, 0))) {
                    try {
                        terminated();
                    } finally {
                        ctl.set(ctlOf(TERMINATED, 0));
                        termination.signalAll();
                        tick.wakeUp();
                    }
                    return;
                }
            } finally {
                mainLock.unlock();
            }
        }
    }

    // =============================================================================================
    // Workers

    /** A pool thread. Its lock is held while it runs a task, so idle workers are those whose lock is free. */
    private final class Worker extends AbstractQueuedSynchronizer implements Runnable {
        private static final long serialVersionUID = 1L;

        final transient Thread thread;
        /** Guarded by the worker's own lock (written by its thread while it holds it). */
        volatile long completedTasks;

        Worker() {
            setState(-1); // no interrupts until the thread runs
            this.thread = getThreadFactory().newThread(this);
        }

        @Override
        public void run() {
            runWorker(this);
        }

        @Override
        protected boolean isHeldExclusively() {
            return getState() != 0;
        }

        @Override
        protected boolean tryAcquire(int unused) {
            if (compareAndSetState(0, 1)) {
                setExclusiveOwnerThread(Thread.currentThread());
                return true;
            }
            return false;
        }

        @Override
        protected boolean tryRelease(int unused) {
            setExclusiveOwnerThread(null);
            setState(0);
            return true;
        }

        void lock() {
            acquire(1);
        }

        boolean tryLock() {
            return tryAcquire(1);
        }

        void unlock() {
            release(1);
        }

        boolean isLocked() {
            return isHeldExclusively();
        }

        void interruptIfStarted() {
            Thread t;
            if (getState() >= 0 && (t = thread) != null && !t.isInterrupted()) {
                try {
                    t.interrupt();
                } catch (SecurityException ignore) {
                    // as ThreadPoolExecutor: nothing more to do
                }
            }
        }
    }

    /** STPE's ensurePrestart: one more core thread per schedule, or one thread when the core size is 0. */
    private void ensurePrestart() {
        int wc = workerCountOf(ctl.get());
        if (wc < getCorePoolSize()) {
            addWorker(true);
        } else if (wc == 0) {
            addWorker(false);
        }
    }

    private boolean addWorker(boolean core) {
        retry:
        for (int c = ctl.get(); ; ) {
            if (runStateAtLeast(c, SHUTDOWN) && (runStateAtLeast(c, STOP) || queued.get() <= 0)) {
                return false;
            }
            for (;;) {
                int limit = core ? getCorePoolSize() : super.getMaximumPoolSize();
                if (workerCountOf(c) >= (limit & COUNT_MASK)) {
                    return false;
                }
                if (ctl.compareAndSet(c, c + 1)) {
                    break retry;
                }
                c = ctl.get();
                if (runStateAtLeast(c, SHUTDOWN)) {
                    continue retry;
                }
            }
        }
        boolean workerStarted = false;
        Worker w = null;
        try {
            w = new Worker();
            Thread t = w.thread;
            if (t != null) {
                boolean workerAdded = false;
                mainLock.lock();
                try {
                    int c = ctl.get();
                    if (runStateLessThan(c, STOP)) {
                        if (t.getState() != Thread.State.NEW) {
                            throw new IllegalThreadStateException();
                        }
                        workers.add(w);
                        workerAdded = true;
                        largestPoolSize = Math.max(largestPoolSize, workers.size());
                    }
                } finally {
                    mainLock.unlock();
                }
                if (workerAdded) {
                    t.start();
                    workerStarted = true;
                }
            }
        } finally {
            if (!workerStarted) {
                addWorkerFailed(w);
            }
        }
        return workerStarted;
    }

    private void addWorkerFailed(Worker w) {
        mainLock.lock();
        try {
            if (w != null) {
                workers.remove(w);
            }
            ctl.decrementAndGet();
            tryTerminate();
        } finally {
            mainLock.unlock();
        }
    }

    private void runWorker(Worker w) {
        Thread wt = Thread.currentThread();
        w.unlock(); // allow interrupts
        boolean completedAbruptly = true;
        try {
            Runnable task;
            while ((task = getTask()) != null) {
                w.lock();
                // If the pool is stopping, the thread must be interrupted; otherwise it must not be (the
                // re-check covers a shutdownNow racing with the clearing of the interrupt).
                if ((runStateAtLeast(ctl.get(), STOP)
                        || (Thread.interrupted() && runStateAtLeast(ctl.get(), STOP)))
                        && !wt.isInterrupted()) {
                    wt.interrupt();
                }
                try {
                    beforeExecute(wt, task);
                    try {
                        task.run();
                        afterExecute(task, null);
                    } catch (Throwable ex) {
                        afterExecute(task, ex);
                        throw ex;
                    }
                } finally {
                    w.completedTasks++;
                    w.unlock();
                }
            }
            completedAbruptly = false;
        } finally {
            processWorkerExit(w, completedAbruptly);
        }
    }

    /** Blocks for the next task; null when this worker must exit (TPE's getTask rules). */
    private Runnable getTask() {
        boolean timedOut = false;
        for (;;) {
            int c = ctl.get();
            if (runStateAtLeast(c, SHUTDOWN) && (runStateAtLeast(c, STOP) || queued.get() <= 0)) {
                ctl.decrementAndGet();
                return null;
            }
            int wc = workerCountOf(c);
            boolean timed = allowsCoreThreadTimeOut() || wc > getCorePoolSize();
            if ((wc > super.getMaximumPoolSize() || (timed && timedOut)) && (wc > 1 || queued.get() <= 0)) {
                if (ctl.compareAndSet(c, c - 1)) {
                    return null;
                }
                continue;
            }
            try {
                QueuedTask entry = ready.take(timed, super.getKeepAliveTime(NANOSECONDS));
                if (entry == null) {
                    timedOut = true;
                } else if (entry.tryTake()) {
                    return entry.task();
                }
            } catch (InterruptedException retry) {
                timedOut = false;
            }
        }
    }

    private void processWorkerExit(Worker w, boolean completedAbruptly) {
        if (completedAbruptly) {
            ctl.decrementAndGet();
        }
        mainLock.lock();
        try {
            completedTaskCount += w.completedTasks;
            workers.remove(w);
        } finally {
            mainLock.unlock();
        }
        tryTerminate();
        int c = ctl.get();
        if (runStateLessThan(c, STOP)) {
            if (!completedAbruptly) {
                int min = allowsCoreThreadTimeOut() ? 0 : getCorePoolSize();
                if (min == 0 && queued.get() > 0) {
                    min = 1;
                }
                if (workerCountOf(c) >= min) {
                    return;
                }
            }
            addWorker(false);
        }
    }

    private void interruptIdleWorkers(boolean onlyOne) {
        mainLock.lock();
        try {
            for (Worker w : workers) {
                Thread t = w.thread;
                if (!t.isInterrupted() && w.tryLock()) {
                    try {
                        t.interrupt();
                    } catch (SecurityException ignore) {
                        // as ThreadPoolExecutor
                    } finally {
                        w.unlock();
                    }
                }
                if (onlyOne) {
                    break;
                }
            }
        } finally {
            mainLock.unlock();
        }
    }

    private void interruptWorkers() {
        for (Worker w : workers) {
            w.interruptIfStarted();
        }
    }

    // =============================================================================================
    // Pool configuration: the inherited setters check and store; we act on our own workers.

    @Override
    public void setCorePoolSize(int corePoolSize) {
        int previous = getCorePoolSize();
        super.setCorePoolSize(corePoolSize);
        int delta = corePoolSize - previous;
        if (workerCountOf(ctl.get()) > corePoolSize) {
            interruptIdleWorkers(false);
        } else if (delta > 0) {
            long k = Math.min(delta, queued.get());
            while (k-- > 0 && addWorker(true)) {
                if (queued.get() <= 0) {
                    break;
                }
            }
        }
    }

    @Override
    public int getCorePoolSize() {
        return super.getCorePoolSize();
    }

    @Override
    public boolean prestartCoreThread() {
        return workerCountOf(ctl.get()) < getCorePoolSize() && addWorker(true);
    }

    @Override
    public int prestartAllCoreThreads() {
        int n = 0;
        while (addWorker(true)) {
            ++n;
        }
        return n;
    }

    @Override
    public boolean allowsCoreThreadTimeOut() {
        return super.allowsCoreThreadTimeOut();
    }

    @Override
    public void allowCoreThreadTimeOut(boolean value) {
        boolean previous = allowsCoreThreadTimeOut();
        super.allowCoreThreadTimeOut(value);
        if (value && !previous) {
            interruptIdleWorkers(false);
        }
    }

    /** Accepted and checked as on STPE; like STPE's, this pool never grows past its core size. */
    @Override
    public void setMaximumPoolSize(int maximumPoolSize) {
        super.setMaximumPoolSize(maximumPoolSize);
        if (workerCountOf(ctl.get()) > maximumPoolSize) {
            interruptIdleWorkers(false);
        }
    }

    @Override
    public int getMaximumPoolSize() {
        return super.getMaximumPoolSize();
    }

    @Override
    public void setKeepAliveTime(long time, TimeUnit unit) {
        long previous = getKeepAliveTime(NANOSECONDS);
        super.setKeepAliveTime(time, unit);
        if (getKeepAliveTime(NANOSECONDS) < previous) {
            interruptIdleWorkers(false);
        }
    }

    @Override
    public long getKeepAliveTime(TimeUnit unit) {
        return super.getKeepAliveTime(unit);
    }

    @Override
    public void setThreadFactory(ThreadFactory threadFactory) {
        super.setThreadFactory(threadFactory);
    }

    @Override
    public ThreadFactory getThreadFactory() {
        return super.getThreadFactory();
    }

    @Override
    public void setRejectedExecutionHandler(RejectedExecutionHandler handler) {
        super.setRejectedExecutionHandler(handler);
    }

    @Override
    public RejectedExecutionHandler getRejectedExecutionHandler() {
        return super.getRejectedExecutionHandler();
    }

    // =============================================================================================
    // Monitoring

    @Override
    public int getPoolSize() {
        mainLock.lock();
        try {
            return runStateAtLeast(ctl.get(), TIDYING) ? 0 : workers.size();
        } finally {
            mainLock.unlock();
        }
    }

    @Override
    public int getActiveCount() {
        mainLock.lock();
        try {
            int n = 0;
            for (Worker w : workers) {
                if (w.isLocked()) {
                    ++n;
                }
            }
            return n;
        } finally {
            mainLock.unlock();
        }
    }

    @Override
    public int getLargestPoolSize() {
        mainLock.lock();
        try {
            return largestPoolSize;
        } finally {
            mainLock.unlock();
        }
    }

    @Override
    public long getTaskCount() {
        mainLock.lock();
        try {
            long n = completedTaskCount;
            for (Worker w : workers) {
                n += w.completedTasks;
                if (w.isLocked()) {
                    ++n;
                }
            }
            return n + queueView.size();
        } finally {
            mainLock.unlock();
        }
    }

    @Override
    public long getCompletedTaskCount() {
        mainLock.lock();
        try {
            long n = completedTaskCount;
            for (Worker w : workers) {
                n += w.completedTasks;
            }
            return n;
        } finally {
            mainLock.unlock();
        }
    }

    @Override
    public String toString() {
        long completed;
        int poolSize;
        int active = 0;
        mainLock.lock();
        try {
            completed = completedTaskCount;
            poolSize = workers.size();
            for (Worker w : workers) {
                completed += w.completedTasks;
                if (w.isLocked()) {
                    ++active;
                }
            }
        } finally {
            mainLock.unlock();
        }
        int c = ctl.get();
        String runState = isRunning(c) ? "Running" : runStateAtLeast(c, TERMINATED) ? "Terminated" : "Shutting down";
        return getClass().getName() + "@" + Integer.toHexString(hashCode())
                + "[" + runState
                + ", pool size = " + poolSize
                + ", active threads = " + active
                + ", queued tasks = " + queueView.size()
                + ", completed tasks = " + completed
                + "]";
    }

    // =============================================================================================
    // Hooks: inherited as they are (decorateTask returns the task; the others do nothing), and called
    // where STPE calls them: decorateTask on every schedule, beforeExecute/afterExecute around every
    // task a worker runs, terminated once on termination.

    @Override
    protected <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
        return super.decorateTask(runnable, task);
    }

    @Override
    protected <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) {
        return super.decorateTask(callable, task);
    }

    @Override
    protected void beforeExecute(Thread t, Runnable r) {
        super.beforeExecute(t, r);
    }

    @Override
    protected void afterExecute(Runnable r, Throwable t) {
        super.afterExecute(r, t);
    }

    @Override
    protected void terminated() {
        super.terminated();
    }

    // VarHandles
    private static final java.lang.invoke.VarHandle PENDING_EARLIEST;

    static {
        try {
            PENDING_EARLIEST = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(WheelScheduledExecutorService.class, "pendingEarliest", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
