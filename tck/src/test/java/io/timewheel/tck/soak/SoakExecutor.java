package io.timewheel.tck.soak;

import io.timewheel.executor.WheelScheduledExecutorService;
import io.timewheel.tck.Impl;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One executor of a round and what the oracle needs to know about it: when its first shutdown began,
 * whether and since when a shutdown pass may have dropped its delayed tasks, its shutdownNow calls and how
 * many workers could hold a task when the pool stopped, how many bodies ran on it, and how many queue
 * elements that are none of the round's known futures were taken out by the caller (the wrappers of
 * execute()d commands and of invokeAll / invokeAny tasks).
 */
final class SoakExecutor {
    /*
     * Implementation notes
     *
     * The delayed-task policy as the executor acts on it. STPE drops queued one-shots only in onShutdown,
     * which reads executeExistingDelayedTasksAfterShutdown once and cancels each one-shot whose getDelay is
     * then positive. onShutdown runs in shutdown() (and so close()), in setExecuteExistingDelayedTasks-
     * AfterShutdownPolicy(false) and in setContinueExistingPeriodicTasksAfterShutdownPolicy(false) once the
     * executor is shut down (the latter with whatever the delayed policy is then); shutdownNow does not call
     * it. Anywhere else a one-shot runs if due (ScheduledFutureTask.run: canRunInCurrentRunState is true for
     * a task whose delay has passed, unless the pool is STOP). So a pass "may drop" if it may have read false,
     * and it can drop only tasks not yet due when it began.
     *
     * The policy setters are serialized by policyLock (their order among themselves is not what is tested),
     * so delayedPolicy, written after each call under the lock, is the executor's value whenever no setter is
     * in flight; writingFalse is set before and cleared after a call that writes false. A shutdown or close
     * first writes shutdownBegan, then reads delayedPolicy and writingFalse; a setter call that writes false
     * first writes writingFalse, then reads shutdownBegan after the call. All volatile, so one of the two
     * sees the other (as in Dekker's protocol): a pass that reads false from the executor is always recorded
     * (mayDrop), by the pass or by the setter. Recorded with a lower bound of when it read the policy.
     *
     * Workers that may hold a task when the pool stops: a worker takes a task, then run() checks the run
     * state and cancels the task if the pool is STOP (ScheduledFutureTask.run). Once STOP, getTask returns
     * null before taking anything, so only the shutdownNow that moves the pool to STOP matters (the first
     * one; later ones find it stopped), and each worker alive then holds at most one such task. A worker
     * whose body is running when that shutdownNow returned passed its check before STOP and holds none.
     */

    private final Object policyLock = new Object();
    /** The delayed-task policy after the last setter call; written under policyLock. */
    private volatile boolean delayedPolicy = true;
    /** A setter call writing false is in flight; written under policyLock. */
    private volatile boolean writingFalse;
    /** A shutdown pass may have read a false delayed-task policy; then dropPassSince is valid. */
    volatile boolean delayedMayBeDropped;
    /** System.nanoTime() at or before the earliest read of a false policy by a shutdown pass. */
    volatile long dropPassSince;

    /** Every thread the executor's factory made, in order. */
    private final List<Thread> workers = new CopyOnWriteArrayList<>();
    /** The SoakTask body each worker thread is running now, if any. */
    private final ConcurrentHashMap<Thread, SoakTask> bodies = new ConcurrentHashMap<>();
    /** Workers that may have held a task when the pool stopped (see the notes); summed over shutdownNow calls. */
    final AtomicInteger mayHoldAtStop = new AtomicInteger();
    /** When the last shutdownNow call that may have stopped the pool returned (valid once shutdownNows > 0). */
    volatile long stoppingCallEnd;

    final int index;
    final ScheduledThreadPoolExecutor executor;
    final String description;
    /** Set (before the call) by the first shutdown, shutdownNow or close; then firstShutdownStart is valid. */
    volatile boolean shutdownBegan;
    volatile long firstShutdownStart;
    /** shutdownNow calls that returned. */
    final AtomicInteger shutdownNows = new AtomicInteger();
    final LongAdder bodyRuns = new LongAdder();
    /** Queue elements taken out for sure (remove, poll, drainTo, shutdownNow) that are no known future. */
    final LongAdder unknownTaken = new LongAdder();
    /** Queue elements perhaps taken out (the iterator's remove) that are no known future. */
    final LongAdder unknownMaybeTaken = new LongAdder();
    /** execute()d commands whose call overlapped the first shutdown (may be cancelled by a racing shutdown). */
    final LongAdder executesRacingShutdown = new LongAdder();

    /** The hooks of a subclassed executor, or null. */
    final SoakHooks hooks;

