package io.timewheel.executor;

import io.timewheel.executor.internal.Log;
import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.pool.RunDispatcher;
import io.timewheel.executor.internal.tick.TickProbe;
import io.timewheel.executor.internal.tick.TickThread;
import io.timewheel.wheel.TimerWheel;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The settings a {@link WheelScheduledExecutorService.Builder} collects, their defaults (some from system
 * properties), their checks, and what the executor's constructor derives from them (its name, tick thread,
 * run dispatcher and default periodic policy). Not thread safe: written by the thread that uses the builder,
 * read by the thread that constructs the executor.
 */
final class ExecutorOptions {
    /*
     * Implementation notes
     *
     * The public Builder is the settings' face: its methods, their javadoc and their exceptions are the
     * contract, and each writes here; build() passes this object to the executor's constructor, which reads
     * it once and keeps nothing of it (a builder used again, or changed after build(), changes no executor).
     * The defaults are read when a builder is created (builder(), which the four constructors with STPE's
     * signatures also call): the system properties timewheel.tickNanos, timewheel.lateThresholdMillis,
     * timewheel.starvationWarning and timewheel.jmx, in that order; a malformed number is logged at WARNING
     * through System.Logger "io.timewheel", once per JVM and value (Log.warnOnce), and the built-in default
     * used.
     *
     * The checks that are more than a null check live here (the late threshold, the bound on virtual-thread
     * runs, and runOn and virtualThreadPerRun replacing each other), so that the Builder's methods stay one
     * line of work each; the tick size is the wheel's own check (TimerWheel.checkTickNanos). corePoolSize,
     * the thread factory and the handler are not checked here: the executor hands them to STPE's
     * constructor, whose checks and exceptions (and their order) are STPE's own.
     *
     * Ownership: every field written by the builder's thread, read by the constructing thread (the builder
     * is not thread safe, as its javadoc says).
     */

    /** 10^8 ns = 100 ms. */
    static final long DEFAULT_LATE_THRESHOLD_NANOS = 100_000_000L;

    /**
     * The executor's default wheel tick: 2^22 ns = 4.2 ms, four times the wheel's own default, and one stride
     * of the hand-over (TickThread.STRIDE_NANOS). The tick thread keeps each wheel's time a near term
     * (ReadyQueue.HORIZON_NANOS, 2^27 ns = 134 ms) ahead of the clock, and a wheel's level 0 spans 64 ticks,
     * 2^28 ns = 268 ms with this tick: so a timer due within about 0.4 s of its schedule is filed straight into
     * level 0 and handed over from there, never moved down from a higher level (a pass of the tick thread over
     * an entry gone cold by then, on a CPU a worker may be waiting for).
     * Rejected: 2^20, whose 67 ms level 0 makes every timer due beyond about 0.2 s move down from level 1 first,
     * and 2^23, whose level-0 slots, sorted whole when they come due, hold twice as many timers; the bench's
     * `lateness` mode run with -Dtimewheel.tickNanos decides.
     */
    static final long DEFAULT_TICK_NANOS = 1L << 22;

    int corePoolSize = 1;
    ThreadFactory threadFactory = Executors.defaultThreadFactory();
    RejectedExecutionHandler handler = new ThreadPoolExecutor.AbortPolicy();
    long tickNanos = defaultTickNanos();
    boolean dedicatedTickThread;
    NanoClock clock = NanoClock.SYSTEM;
    /** The tick thread's side of the tests' seam (TickProbe, given through Builder.testSeam), or null. */
    TickProbe probe;
    /** The name in statistics, events, the MXBean and the warning; null: the executor's identity. */
    String name;
    long lateThresholdNanos = defaultLateThresholdNanos();
    boolean starvationWarning = Boolean.getBoolean("timewheel.starvationWarning");
    boolean jmx = Boolean.getBoolean("timewheel.jmx");
    PeriodicPolicy periodicPolicy = PeriodicPolicy.STPE;
    /** -1: runs on the pool's threads; else a virtual thread per run, bounded if > 0. */
    int virtualThreadRuns = -1;
    /** The executor the runs go to, or null. At most one of runOn and virtualThreadRuns >= 0 is set. */
    Executor runOn;

    // ---------------------------------------------------------------------------------------------
    // Checks (the Builder's methods call them)

    /** The late threshold: a positive duration. */
    void lateThreshold(long duration, TimeUnit unit) {
        long nanos = unit.toNanos(duration);
        if (nanos <= 0) {
            throw new IllegalArgumentException("lateThreshold must be positive: " + duration + " " + unit);
        }
        this.lateThresholdNanos = nanos;
    }

    /** A virtual thread per run, at most {@code maxConcurrentRuns} at a time (0: no bound); drops runOn. */
    void virtualThreadPerRun(int maxConcurrentRuns) {
        if (maxConcurrentRuns < 0) {
            throw new IllegalArgumentException("maxConcurrentRuns must not be negative: " + maxConcurrentRuns);
        }
        this.virtualThreadRuns = maxConcurrentRuns;
        this.runOn = null;
    }

    /** Runs on {@code executor}; drops the virtual threads. */
    void runOn(Executor executor) {
        this.runOn = Objects.requireNonNull(executor, "executor");
        this.virtualThreadRuns = -1;
    }

    // ---------------------------------------------------------------------------------------------
    // What the executor's constructor derives from the settings

    /** The executor's name: the one set, else {@code executor}'s class name and identity hash. */
    String name(Object executor) {
        return name != null ? name
                : executor.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(executor));
    }

    /** The builder's periodic policy for the plain scheduleAtFixedRate/WithFixedDelay, null if STPE's. */
    PeriodicPolicy defaultPeriodicPolicy() {
        return periodicPolicy.isStpe() ? null : periodicPolicy;
    }

    /** The dispatcher the options ask for, or null; virtual threads fail here before Java 21. */
    RunDispatcher dispatcher(String executorName) {
        if (runOn != null) {
            return RunDispatcher.onExecutor(runOn);
        }
        return virtualThreadRuns < 0 ? null : RunDispatcher.onVirtualThreads(executorName + "-run-", virtualThreadRuns);
    }

    /**
     * A tick thread of {@code owner}'s own if asked for or if the test seam is used (a test's clock or probe),
     * else the JVM's shared one.
     */
    TickThread tickThread(Object owner) {
        return dedicatedTickThread || clock != NanoClock.SYSTEM || probe != null
                ? TickThread.dedicated(owner, clock, probe)
                : TickThread.shared();
    }

    // ---------------------------------------------------------------------------------------------
    // Defaults from system properties

    private static long defaultLateThresholdNanos() {
        String value = System.getProperty("timewheel.lateThresholdMillis");
        if (value != null) {
            try {
                long millis = Long.parseLong(value.trim());
                if (millis > 0) {
                    return TimeUnit.MILLISECONDS.toNanos(millis);
                }
            } catch (NumberFormatException notANumber) {
                // reported below
            }
            Log.warnOnce("timewheel.lateThresholdMillis=" + value,
                    "ignoring timewheel.lateThresholdMillis=" + value + ": not a positive number of milliseconds");
        }
        return DEFAULT_LATE_THRESHOLD_NANOS;
    }

    private static long defaultTickNanos() {
        String value = System.getProperty("timewheel.tickNanos");
        if (value != null) {
            try {
                return TimerWheel.checkTickNanos(Long.parseLong(value.trim()));
            } catch (RuntimeException e) {
                Log.warnOnce("timewheel.tickNanos=" + value, "ignoring timewheel.tickNanos=" + value + ": " + e.getMessage());
            }
        }
        return DEFAULT_TICK_NANOS;
    }
}
