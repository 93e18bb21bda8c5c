package io.timewheel.executor.internal;

import java.util.function.LongSupplier;

/**
 * The tick thread's courtesy to the workers: during a long stint of work (a hand-over, a flood of schedules
 * to file) it gives its CPU away every {@link #PACE_NANOS}, within a budget per loop. Tick thread only.
 */
public final class Pacer implements Runnable {
    /*
     * Implementation notes
     *
     * Why. On Linux a worker about to block wakes the tick thread for a deferred hand-over (TickThread's notes:
     * Deferred), and the kernel places the woken thread on the waker's CPU; the worker's own timed wake-up,
     * microseconds later, then finds the tick thread running there and waits behind its whole stint, even
     * while another CPU is idle. A yield makes the yielding thread give way to the threads runnable on its
     * CPU, and costs one system call when there are none. So the tick thread works in pieces of PACE_NANOS,
     * and a worker queued behind it waits for a piece, not for the stint. Whether pacing pays is decided by
     * bench `punctuality warm` and `lateness` (a dense stream of timers falling due during hand-overs), run
     * with and without it.
     *
     * What. The tick thread calls begin() at the start of each loop (it has just woken or looks again) and
     * run() after every few entries it moves: TimerWheel.PACE_ENTRIES entries of an advance (the wheel's
     * pacer, set by QueueWheel.pace), STEP_ENTRIES entries read from the inbox or taken from the wheel for a
     * hand-over (step(): TickThread.drainInbox, HandOverBatch.takeExpired). run() reads the clock and yields
     * if PACE_NANOS have passed since the stint began (begin or the last yield). Never under a lock: the tick
     * thread holds none while it reads its inbox, advances a wheel or gathers a hand-over (it takes the ready
     * queue's lock for the splice alone, which is not paced).
     *
     * Budget. Behind CPU-bound threads a yield can cost a scheduler slice (milliseconds) instead of
     * microseconds, and a hand-over must reach the workers within the margin (TickThread.MARGIN_NANOS -
     * DEFER_NANOS, 125.8 ms). So the time spent in yields is summed per loop, and once it passes BUDGET_NANOS
     * the rest of the loop runs without yielding: pacing delays a loop by at most BUDGET_NANOS plus one yield.
     *
     * Time is real time (System.nanoTime, or the clock given), not the executor's NanoClock: a stint is CPU
     * time on a real machine; a test's manual clock standing still would only mean no yields.
     *
     * Ownership: clock and yield immutable; stint, yielded, steps and yields tick thread only (a pacer is
     * one tick thread's, or one test's).
     */

    /**
     * How long the tick thread works before it gives its CPU away: 2^14 ns = 16.4 us. GiveWay.LAG_NANOS is the
     * same constant, for another rule (GiveWay's notes say why two).
     */
    public static final long PACE_NANOS = 1L << 14;
    /** Yields take at most about this much of one loop: 2^20 ns = 1.05 ms (see the notes: Budget). */
    static final long BUDGET_NANOS = 1L << 20;
    /** How many entries step() counts between two looks at the clock: 16. */
    static final int STEP_ENTRIES = 16;

    /** The clock, or null for System.nanoTime (no lambda on a fresh JVM's first executor path). Immutable. */
    private final LongSupplier clock;
    /** The yield, or null for Thread.yield. Immutable. */
    private final Runnable yield;
    /** When the current stint began: begin() or the last yield's return. Tick thread only. */
    private long stint;
    /** Time spent in yields since begin(). Tick thread only. */
    private long yielded;
    /** Entries counted by step() since run() last ran from it. Tick thread only. */
    private int steps;
    /** Yields so far, for the tests (yields()). Tick thread only. */
    private long yields;

    /** The tick thread's pacer: System.nanoTime, Thread.yield. */
    public Pacer() {
        this(null, null);
    }

    /** A pacer on a clock and a yield of the caller's: PacerTest's (the tick thread's is {@link #Pacer()}). */
    public Pacer(LongSupplier clock, Runnable yield) {
        this.clock = clock;
        this.yield = yield;
        begin();
    }

    /** A new loop of the tick thread: a new stint, a new budget. */
    public void begin() {
        stint = now();
        yielded = 0;
        steps = 0;
    }

    /** One more entry moved: looks at the clock after every STEP_ENTRIES of them. */
    public void step() {
        if (++steps == STEP_ENTRIES) {
            steps = 0;
            run();
        }
    }

    /** Yields if the stint has lasted PACE_NANOS and the loop's budget is not spent (see the notes). */
    @Override
    public void run() {
        long now = now();
        if (now - stint >= PACE_NANOS && yielded < BUDGET_NANOS) {
            if (yield == null) {
                Thread.yield();
            } else {
                yield.run();
            }
            yields++;
            long after = now();
            yielded += after - now;
            stint = after;
        }
    }

    private long now() {
        return clock == null ? System.nanoTime() : clock.getAsLong();
    }

    /**
     * Yields so far. Tick thread only: the tests read it through their seam, on the tick thread
     * (TickProbe.sync's pacerYields), or, PacerTest, on the thread that drives its own pacer.
     */
    public long yields() {
        return yields;
    }
}
