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
     * Deferred), and the kernel places the woken thread on the waker's CPU; the worker's own timed wake-up a
     * few microseconds later then finds the tick thread running there and waits behind it, while the other
     * CPU stays idle. In `lateness`'s shape (100k timers of 1-500 ms, 200 falling due per ms) a perf sched
     * trace of 12 rounds (JDK 17, before this class) showed the tick thread placed on the running worker's CPU
     * in 517 of ~730 wake-ups after the flood with the other CPU idle, and the worker runnable behind it for
     * 65.7 ms in all (61.2 of them with the other CPU idle), against 43 ms of waiting in all for STPE's worker
     * behind anything; a hand-over (~800 entries, ~220 us of this thread, most of it cache misses on cold
     * entries) ran in ~60 us pieces between the worker's tasks (bench/probes/sched-placement.py,
     * bench/results/jdk17/pacer.txt). A yield makes the yielding thread give way to the others runnable on its
     * CPU, and costs a system call (~0.3-1 us) when there are none. Measured in that shape, builds alternating
     * (bench/results/jdk17/pacer.txt): the median per-round p99 against STPE's in the same JVMs went from 1.41x
     * to 0.70x on JDK 25 and from 1.46x to 0.97x on JDK 17 (`punctuality warm`, 5 JVMs x 23 rounds per build);
     * in the probe's rounds (bench/probes/Late500.java) the timers late by over 0.12 ms fell by a third after
     * the flood and by a third to a half during it. A trace of the paced build under perf (whose own cost
     * per scheduler event is large) did not show the tick thread's pieces shorter: the figures, not the
     * trace, are the evidence.
     *
     * What. The tick thread calls begin() at the start of each loop (it has just woken or looked again) and
     * run() after every few entries it moves: TimerWheel.PACE_ENTRIES entries of an advance (the wheel's
     * pacer), STEP_ENTRIES entries read from the inbox or taken from the wheel for a hand-over (step()). run()
     * reads the clock and yields if PACE_NANOS have passed since the stint began (begin or the last yield).
     * Never under a lock: the tick thread holds none while it reads its inbox, advances a wheel or gathers a
     * hand-over (the ready queue's lock is taken for the splice alone, which is not paced).
     *
     * Budget. Behind CPU-bound threads a yield can cost a scheduler slice (milliseconds) instead of
     * microseconds, and a hand-over has to reach the workers within the margin (TickThread.MARGIN_NANOS -
     * DEFER_NANOS, 125.8 ms). So the time spent in yields is summed per loop, and once it passes BUDGET_NANOS
     * the rest of the loop runs without yielding: pacing delays a loop by at most BUDGET_NANOS plus one yield.
     *
     * Time is real time (System.nanoTime through the clock given), not the executor's NanoClock: a stint is CPU
     * time on a real machine; a test's manual clock standing still would only mean no yields.
     */

    /** How long the tick thread works before it gives its CPU away: 2^14 ns = 16.4 us. */
    public static final long PACE_NANOS = 1L << 14;
    /** Yields take at most about this much of one loop: 2^20 ns = 1.05 ms (see the notes: Budget). */
    static final long BUDGET_NANOS = 1L << 20;
    /** How many entries step() counts between two looks at the clock. */
    static final int STEP_ENTRIES = 16;

    /** The clock, or null for System.nanoTime (no lambda on a fresh JVM's first executor path: ColdStartTest). */
    private final LongSupplier clock;
    /** The yield, or null for Thread.yield. */
    private final Runnable yield;
    /** When the current stint began: begin() or the last yield's return. */
    private long stint;
    /** Time spent in yields since begin(). */
    private long yielded;
    /** Entries counted by step() since run() last ran from it. */
    private int steps;
    /** Yields so far (tests, statistics). */
    private long yields;

    /** The tick thread's pacer: System.nanoTime, Thread.yield. */
    public Pacer() {
        this(null, null);
    }

    /** For tests: a clock and a yield of one's own. */
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

    /** Yields so far. Tick thread only (tests read it through a Sync). */
    public long yields() {
        return yields;
    }
}
