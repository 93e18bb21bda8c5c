package io.timewheel.executor;

import io.timewheel.executor.internal.ColdStart;
import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.pool.RunDispatcher;
import io.timewheel.executor.internal.pool.WorkerPool;
import io.timewheel.executor.internal.queue.DecoratedEntry;
import io.timewheel.executor.internal.queue.PeriodicTask;
import io.timewheel.executor.internal.queue.QueueEntry;
import io.timewheel.executor.internal.queue.ScheduledTask;
import io.timewheel.executor.internal.queue.TaskEntry;
import io.timewheel.executor.internal.queue.TaskQueue;
import io.timewheel.executor.internal.tick.TickProbe;
import io.timewheel.executor.internal.tick.TickThread;
import io.timewheel.wheel.TimerWheel;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * A {@link ScheduledThreadPoolExecutor} that keeps its delayed tasks in a hashed hierarchical timing wheel,
 * owned by a tick thread. Scheduling a task due more than about 134 ms ahead (the ready queue's horizon) is O(1) and, once the pool has
 * started its threads, takes no lock: the task goes to the tick thread through a lock-free inbox. A task due
 * sooner may go straight to the workers' ready queue, under its lock, as every task does on STPE. Cancelling
 * a queued task of this executor is O(1) and, while the executor runs, lock-free; whatever the
 * remove-on-cancel policy, the task leaves the queue ({@code getQueue()}) at once, and if it waits in the
 * wheel, the tick thread drops it from there when it next reads its inbox. A task that {@code decorateTask}
 * replaced by an object of another class stays queued when cancelled, until it is due or purged, as on
 * STPE. The contract is STPE's, all of it: every constructor, method, exception, policy and hook behaves as
 * STPE documents (see the README for the known differences).
 *
 * <p>Beyond STPE: {@link #statistics()} says how many tasks wait, how many are overdue, and how late tasks
 * started and why (hand-over or worker wait); JFR events ({@code io.timewheel.TaskLate},
 * {@code io.timewheel.ExecutorStatistics}, {@code io.timewheel.TickThreadLate}) when a recording runs and the
 * jdk.jfr module is there; and, opted in through the builder, an MXBean ({@link WheelExecutorMXBean}) and a
 * rate-limited starvation warning; and, per periodic task or as the builder's default, a {@link PeriodicPolicy}:
 * what a fixed-rate task does with missed runs (run them all, as STPE; once; none) and what a run that throws
 * does (stop the task, as STPE; or report it to a handler and go on). With nothing opted in it behaves exactly
 * as STPE. Also opt-in: due runs on a new virtual thread each ({@link Builder#virtualThreadPerRun(int)}, Java
 * 21+) or on any {@link Executor} ({@link Builder#runOn}), the timers staying on the tick thread.
 *
 * <p>Thread safety: every public method may be called from any thread, as on STPE.
 */
public class WheelScheduledExecutorService extends ScheduledThreadPoolExecutor {
    /*
     * Implementation notes
     *
     * It extends STPE so that every cast, instanceof and STPE-specific call keeps working, but it never uses
     * STPE's queue or workers: it overrides every method that touches the queue, the workers or the run
     * state. The inherited fields serve only as storage for the configuration (core size, keep-alive,
     * policies, factory, handler), set through the inherited setters so that their argument checks and
     * exceptions are exactly STPE's; those setters only poke at ThreadPoolExecutor's own (empty, idle)
     * machinery, which never starts a thread. Methods that only read or store configuration, invokeAll,
     * invokeAny, close and the hooks are inherited as they are.
     *
     * Roles. This class is STPE's role; WorkerPool (internal.pool) is ThreadPoolExecutor's, TaskQueue
     * (internal.queue) DelayedWorkQueue's, and the tick thread (internal.tick) is the role STPE lacks;
     * package-info.java maps the rooms. Nothing below this class names it. ThreadPoolExecutor never names
     * STPE: it reads its settings in place and declares its hooks, which STPE inherits or overrides. Here the
     * roles are composed, so WorkerPool and TaskQueue each declare what they need from above as abstract
     * methods, and this class answers them through its private subclasses, Pool and Queue, the only ones
     * (each call is monomorphic and allocates nothing; the settings stay in TPE's fields, one copy):
     *   WorkerPool      TPE's settings (corePoolSize, maximumPoolSize, keepAliveNanos, allowsCoreThreadTimeOut),
     *                   the thread factory, and the hooks beforeExecute, afterExecute and terminated;
     *   TaskQueue       what STPE's ScheduledFutureTask asks of STPE (triggerTime, canRunInCurrentRunState,
     *                   reExecutePeriodic), which its tasks ask of it; taskCancelled (a cancel took a task out:
     *                   after shutdown, termination may be waiting for it); periodicRunFailed (a statistic).
     * References run down from here: this class -> WorkerPool -> TaskQueue -> ReadyQueue, QueueWheel and the
     * entries. The queue reaches the thread that owns its wheel only as a WheelOwner (a ReadyQueue.Waker too,
     * for its blocking workers), interfaces the queue declares and TickThread implements. One reference runs
     * up, and it is TaskEntry's alone: an entry knows its TaskQueue (TaskEntry.queue), so that a cancel, a
     * run and a re-arm ask the queue, never the executor, and the tick thread finds the entry's QueueWheel
     * through it; QueueEntry, what every place holds, knows no queue. The observers get the executor's name
     * and Observability (its statistics source), the starvation watch also its ready queue, pool and tick
     * thread; none gets this class. The public value types beside it (ExecutorStatistics, PeriodicPolicy,
     * WheelExecutorMXBean) name nothing of the executor, and the rooms below use them as they use the JDK's.
     *
     * Self-use is the JDK's: the pool reads the core size, maximum size, keep-alive and core time-out as
     * ThreadPoolExecutor reads its fields (Pool's answers: the inherited getters, called non-virtually), the
     * rejection handler as TPE's reject reads its field, the thread factory through the virtual
     * getThreadFactory() as TPE's Worker does; canRunInCurrentRunState calls isShutdown() and onShutdown
     * calls the policy getters virtually, as STPE does.
     *
     * Delays are capped at MAX_NANOS, as JDK 25's STPE does in triggerTime (JDK 17's adjusts huge delays in
     * overflowFree instead), so that deadline differences never overflow.
     *
     * Accepted means run or cancelled. delayedExecute and reExecutePeriodic follow STPE's sequence (check
     * the run state, queue, re-check, ensurePrestart) plus one step STPE lacks: if ensurePrestart's addWorker
     * lost to a racing tryTerminate's CAS to TIDYING (which had found the queue empty just before this task
     * was counted in), the pool has no worker and can get none, so the task is taken back and cancelled
     * (cancelIfStranded) instead of staying queued for ever, as STPE leaves it.
     *
     * Construction. The Builder is the public face of ExecutorOptions: each of its methods writes a setting
     * there (checked there when the check is more than a null check), and the constructor reads it once: the
     * core size, factory and handler go to STPE's constructor untouched; the name, the tick thread (the
     * shared one, or one of its own), the run dispatcher and the default periodic policy come from it.
     *
     * Cold start. The executor's classes come from a jar, not from the JDK's class-data archive that STPE's
     * come from, so a JVM's first executor loads, verifies and initializes them in its constructor (bench
     * `punctuality cold` shows a fresh JVM's first timers beside STPE's). Nothing else may ride on that:
     * no lambda or method reference on the paths of construction, schedule and run (the first one a JVM
     * links bootstraps its invokedynamic machinery; NanoClock.SYSTEM is a class for that reason), no
     * invokedynamic string concatenation (the module is compiled with -XDstringConcat=inline, as the JDK
     * compiles java.base), no logger looked up before a report needs it (Log: System.getLogger starts
     * java.util.logging). And no class of ours may load between a task's deadline and its run: each room's
     * constructor initializes, through ColdStart, the classes of its own that a first schedule and a first
     * run would meet (this one ScheduledTask, first thing, so that a class that cannot be initialized fails
     * the constructor before anything is started or registered; ReadyQueue its ReadyQueueRoom; WorkerPool its
     * Worker, and its DispatchedRun when it has a run dispatcher). tck's ColdStartTest checks each of these
     * rules in a forked JVM.
     *
     * Observability (statistics(), JFR, JMX, the starvation warning): Observability assembles the statistics
     * and keeps the two counts that no lower class keeps (rejected, periodic failures); its notes say where
     * each number comes from and who writes it. At the end of the constructor it registers the statistics
     * source with Jfr and Jmx and starts the starvation watch; after terminated() it undoes the JFR and JMX
     * registrations (the tick thread drops the watch once the pool has terminated).
     *
     * Periodic policies (PeriodicPolicy): the plain scheduleAtFixedRate/WithFixedDelay use the builder's
     * default, the overloads their argument; STPE's policy is stored as null, so a default task's run is
     * exactly STPE's path (PeriodicTask's notes).
     */

    /** Delays are capped at 2^62 ns (146 years), as JDK 25's STPE does, so deadline differences never overflow. */
    private static final long MAX_NANOS = (Long.MAX_VALUE >>> 1) - 1;

    /** The time source. Immutable. */
    private final NanoClock clock;
    /** The queue (DelayedWorkQueue's role). Immutable. */
    private final TaskQueue queue;
    /** The workers and the run state (ThreadPoolExecutor's role). Immutable. */
    private final WorkerPool pool;
    /** What getQueue() returns. Immutable. */
    private final QueueView queueView;
    /** statistics(), the counts no lower class keeps, the JFR / JMX / starvation-watch registrations. Immutable. */
    private final Observability observability;
    /** The builder's periodic policy for the plain scheduleAtFixedRate/WithFixedDelay, null if STPE's. Immutable. */
    private final PeriodicPolicy defaultPeriodicPolicy;

    /**
     * Creates an executor with the given core pool size, as {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int)}.
     *
     * @param corePoolSize the number of threads to keep in the pool, even if they are idle, unless
     *                     {@code allowCoreThreadTimeOut} is set
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     */
    public WheelScheduledExecutorService(int corePoolSize) {
        this(corePoolSize, Executors.defaultThreadFactory(), new AbortPolicy(), builder().options);
    }

    /**
     * As {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int, ThreadFactory)}.
     *
     * @param corePoolSize  the number of threads to keep in the pool, even if they are idle, unless
     *                      {@code allowCoreThreadTimeOut} is set
     * @param threadFactory the factory of the pool's threads
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     * @throws NullPointerException     if {@code threadFactory} is null
     */
    public WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory) {
        this(corePoolSize, threadFactory, new AbortPolicy(), builder().options);
    }

    /**
     * As {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int, RejectedExecutionHandler)}.
     *
     * @param corePoolSize the number of threads to keep in the pool, even if they are idle, unless
     *                     {@code allowCoreThreadTimeOut} is set
     * @param handler      what receives the tasks this executor cannot accept (after shutdown)
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     * @throws NullPointerException     if {@code handler} is null
     */
    public WheelScheduledExecutorService(int corePoolSize, RejectedExecutionHandler handler) {
        this(corePoolSize, Executors.defaultThreadFactory(), handler, builder().options);
    }

    /**
     * As {@link ScheduledThreadPoolExecutor#ScheduledThreadPoolExecutor(int, ThreadFactory, RejectedExecutionHandler)}.
     *
     * @param corePoolSize  the number of threads to keep in the pool, even if they are idle, unless
     *                      {@code allowCoreThreadTimeOut} is set
     * @param threadFactory the factory of the pool's threads
     * @param handler       what receives the tasks this executor cannot accept (after shutdown)
     * @throws IllegalArgumentException if {@code corePoolSize < 0}
     * @throws NullPointerException     if {@code threadFactory} or {@code handler} is null
     */
    public WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory,
                                         RejectedExecutionHandler handler) {
        this(corePoolSize, threadFactory, handler, builder().options);
    }

    /**
     * For subclasses that want the wheel options: {@code super(builder().corePoolSize(4).tickNanos(..))}.
     *
     * @param builder the options; its core pool size, thread factory and handler are checked as by the
     *                public constructors
     * @throws IllegalArgumentException if the builder's core pool size is negative
     */
    protected WheelScheduledExecutorService(Builder builder) {
        this(builder.options.corePoolSize, builder.options.threadFactory, builder.options.handler, builder.options);
    }

    /** The arguments go to STPE's constructor untouched, so bad ones fail there, in STPE's order. */
    private WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory,
                                          RejectedExecutionHandler handler, ExecutorOptions options) {
        super(corePoolSize, threadFactory, handler);
        // first: if a class cannot be initialized, nothing has been started or registered (notes: Cold start)
        ColdStart.initialize(ScheduledTask.class);
        this.clock = options.clock;
        String name = options.name(this);
        this.defaultPeriodicPolicy = options.defaultPeriodicPolicy();
        RunDispatcher dispatcher = options.dispatcher(name); // fails here, before any thread, if it cannot be
        TickThread tick = options.tickThread(this);
        this.queue = new Queue(options.clock, tick, options.tickNanos);
        this.pool = new Pool(queue, options.lateThresholdNanos, name, dispatcher);
        this.queueView = new QueueView(queue);
        this.observability = new Observability(name, options.lateThresholdNanos, clock, queue, pool);
        observability.register(options.jmx, options.starvationWarning, tick);
    }

    /**
     * A builder for an executor with wheel options. Any thread; each call returns a new builder.
     *
     * @return a builder with every option at its default
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Options of a {@link WheelScheduledExecutorService}. Not thread safe: one thread configures a builder
     * and calls {@link #build()}. Every option has a default; {@code build()} may be called more than once,
     * each call making a new executor.
     */
    public static final class Builder {
        /** The settings this builder writes, read by the executor's constructor (ExecutorOptions' notes). */
        final ExecutorOptions options = new ExecutorOptions();

        Builder() {
        }

        /**
         * The policy of periodic tasks scheduled through the plain {@code scheduleAtFixedRate} and
         * {@code scheduleWithFixedDelay} (default {@link PeriodicPolicy#STPE}, STPE's behaviour). For fixed-delay
         * tasks only its failure policy applies. The overloads that take a policy ignore this default.
         *
         * @param policy the default periodic policy
         * @return this builder
         * @throws NullPointerException if {@code policy} is null
         */
        public Builder periodicPolicy(PeriodicPolicy policy) {
            options.periodicPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The executor's name in its statistics, JFR events, MXBean and warnings (default: its class name and
         * identity hash, as in {@code toString()}).
         *
         * @param name the executor's name
         * @return this builder
         * @throws NullPointerException if {@code name} is null
         */
        public Builder name(String name) {
            options.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * How late a run must start to count as late (statistics {@code tasksLate}), to commit a JFR
         * {@code TaskLate} event, and to make the starvation warning speak: a positive duration (default
         * 100 ms, or the system property {@code timewheel.lateThresholdMillis}).
         *
         * @param duration the threshold, in {@code unit}s
         * @param unit     the unit of {@code duration}
         * @return this builder
         * @throws IllegalArgumentException if the duration is not positive
         */
        public Builder lateThreshold(long duration, TimeUnit unit) {
            options.lateThreshold(duration, unit);
            return this;
        }

        /**
         * Whether the tick thread watches this executor for starvation: when a task has waited
         * the late threshold past its deadline and no worker is idle, it logs, at most once per 10 s, through
         * System.Logger "io.timewheel" at WARNING, "N tasks of executor X are overdue (oldest Y ms): all K
         * workers busy" (and commits a JFR TaskLate event for that task, started=false, if a recording runs).
         * It looks when a task could have waited the threshold, so it speaks then, not later; it costs each
         * push into the workers' queue two volatile reads, and the tick thread no wake-up while nothing is
         * queued. Default: the system property {@code timewheel.starvationWarning} (which the agent's
         * {@code starvationWarning} option sets), else false.
         *
         * @param on whether to watch and warn
         * @return this builder
         */
        public Builder starvationWarning(boolean on) {
            options.starvationWarning = on;
            return this;
        }

        /**
         * Whether the executor registers a {@link WheelExecutorMXBean} in the platform MBean server
         * as {@code io.timewheel:type=WheelScheduledExecutorService,name="<name>"} (with
         * {@code ,id=<identity hash>} added if that name is taken), unregistered when it terminates. Needs the
         * java.management module; without it the executor logs one warning and runs without. Default: the
         * system property {@code timewheel.jmx} (which the agent's {@code jmx} option sets), else false.
         *
         * @param on whether to register the MXBean
         * @return this builder
         */
        public Builder jmx(boolean on) {
            options.jmx = on;
            return this;
        }

        /**
         * Runs each due task on a new virtual thread (Java 21+; {@code build()} throws
         * UnsupportedOperationException on an older runtime), with no bound on concurrent runs. See
         * {@link #virtualThreadPerRun(int)}.
         *
         * @return this builder
         */
        public Builder virtualThreadPerRun() {
            return virtualThreadPerRun(0);
        }

        /**
         * Runs each due task on a new virtual thread (Java 21+; {@code build()} throws
         * UnsupportedOperationException on an older runtime), at most {@code maxConcurrentRuns} at a time
         * (0: no bound); runs beyond the bound wait, overdue, in the queue. Timers stay on the tick thread;
         * the pool's threads ({@code corePoolSize}, 1 is enough) only take due tasks and start their
         * threads. A periodic task's runs never overlap (the next is scheduled when a run ends);
         * {@code cancel(true)} interrupts the run's virtual thread; {@code beforeExecute(t, r)} and
         * {@code afterExecute} are called on the run's virtual thread ({@code t} is that thread);
         * {@code shutdownNow} interrupts the running runs and termination waits for every run in flight.
         * {@code getActiveCount()} is the runs in flight, {@code getPoolSize()} the pool's own threads.
         * Replaces a {@link #runOn} executor.
         *
         * @param maxConcurrentRuns the most runs in flight at a time, or 0 for no bound
         * @return this builder
         * @throws IllegalArgumentException if {@code maxConcurrentRuns < 0}
         */
        public Builder virtualThreadPerRun(int maxConcurrentRuns) {
            options.virtualThreadPerRun(maxConcurrentRuns);
            return this;
        }

        /**
         * Runs each due task on {@code executor} instead of the pool's threads, with the same meanings as
         * {@link #virtualThreadPerRun(int)} (hooks on the executor's thread that runs the task). If the executor
         * rejects a run, the pool thread that handed it over runs it. The executor's own lifecycle is the
         * caller's: shutting this executor down does not shut it down. Shut it down after this executor has
         * terminated: termination waits for every run handed over to finish, and a run the executor accepted
         * but never runs (its {@code shutdownNow} returned it) keeps this executor from terminating. Replaces
         * {@code virtualThreadPerRun}.
         *
         * @param executor where due runs go
         * @return this builder
         * @throws NullPointerException if {@code executor} is null
         */
        public Builder runOn(Executor executor) {
            options.runOn(executor);
            return this;
        }

        /**
         * The core pool size (default 1). Checked by the executor's constructor: negative is an
         * IllegalArgumentException.
         *
         * @param corePoolSize the number of threads to keep in the pool
         * @return this builder
         */
        public Builder corePoolSize(int corePoolSize) {
            options.corePoolSize = corePoolSize;
            return this;
        }

        /**
         * The factory of the pool's threads (default {@link Executors#defaultThreadFactory()}).
         *
         * @param threadFactory the factory
         * @return this builder
         * @throws NullPointerException if {@code threadFactory} is null
         */
        public Builder threadFactory(ThreadFactory threadFactory) {
            options.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        /**
         * What receives the tasks the executor cannot accept (default {@link AbortPolicy}).
         *
         * @param handler the handler
         * @return this builder
         * @throws NullPointerException if {@code handler} is null
         */
        public Builder rejectedExecutionHandler(RejectedExecutionHandler handler) {
            options.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * The wheel's tick: a power of two nanoseconds from 1 to 2^36 (default 2^22 ns = 4.2 ms, or the
         * system property {@code timewheel.tickNanos}). Deadlines stay exact whatever the tick: it only
         * trades the wheel's bookkeeping against how many timers share a slot.
         *
         * @param tickNanos the tick, in nanoseconds
         * @return this builder
         * @throws IllegalArgumentException if {@code tickNanos} is not a power of two from 1 to 2^36
         */
        public Builder tickNanos(long tickNanos) {
            options.tickNanos = TimerWheel.checkTickNanos(tickNanos);
            return this;
        }

        /**
         * Whether this executor gets a tick thread of its own (which ends when the executor terminates)
         * instead of sharing the JVM-wide one (default false).
         *
         * @param dedicated whether the executor gets its own tick thread
         * @return this builder
         */
        public Builder dedicatedTickThread(boolean dedicated) {
            options.dedicatedTickThread = dedicated;
            return this;
        }

        /**
         * The tests' one seam into an executor: its time source (null: System.nanoTime) and a TickProbe, the
         * seam's side in the tick thread (null: none); either implies a dedicated tick thread. Tests of this
         * package only; production never calls it.
         */
        Builder testSeam(NanoClock clock, TickProbe probe) {
            if (clock != null) {
                options.clock = clock;
            }
            options.probe = probe;
            return this;
        }

        /**
         * Makes an executor with this builder's options.
         *
         * @return a new executor
         * @throws IllegalArgumentException      if the core pool size is negative
         * @throws UnsupportedOperationException if {@link #virtualThreadPerRun()} was chosen on a runtime
         *                                       older than Java 21
         */
        public WheelScheduledExecutorService build() {
            return new WheelScheduledExecutorService(this);
        }
    }

    // =============================================================================================
    // Scheduling

    /** STPE's triggerTime: the deadline {@code delayNanos} (not negative) from now, the delay capped at MAX_NANOS. */
    private long triggerTime(long delayNanos) {
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
        ScheduledTask<Void> task = new ScheduledTask<>(queue, body(command), now + delayNanos(delay, unit));
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
        ScheduledTask<V> task = new ScheduledTask<>(queue, callable, now + delayNanos(delay, unit));
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
        return schedulePeriodic(command, initialDelay, unit, unit.toNanos(period), defaultPeriodicPolicy);
    }

    /**
     * As {@link #scheduleAtFixedRate(Runnable, long, long, TimeUnit)}, under {@code policy} instead of the
     * executor's default: what to do with missed runs and with runs that throw (see {@link PeriodicPolicy}).
     * A failure handler runs on the worker thread that ran the task.
     *
     * @param command      the task to run
     * @param initialDelay the time to delay the first run
     * @param period       the period between the starts of successive runs
     * @param unit         the unit of {@code initialDelay} and {@code period}
     * @param policy       the task's missed-run and failure policies
     * @return the task's future, whose {@code get()} never returns normally: it throws once the task is
     *         cancelled (by a caller, or by the executor at shutdown) or, under the {@code STOP} failure
     *         policy, once a run threw
     * @throws NullPointerException     if {@code command}, {@code unit} or {@code policy} is null
     * @throws IllegalArgumentException if {@code period <= 0}
     */
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit,
                                                  PeriodicPolicy policy) {
        if (command == null || unit == null || policy == null) {
            throw new NullPointerException();
        }
        if (period <= 0L) {
            throw new IllegalArgumentException();
        }
        return schedulePeriodic(command, initialDelay, unit, unit.toNanos(period), policy);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        if (command == null || unit == null) {
            throw new NullPointerException();
        }
        if (delay <= 0L) {
            throw new IllegalArgumentException();
        }
        PeriodicPolicy policy = defaultPeriodicPolicy;
        return schedulePeriodic(command, initialDelay, unit, -unit.toNanos(delay),
                policy == null ? null : policy.forFixedDelay());
    }

    /**
     * As {@link #scheduleWithFixedDelay(Runnable, long, long, TimeUnit)}, under {@code policy}'s failure policy
     * instead of the executor's default (see {@link PeriodicPolicy}). A fixed-delay task never misses a run, so
     * a missed-run policy other than CATCH_UP is a mistake, rejected. A failure handler runs on the worker
     * thread that ran the task.
     *
     * @param command      the task to run
     * @param initialDelay the time to delay the first run
     * @param delay        the delay between the end of one run and the start of the next
     * @param unit         the unit of {@code initialDelay} and {@code delay}
     * @param policy       the task's failure policy (its missed-run policy must be {@code CATCH_UP})
     * @return the task's future, whose {@code get()} never returns normally: it throws once the task is
     *         cancelled (by a caller, or by the executor at shutdown) or, under the {@code STOP} failure
     *         policy, once a run threw
     * @throws NullPointerException     if {@code command}, {@code unit} or {@code policy} is null
     * @throws IllegalArgumentException if {@code delay <= 0}, or {@code policy}'s missed-run policy is not
     *                                  CATCH_UP
     */
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit,
                                                     PeriodicPolicy policy) {
        if (command == null || unit == null || policy == null) {
            throw new NullPointerException();
        }
        if (delay <= 0L) {
            throw new IllegalArgumentException();
        }
        if (policy.missedRuns() != PeriodicPolicy.MissedRuns.CATCH_UP) {
            throw new IllegalArgumentException("a fixed-delay task never misses a run: missed-run policy "
                    + policy.missedRuns() + " applies to fixed-rate tasks only");
        }
        return schedulePeriodic(command, initialDelay, unit, -unit.toNanos(delay), policy);
    }

    /** {@code policy}: null for STPE's behaviour. */
    private ScheduledFuture<?> schedulePeriodic(Runnable command, long initialDelay, TimeUnit unit, long period,
                                                PeriodicPolicy policy) {
        long now = clock.nanoTime();
        PeriodicTask<Void> task = new PeriodicTask<>(queue, body(command), now + delayNanos(initialDelay, unit), period,
                policy == null || policy.isStpe() ? null : policy, command);
        RunnableScheduledFuture<Void> decorated = decorateTask(command, task);
        task.decoratedAs(decorated);
        delayedExecute(decorated, task, now);
        return decorated;
    }

    /**
     * What a task made from a Runnable runs: the command itself, unless it is also a Callable, which the task
     * would call instead of running (STPE wraps every Runnable, so run() runs and the result is null).
     */
    private static Runnable body(Runnable command) {
        return command instanceof Callable ? command::run : command;
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
        TaskEntry entry;
        if (task == inner) {
            entry = inner;
        } else if (task != null) {
            entry = new DecoratedEntry(queue, task, queue.deadlineOf(task));
        } else {
            throw new NullPointerException(); // decorateTask returned null: STPE's queue refuses it too
        }
        queue.add(entry, now);
        if (!canRunInCurrentRunState(task) && queue.remove(entry)) {
            task.cancel(false);
            pool.tryTerminate(); // as STPE's remove(task): a racing shutdown may be waiting for this task to go
        } else {
            pool.ensurePrestart();
            cancelIfStranded(task, entry);
        }
    }

    /**
     * After ensurePrestart: if the pool has terminated meanwhile, takes the task back and cancels it, so that
     * an accepted task either runs or is cancelled and no {@code get()} waits for ever. STPE does not: a
     * shutdown's tryTerminate that found the queue empty just before this task went in, and then won the
     * CAS to TIDYING against ensurePrestart's addWorker (after canRunInCurrentRunState had still seen
     * SHUTDOWN), leaves the task queued in a terminated pool with no worker, never run and never cancelled
     * (README, known differences; ShutdownTest, TerminationRaceTest). Only a lost addWorker gets here with
     * the pool at TIDYING: a tryTerminate that started after this task was counted in finds the queue not
     * empty and stops.
     */
    private void cancelIfStranded(RunnableScheduledFuture<?> task, TaskEntry entry) {
        if (pool.isTidying() && queue.remove(entry)) {
            task.cancel(false);
        }
    }

    /** After a periodic run: STPE's reExecutePeriodic. {@code viaWorker}: taken off the queue by a worker. */
    private void reExecutePeriodic(PeriodicTask<?> task, boolean viaWorker) {
        RunnableScheduledFuture<?> outer = task.outerTask();
        if (canRunInCurrentRunState(outer)) {
            TaskEntry entry;
            if (outer == task) {
                if (!queue.readd(task, viaWorker)) {
                    return; // cancelled while running: nothing to re-queue
                }
                entry = task;
            } else {
                entry = new DecoratedEntry(queue, outer, queue.deadlineOf(outer));
                if (!queue.readdHolder(task, entry)) {
                    return; // cancelled while running: nothing to re-queue
                }
            }
            if (canRunInCurrentRunState(outer) || !queue.remove(entry)) {
                pool.ensurePrestart();
                cancelIfStranded(outer, entry); // run directly by a non-worker while the pool terminated
                return;
            }
            pool.tryTerminate();
        }
        outer.cancel(false);
    }

    /** STPE's canRunInCurrentRunState: isShutdown() virtually, the policies as fields. */
    private boolean canRunInCurrentRunState(RunnableScheduledFuture<?> task) {
        if (!isShutdown()) {
            return true;
        }
        if (pool.isStopped()) {
            return false;
        }
        return task.isPeriodic()
                ? super.getContinueExistingPeriodicTasksAfterShutdownPolicy()
                : (super.getExecuteExistingDelayedTasksAfterShutdownPolicy() || task.getDelay(NANOSECONDS) <= 0);
    }

    /** TPE's reject: the handler as TPE reads its field. */
    private void reject(RunnableScheduledFuture<?> task) {
        observability.rejected.increment();
        super.getRejectedExecutionHandler().rejectedExecution(task, this);
    }

    // =============================================================================================
    // The queue

    /**
     * Returns the task queue: a live view of every task not yet started, delayed and due. Its size is read
     * without a lock (exact while nothing is queued or taken meanwhile; see QueuedCount); contains is O(1) for the executor's own tasks; iteration and toArray work on a
     * snapshot taken by the tick thread; remove takes a task out of the queue as {@link #remove} does.
     */
    @Override
    public BlockingQueue<Runnable> getQueue() {
        return queueView;
    }

    @Override
    public boolean remove(Runnable task) {
        boolean removed = queue.remove((Object) task);
        pool.tryTerminate();
        return removed;
    }

    @Override
    public void purge() {
        for (QueueEntry entry : queue.collect(false)) {
            Runnable r = entry.runnable();
            if (r instanceof Future<?> && ((Future<?>) r).isCancelled()) {
                queue.remove((TaskEntry) entry);
            }
        }
        pool.tryTerminate();
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
    public void setExecuteExistingDelayedTasksAfterShutdownPolicy(boolean value) {
        super.setExecuteExistingDelayedTasksAfterShutdownPolicy(value);
        if (!value && isShutdown()) {
            onShutdown();
        }
    }

    /** STPE's onShutdown: cancels the queued tasks the shutdown policies do not keep. */
    private void onShutdown() {
        boolean keepDelayed = getExecuteExistingDelayedTasksAfterShutdownPolicy();
        boolean keepPeriodic = getContinueExistingPeriodicTasksAfterShutdownPolicy();
        for (QueueEntry entry : queue.collect(false)) {
            Runnable r = entry.runnable();
            if (!(r instanceof RunnableScheduledFuture)) {
                continue;
            }
            RunnableScheduledFuture<?> t = (RunnableScheduledFuture<?>) r;
            if ((t.isPeriodic() ? !keepPeriodic : (!keepDelayed && t.getDelay(NANOSECONDS) > 0)) || t.isCancelled()) {
                if (queue.remove((TaskEntry) entry)) {
                    t.cancel(false);
                }
            }
        }
        pool.tryTerminate();
    }

    // =============================================================================================
    // Lifecycle

    @Override
    public void shutdown() {
        pool.shutdown();
        onShutdown();
        pool.tryTerminate();
    }

    @Override
    public List<Runnable> shutdownNow() {
        pool.shutdownNow();
        List<Runnable> tasks = new ArrayList<>();
        for (QueueEntry entry : queue.collect(true)) {
            tasks.add(entry.runnable());
        }
        pool.tryTerminate();
        return tasks;
    }

    @Override
    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public boolean isTerminating() {
        return pool.isTerminating();
    }

    @Override
    public boolean isTerminated() {
        return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return pool.awaitTermination(timeout, unit);
    }

    // =============================================================================================
    // Pool configuration: the inherited setters check and store; the pool acts on our own workers.

    @Override
    public void setCorePoolSize(int corePoolSize) {
        int previous = super.getCorePoolSize();
        super.setCorePoolSize(corePoolSize);
        pool.corePoolSizeChanged(previous, corePoolSize);
    }

    @Override
    public boolean prestartCoreThread() {
        return pool.prestartCoreThread();
    }

    @Override
    public int prestartAllCoreThreads() {
        return pool.prestartAllCoreThreads();
    }

    @Override
    public void allowCoreThreadTimeOut(boolean value) {
        boolean previous = super.allowsCoreThreadTimeOut();
        super.allowCoreThreadTimeOut(value);
        if (value && !previous) {
            pool.interruptIdleWorkers();
        }
    }

    /** Accepted and checked as on STPE; like STPE's, this pool never grows past its core size. */
    @Override
    public void setMaximumPoolSize(int maximumPoolSize) {
        super.setMaximumPoolSize(maximumPoolSize);
        pool.maximumPoolSizeChanged(maximumPoolSize);
    }

    @Override
    public void setKeepAliveTime(long time, TimeUnit unit) {
        long previous = super.getKeepAliveTime(NANOSECONDS);
        super.setKeepAliveTime(time, unit);
        if (super.getKeepAliveTime(NANOSECONDS) < previous) {
            pool.interruptIdleWorkers();
        }
    }

    // =============================================================================================
    // The answers to what WorkerPool and TaskQueue declare they need from above (see the notes)

    /**
     * The worker pool, its questions answered as ThreadPoolExecutor answers its own: the settings as TPE
     * reads its fields (the inherited getters, called non-virtually, so that a subclass overriding a getter
     * changes what it reports, not how the pool behaves), the thread factory and the hooks virtually. TPE's
     * protected hooks are reachable from this package only inside the body of a subclass of TPE: this one's.
     */
    private final class Pool extends WorkerPool {
        Pool(TaskQueue queue, long lateThresholdNanos, String name, RunDispatcher dispatcher) {
            super(queue, lateThresholdNanos, name, dispatcher);
        }

        @Override
        protected int corePoolSize() {
            return WheelScheduledExecutorService.super.getCorePoolSize();
        }

        @Override
        protected int maximumPoolSize() {
            return WheelScheduledExecutorService.super.getMaximumPoolSize();
        }

        @Override
        protected long keepAliveNanos() {
            return WheelScheduledExecutorService.super.getKeepAliveTime(NANOSECONDS);
        }

        @Override
        protected boolean allowsCoreThreadTimeOut() {
            return WheelScheduledExecutorService.super.allowsCoreThreadTimeOut();
        }

        @Override
        protected ThreadFactory threadFactory() {
            return WheelScheduledExecutorService.this.getThreadFactory();
        }

        @Override
        protected void beforeExecute(Thread t, Runnable r) {
            WheelScheduledExecutorService.this.beforeExecute(t, r);
        }

        @Override
        protected void afterExecute(Runnable r, Throwable t) {
            WheelScheduledExecutorService.this.afterExecute(r, t);
        }

        @Override
        protected void terminated() {
            try {
                WheelScheduledExecutorService.this.terminated();
            } finally {
                observability.unregister();
            }
        }
    }

    /** The task queue, answering what its tasks ask as STPE answers its ScheduledFutureTask. */
    private final class Queue extends TaskQueue {
        Queue(NanoClock clock, TickThread tick, long tickNanos) {
            super(clock, tick, tickNanos);
        }

        @Override
        protected long triggerTime(long delayNanos) {
            return WheelScheduledExecutorService.this.triggerTime(delayNanos);
        }

        @Override
        protected boolean canRunInCurrentRunState(RunnableScheduledFuture<?> task) {
            return WheelScheduledExecutorService.this.canRunInCurrentRunState(task);
        }

        @Override
        protected void reExecutePeriodic(TaskEntry task, boolean viaWorker) {
            WheelScheduledExecutorService.this.reExecutePeriodic((PeriodicTask<?>) task, viaWorker);
        }

        @Override
        protected void periodicRunFailed() {
            observability.periodicFailures.increment();
        }

        /** As STPE's remove after a cancel (tryTerminate), which has nothing to do while the pool runs. */
        @Override
        protected void taskCancelled() {
            if (!pool.isRunning()) {
                pool.tryTerminate();
            }
        }
    }

    // =============================================================================================
    // Monitoring

    /**
     * This executor's statistics now: queued tasks not yet due and overdue, and its counts since it started
     * (see {@link ExecutorStatistics}). A monitoring call: it sums the workers' counts under the pool's lock
     * and scans the ready queue's overdue tasks under its lock (in time proportional to how many are
     * overdue); it allocates the answer. Any thread.
     *
     * @return a new, immutable snapshot of the statistics
     */
    public ExecutorStatistics statistics() {
        return observability.get();
    }

    @Override
    public int getPoolSize() {
        return pool.poolSize();
    }

    @Override
    public int getActiveCount() {
        return pool.activeCount();
    }

    @Override
    public int getLargestPoolSize() {
        return pool.largestPoolSize();
    }

    @Override
    public long getTaskCount() {
        return pool.taskCount();
    }

    @Override
    public long getCompletedTaskCount() {
        return pool.completedTaskCount();
    }

    @Override
    public String toString() {
        return pool.describe(getClass().getName() + "@" + Integer.toHexString(hashCode()));
    }
}
