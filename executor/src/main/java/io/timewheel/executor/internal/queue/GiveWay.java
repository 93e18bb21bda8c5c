package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.Pacer;

/**
 * Whether a thread that has just pushed into a {@link ReadyQueue} yields its CPU to the workers: while the
 * queue's head is overdue, once per interval, the interval growing while the workers take nothing. One per
 * queue; not thread safe: the queue's lock guards it.
 */
final class GiveWay {
    /*
     * Implementation notes
     *
     * The case (2026-11-27). One thread schedules a flood of near-term timers (20k of 1-100 ms in ~2 ms) while
     * the other CPU is busy (a JIT compiler thread, in the warm rounds of issue 24's shape). The kernel queues
     * the worker (new, or woken) on the producer's CPU, and the worker does not run until the producer's time
     * slice ends or it blocks: in 38 of 80 warm rounds (JDK 17) timewheel's worker ran no task during the
     * flood (STPE's in 34), and the timers due in the flood's first milliseconds were late by the rest of it (a
     * round's max over 1 ms in 50 rounds; STPE 30). With the rule below the worker ran during every flood and
     * the max passed 1 ms in 15 of 80 rounds (STPE 31; JDK 25: 40 -> 17, STPE 35-38; bench/probes/WarmFlood.java,
     * bench/results/jdk17/give-way.txt).
     *
     * The rule. After its push, under the queue's lock, the pusher looks at the head: if it is overdue by more
     * than LAG_NANOS (16.4 us, the tick thread's pace, Pacer.PACE_NANOS), the pusher yields its CPU once after
     * unlocking, at most once per interval per queue. Where the worker is cannot be told from the queue (a
     * thread not yet started, or woken and not yet run, is neither waiting in take nor queued on the lock: a
     * rule that asked for either never yielded in those floods), so the rule asks only that the head be
     * overdue. The interval is LAG_NANOS after a yield if a head was polled since the one before, and doubles
     * with each yield while none was, up to MAX_INTERVAL_NANOS (16.8 ms): the workers are then all busy running
     * tasks, or starved elsewhere, and a yield would hand the pusher's CPU to unrelated threads.
     *
     * Cost. A push while nothing is overdue: one comparison. While the workers run late but keep taking: a
     * yield (a system call, and the CPU handed to them) per LAG_NANOS of a pusher's time; while they take
     * nothing, one per 16.8 ms. ExpiryBenchmark (one thread scheduling 1M timers due within 1 s while the
     * workers run behind) measures the producer's time: 3% slower with this rule (JDK 17, slower in each of 6
     * rounds; give-way.txt, section 6), which is the CPU the workers got.
     *
     * Rejected: yield only if no head was polled for an interval (the workers made no progress), so that
     * workers running late but taking would cost no yield. ExpiryBenchmark 1% faster than this rule (JDK 17,
     * 4 rounds); but a worker sharing the producer's CPU takes a few heads per time slice, which counts as
     * progress, and falls behind: in WarmFlood on JDK 25 the worst round of each JVM had its max at 2.9-4.7 ms
     * (median 3.96, 10 JVMs) against 2.1-3.9 ms (median 2.7) with this rule, the warm goal's measure (STPE's
     * worst rounds in the same JVMs were later too, by less; give-way.txt, section 7).
     *
     * State: when a pusher last yielded (yieldedAt), the interval after it (every), heads polled (polled) and
     * their count at that yield (polledAtYield), all guarded by the queue's lock like the rest of the queue, so
     * there is no new race. The counts wrap; only equality is asked of them.
     */

    /**
     * How overdue the head must be before a pusher yields, and the shortest interval between two yields:
     * 2^14 ns = 16.4 us, the tick thread's pace (Pacer.PACE_NANOS).
     */
    static final long LAG_NANOS = Pacer.PACE_NANOS;
    /** The longest interval, reached while the workers take nothing between yields: 2^24 ns = 16.8 ms. */
    static final long MAX_INTERVAL_NANOS = 1L << 24;

    /** When a pusher last yielded, its clock reading. */
    private long yieldedAt;
    /** The interval after yieldedAt before the next yield, if no head was polled since. */
    private long every = LAG_NANOS;
    /** Heads polled so far, and their count at the last yield. */
    private int polled, polledAtYield;

    /** As if a pusher had yielded an interval before {@code now}: the first overdue look yields. */
    GiveWay(long now) {
        this.yieldedAt = now - LAG_NANOS;
    }

    /** The queue polled a head (a worker took it). */
    void polled() {
        polled++;
    }

    /**
     * After a push at {@code now}, the queue's head due at {@code headDeadline}: whether the pusher yields
     * its CPU once it has unlocked (see the notes).
     */
    boolean afterPush(long headDeadline, long now) {
        long interval = polled != polledAtYield ? LAG_NANOS : every; // a poll since the last yield: reset
        if (now - headDeadline <= LAG_NANOS || now - yieldedAt < interval) {
            return false;
        }
        yieldedAt = now;
        every = backOff(interval);
        polledAtYield = polled;
        return true;
    }

    /** The interval after a yield made {@code every} after the one before: twice that, up to the cap. */
    static long backOff(long every) {
        return Math.min(every << 1, MAX_INTERVAL_NANOS);
    }
}
