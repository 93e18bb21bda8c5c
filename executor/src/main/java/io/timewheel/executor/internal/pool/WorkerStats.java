package io.timewheel.executor.internal.pool;

import io.timewheel.executor.ExecutorStatistics;
import io.timewheel.executor.internal.queue.ReadyQueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's punctuality counts (a cell of the executor's statistics), and the slot through which the
 * ready queue hands the worker the times of the entry it takes. Written by its worker thread only; read by
 * any thread (statistics), summed over the pool's workers.
 */
public final class WorkerStats extends ReadyQueue.Slot {
    /*
     * Implementation notes
     *
     * Why per worker. Every started task is counted: a shared counter would be a cache line that every
     * worker writes per task. Each worker writes its own cell instead, with plain writes (no CAS, no fence,
     * no allocation), and a reader sums the cells (WorkerPool.statistics). One long[] per worker holds every
     * count, with PAD longs (128 bytes) before and after, so that two workers' cells never share a cache line
     * (nor an adjacent-line prefetch pair).
     *
     * Reading. A reader (any thread) reads the counts with getOpaque: never a value older than one it read
     * before, but possibly a few tasks behind the worker, and not torn on a 64-bit JVM (the worker's writes
     * are plain, which JLS 17.7 lets a JVM split in two). A count the worker wrote before a task's run is seen
     * by whoever sees that run's outcome (the run's completion is a release the reader acquires), which is
     * what tests on a manual clock rely on.
     *
     * The slot (deadline, readyAt, takenAt, idleWorkers): written by the worker thread inside
     * ReadyQueue.take, under the ready queue's lock, for the entry take returns; read by the same thread
     * right after (record). period: written and read by the worker thread only (the fixed-rate period of the
     * run in progress, 0 if none), for the overrun check after the run.
     *
     * When a worker exits, the pool adds its counts into a retired cell (under the pool's mainLock), so the
     * totals survive the worker (WorkerPool.processWorkerExit).
     */

    /** Longs of padding on each side of the counts: 16 * 8 = 128 bytes. */
    private static final int PAD = 16;
    public static final int BUCKETS = ExecutorStatistics.BUCKETS;
    /** Index of the lateness histogram's bucket 0, then the hand-over's, then the worker wait's. */
    public static final int LATENESS = PAD, HAND_OVER = LATENESS + BUCKETS, WORKER_WAIT = HAND_OVER + BUCKETS;
    /** Runs late by the threshold or more; fixed-rate runs started a period late; fixed-rate runs longer than their period. */
    public static final int LATE = WORKER_WAIT + BUCKETS, MISSED = LATE + 1, OVERRUNS = LATE + 2;
    private static final int LENGTH = OVERRUNS + 1 + PAD;

    /** The counts (see the indices). Written by the owning worker (plainly), read by any thread (opaque). */
    private final long[] counts = new long[LENGTH];

    /** The fixed-rate period of the run in progress, 0 if none (see the notes). Worker thread only. */
    long period;

    /**
     * ExecutorStatistics.bucketOf, defined here: the worker's first run would otherwise load and link that
     * class (the statistics' reader side) on the worker's critical path, between a deadline and its run.
     */
    public static int bucketOf(long nanos) {
        return nanos <= 0 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(nanos);
    }

    /**
     * Counts the run of the entry just taken (the slot holds its times): its lateness and the two parts, late
     * beyond {@code threshold}, and a missed fixed-rate period ({@code fixedRatePeriod > 0}). Worker thread.
     *
     * @return its lateness
     */
    long record(long threshold, long fixedRatePeriod) {
        long lateness = takenAt - deadline; // >= 0 but for an entry taken ahead (QueueEntry.takeAheadNanos): bucket 0
        long handOver = readyAt - deadline;
        if (handOver < 0) {
            handOver = 0; // in the ready queue before its deadline
        } else if (handOver > lateness) {
            handOver = lateness; // clocks of two threads a hair apart: the parts must still add up
        }
        long[] c = counts;
        c[LATENESS + bucketOf(lateness)]++;
        c[HAND_OVER + bucketOf(handOver)]++;
        c[WORKER_WAIT + bucketOf(lateness - handOver)]++;
        if (lateness >= threshold) {
            c[LATE]++;
        }
        if (fixedRatePeriod > 0 && lateness >= fixedRatePeriod) {
            c[MISSED]++;
        }
        period = fixedRatePeriod;
        return lateness;
    }

    /** After a run: counts an overrun if a fixed-rate run took longer than its period. Worker thread. */
    void afterRun(long now) {
        if (period > 0) {
            if (now - takenAt > period) {
                counts[OVERRUNS]++;
            }
            period = 0;
        }
    }

    /** Adds every count of this cell to {@code into} (a reader's or the retired workers' sum). Any thread. */
    void addTo(long[] into) {
        long[] c = counts;
        for (int i = LATENESS; i <= OVERRUNS; i++) {
            into[i] += (long) COUNT.getOpaque(c, i);
        }
    }

    /** A zeroed array to sum cells into ({@link #addTo}), indexed as the cells are. */
    static long[] newSum() {
        return new long[LENGTH];
    }

    /** Adds a sum into this cell (the retired cell, under the pool's mainLock). */
    void add(long[] sum) {
        long[] c = counts;
        for (int i = LATENESS; i <= OVERRUNS; i++) {
            COUNT.setOpaque(c, i, c[i] + sum[i]);
        }
    }

    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);
}
