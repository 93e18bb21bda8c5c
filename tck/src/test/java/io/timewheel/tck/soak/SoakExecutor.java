package io.timewheel.tck.soak;

import io.timewheel.executor.WheelScheduledExecutorService;
import io.timewheel.tck.Impl;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One executor of a round and what the oracle needs to know about it: when its first shutdown began,
 * whether its delayed-task policy ever dropped delayed tasks, its shutdownNow calls, how many bodies ran
 * on it, and how many queue elements that are none of the round's known futures were taken
 * out by the caller (the wrappers of execute()d commands and of invokeAll / invokeAny tasks).
 */
final class SoakExecutor {
    final int index;
    final ScheduledThreadPoolExecutor executor;
    final String description;
    /** Set (before the call) by the first shutdown, shutdownNow or close; then firstShutdownStart is valid. */
    volatile boolean shutdownBegan;
    volatile long firstShutdownStart;
    /** shutdownNow calls that returned, and when the last one returned (valid once shutdownNows > 0). */
    final AtomicInteger shutdownNows = new AtomicInteger();
    volatile long lastShutdownNowEnd;
    /** Set before any call that sets executeExistingDelayedTasksAfterShutdownPolicy to false. */
    volatile boolean delayedEverDropped;
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
    SoakExecutor(Impl impl, int index, int core, boolean dedicatedTick, ThreadFactory factory, SoakHooks hooks) {
        this.index = index;
        this.hooks = hooks;
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

    /** Call after a shutdownNow returned. */
    synchronized void shutdownNowReturned() {
        lastShutdownNowEnd = System.nanoTime();
        shutdownNows.incrementAndGet();
    }

    @Override
    public String toString() {
        return description;
    }
}