    /** {@code hooks}: a subclass with these hooks (on the wheel: with the shared tick thread), or null. */
    SoakExecutor(Impl impl, int index, int core, boolean dedicatedTick, ThreadFactory threads, SoakHooks hooks) {
        this.index = index;
        this.hooks = hooks;
        ThreadFactory factory = r -> {
            Thread t = threads.newThread(r);
            workers.add(t);
            return t;
        };
        if (hooks != null) {
            this.executor = impl.subclass(core, factory, hooks);
            this.description = "e" + index + "(core " + core + ", " + hooks.describe() + ")";
        } else if (impl == Impl.WHEEL) {
            this.executor = WheelScheduledExecutorService.builder().corePoolSize(core).threadFactory(factory)
                    .dedicatedTickThread(dedicatedTick).build();
            this.description = "e" + index + "(core " + core + (dedicatedTick ? ", dedicated tick" : ", shared tick") + ")";
        } else {
            this.executor = impl.create(core, factory);
            this.description = "e" + index + "(core " + core + ")";
        }
    }

    /** Call before a shutdown, shutdownNow or close. */
    void shutdownBeginning() {
        if (!shutdownBegan) {
            synchronized (this) {
                if (!shutdownBegan) {
                    firstShutdownStart = System.nanoTime();
                    shutdownBegan = true;
                }
            }
        }
    }

    /** Whether a call that ended at {@code callEnd} overlapped (or followed) the first shutdown's start. */
    boolean racedShutdown(long callEnd) {
        return shutdownBegan && callEnd - firstShutdownStart > 0;
    }

    /** Calls shutdownNow, measuring how many workers may have held a task when the pool stopped. */
    List<Runnable> shutdownNow() {
        shutdownBeginning();
        boolean mayStop = shutdownNows.get() == 0; // else an earlier call stopped the pool before this one began
        List<Thread> before = new ArrayList<>(workers); // workers is append-only
        List<Thread> existing = new ArrayList<>();
        for (Thread t : before) {
            if (t.getState() != Thread.State.TERMINATED) {
                existing.add(t);
            }
        }
        List<Runnable> list = executor.shutdownNow();
        Set<Thread> running = new HashSet<>(bodies.keySet());
        if (mayStop) {
            stoppingCallEnd = System.nanoTime();
        }
        shutdownNows.incrementAndGet();
        if (mayStop) {
            List<Thread> after = new ArrayList<>(workers);
            existing.addAll(after.subList(before.size(), after.size())); // made during the call
            existing.removeAll(running);
            mayHoldAtStop.addAndGet(existing.size());
        }
        return list;
    }

    void bodyStarted(Thread worker, SoakTask task) {
        bodies.put(worker, task);
    }

    void bodyEnded(Thread worker, SoakTask task) {
        bodies.remove(worker, task);
    }

    // ---------------------------------------------------------------------------------------------
    // The delayed-task policy (see the notes)

    /** setExecuteExistingDelayedTasksAfterShutdownPolicy(value), recorded. */
    void setDelayedPolicy(boolean value, Violations violations) {
        synchronized (policyLock) {
            long began = System.nanoTime();
            if (!value) {
                writingFalse = true;
            }
            try {
                executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(value);
            } catch (Throwable x) {
                violations.threw("setExecuteExistingDelayedTasksAfterShutdownPolicy(" + value + ") on " + this, x);
            } finally {
                delayedPolicy = value;
                writingFalse = false;
            }
            if (!value && shutdownBegan) {
                mayDrop(began); // its own onShutdown, or a shutdown pass in flight, read false
            }
        }
    }

    /** setContinueExistingPeriodicTasksAfterShutdownPolicy(value), recorded: false after shutdown is a pass. */
    void setPeriodicPolicy(boolean value, Violations violations) {
        synchronized (policyLock) {
            long began = System.nanoTime();
            try {
                executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(value);
            } catch (Throwable x) {
                violations.threw("setContinueExistingPeriodicTasksAfterShutdownPolicy(" + value + ") on " + this, x);
            }
            if (!value && shutdownBegan && !delayedPolicy) {
                mayDrop(began);
            }
        }
    }

    /** Call before a shutdown() or close(): a shutdown pass, which reads the delayed-task policy. */
    void shutdownPassBeginning() {
        long began = System.nanoTime();
        shutdownBeginning();
        if (!delayedPolicy || writingFalse) {
            mayDrop(began);
        }
    }

    private synchronized void mayDrop(long since) {
        if (!delayedMayBeDropped || since - dropPassSince < 0) {
            dropPassSince = since;
            delayedMayBeDropped = true;
        }
    }

    /**
     * Whether a shutdown pass may have dropped a one-shot accepted by a call that ended at {@code callEnd}
     * with this delay: some pass may have read a false policy before the task was due (a pass reads
     * getDelay at or after it began; the executor's trigger time is at most callEnd + delay).
     */
    boolean mayHaveDropped(long callEnd, long delayNanos) {
        return delayedMayBeDropped && delayNanos > 0 && dropPassSince - callEnd < delayNanos;
    }

    @Override
    public String toString() {
        return description;
    }
}
