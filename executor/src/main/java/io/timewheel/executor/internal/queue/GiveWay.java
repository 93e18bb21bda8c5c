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
     * The case. One thread schedules a flood of near-term timers while the other CPUs are busy (a JIT
     * compiler thread, another application thread). The kernel queues the worker it wakes, or the one a
     * thread factory starts, on the producer's CPU, and the worker does not run until the producer's time
     * slice ends or it blocks: the timers due in the flood's first milliseconds are late by the rest of it.
     *
     * The rule. After its push, under the queue's lock, the pusher looks at the head: if it is overdue by
     * more than LAG_NANOS, the pusher yields its CPU once after unlocking, at most once per interval per
     * queue. Where the worker is cannot be told from the queue (a thread not yet started, or woken and not
     * yet run, is neither waiting in take nor queued on the lock: a rule that asked for either would not
     * yield in the case above), so the rule asks only that the head be overdue. The next yield may come
     * LAG_NANOS after the last one if a head has been polled since, else after an interval that doubles
     * with each yield made without a poll between, up to MAX_INTERVAL_NANOS: the workers are then all busy
     * running tasks, or starved elsewhere, and a yield would hand the pusher's CPU to unrelated threads.
     *
     * Pacer throttles the tick thread's yields at the same 2^14 ns, as a second rule because it decides from
     * its own stint and budget per loop, where a pusher decides from this queue's head under its lock.
     *
     * Cost. A push while nothing is overdue: one comparison. While the workers run late but keep taking: a
     * yield (a system call, and the CPU handed to them) per LAG_NANOS of a pusher's time; while they take
     * nothing, one per MAX_INTERVAL_NANOS. ExpiryBenchmark (one thread scheduling a million timers due within
     * a second while the workers run behind) shows it as producer time, which is the CPU the workers got.
     * Rejected: yielding only if no head was polled for an interval, so that workers running late but taking
     * cost no yield: a worker sharing the producer's CPU takes a few heads per time slice, which counts as
     * progress, and falls behind (`punctuality warm`, its worst rounds' max, decides it).
     *
     * State: when a pusher last yielded (yieldedAt), the interval after it (every), heads polled (polled) and
     * their count at that yield (polledAtYield), all guarded by the queue's lock like the rest of the queue.
     * The counts wrap; only equality is asked of them.
     */

    /**
     * How overdue the head must be before a pusher yields, and the shortest interval between two yields:
     * 2^14 ns = 16.4 us, the tick thread's pace (Pacer.PACE_NANOS).
     */
    static final long LAG_NANOS = Pacer.PACE_NANOS;
    /** The longest interval, reached while the workers take nothing between yields: 2^24 ns = 16.8 ms. */
    static final long MAX_INTERVAL_NANOS = 1L << 24;

    /** When a pusher last yielded, its clock reading. Guarded by the queue's lock. */
    private long yieldedAt;
    /** The interval after yieldedAt before the next yield, if no head was polled since. Guarded by the queue's lock. */
    private long every = LAG_NANOS;
    /** Heads polled so far, and their count at the last yield. Guarded by the queue's lock. */
    private int polled, polledAtYield;

    /** As if a pusher had yielded an interval before {@code now}: the first overdue look yields. */
    GiveWay(long now) {
        this.yieldedAt = now - LAG_NANOS;
    }

    /** The queue polled a head (a worker took it, or a stale or dead head was dropped). */
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
