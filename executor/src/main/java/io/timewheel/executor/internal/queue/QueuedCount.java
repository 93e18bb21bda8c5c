package io.timewheel.executor.internal.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The number of entries queued in one {@link TaskQueue}, striped so that threads scheduling and cancelling
 * at once do not fight over one cache line. Any thread.
 */
final class QueuedCount {
    /*
     * Implementation notes
     *
     * Why striped. Every schedule counts an entry in and every cancel or take counts it out: with one
     * AtomicLong, two producer threads pass its cache line back and forth twice per schedule+cancel
     * (ScheduleCancelBenchmark with -t 2). Here each thread counts in a cell of its own (picked by thread id;
     * two threads may share one, which is correct, only slower), as LongAdder does.
     *
     * Monotonic cells. A cell holds two counters that only grow: in (entries counted in by threads of this
     * cell) and out (entries counted out). An entry is counted out only after it was counted in (the one
     * who counts it out has seen it queued), so at every instant the sum of all ins minus the sum of all
     * outs is the exact number of queued entries and is never negative.
     *
     * Reading without a lock. A reader cannot read all cells at one instant, but monotonic counters give
     * bounds on the count at every instant t between two passes over the cells:
     *   upper = ins read after t  - outs read before t  >= count(t)
     *   lower = ins read before t - outs read after t   <= count(t)
     * So isEmpty() reads outs, then ins, then outs again: if upper <= 0 the queue was empty at the instant
     * between the first two passes (a linearizable "empty"); if lower > 0 it was non-empty at the instant
     * between the last two (a linearizable "non-empty"); otherwise the count crossed zero while it read, and it
     * tries again. Termination and the workers' exit rule decide on isEmpty(), so "the queue is empty" means
     * what it means for ThreadPoolExecutor's queue. sum() repeats passes until two agree (then the value was
     * the count at the instant between them); while producers keep counting it settles for the value at
     * which lower and upper meet, or after a few passes for a value between them: a monitoring answer,
     * never negative.
     *
     * Cancels. A cancel counts its entry out in a second out counter of the cell (outCancelled, right after
     * out): the same one atomic add on the same cache line as any other count out, and the cancels are
     * counted for the executor's statistics at no cost (cancelled() sums them). Every out sum adds both.
     *
     * Layout: cells are PAD longs apart in one long[] (128 bytes: no false sharing, also against the
     * adjacent-line prefetcher), the first cell one PAD in, away from the array header.
     */

    /** Longs per cell: 16 * 8 = 128 bytes. */
    private static final int PAD = 16;
    /** The number of cells, a power of two: 16 cells of 128 bytes, about 2 KB per queue. */
    private static final int CELLS = 16;
    /** Passes sum() makes before it settles for a value between the bounds. */
    private static final int SUM_PASSES = 8;

    /**
     * Cell i: its in counter at (i + 1) * PAD, its out counter right after, then its outCancelled counter.
     * Any thread, atomically (getAndAdd; read with getVolatile).
     */
    private final long[] cells;
    /** CELLS - 1. Immutable. */
    private final int mask;

    QueuedCount() {
        // CELLS cells whatever the CPU count: two busy threads share a cell with a chance of 1 in 16, as two
        // share an inbox stripe (StripedInbox; bench mode `stripes` shows what sharing costs)
        int n = CELLS;
        this.mask = n - 1;
        this.cells = new long[(n + 1) * PAD];
    }

    /** The in counter's index of the calling thread's cell. */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19; both read the same field
    private int cell() {
        long id = Thread.currentThread().getId();
        return (((int) id & mask) + 1) * PAD;
    }

    /** Counts an entry in (before it is published to the queue). */
    void increment() {
        CELL.getAndAdd(cells, cell(), 1L);
    }

    /** Counts an entry out (by whoever took it out of the queue). */
    void decrement() {
        CELL.getAndAdd(cells, cell() + 1, 1L);
    }

    /** Counts an entry out that a cancel of its future took out of the queue (see the notes). */
    void decrementCancelled() {
        CELL.getAndAdd(cells, cell() + 2, 1L);
    }

    /** The entries counted out by cancels so far (a monitoring sum: exact when no cancel runs meanwhile). */
    long cancelled() {
        long[] c = cells;
        long sum = 0;
        for (int i = PAD + 2; i < c.length; i += PAD) {
            sum += (long) CELL.getVolatile(c, i);
        }
        return sum;
    }

    /** Whether the queue is empty, at one instant during the call (see the notes). */
    boolean isEmpty() {
        long outs = outs();
        for (;;) {
            long ins = ins();
            if (ins - outs <= 0) {
                return true;
            }
            long outsAfter = outs();
            if (ins - outsAfter > 0) {
                return false;
            }
            outs = outsAfter;
            Thread.onSpinWait();
        }
    }

    /** The number of queued entries: exact when nothing counts meanwhile, else a value between the bounds. */
    long sum() {
        long outs = outs();
        long ins = ins();
        for (int pass = 1; ; pass++) {
            long outsAfter = outs();
            long insAfter = ins();
            if (outsAfter == outs && insAfter == ins) {
                return ins - outs; // nothing changed between the passes
            }
            long lower = ins - outsAfter; // ins read before, outs read after the instant between the passes
            long upper = insAfter - outs;
            if (lower == upper || pass == SUM_PASSES) {
                return Math.max(0L, Math.max(lower, Math.min(upper, insAfter - outsAfter)));
            }
            outs = outsAfter;
            ins = insAfter;
        }
    }

    private long ins() {
        long[] c = cells;
        long sum = 0;
        for (int i = PAD; i < c.length; i += PAD) {
            sum += (long) CELL.getVolatile(c, i);
        }
        return sum;
    }

    private long outs() {
        long[] c = cells;
        long sum = 0;
        for (int i = PAD + 1; i < c.length; i += PAD) {
            sum += (long) CELL.getVolatile(c, i) + (long) CELL.getVolatile(c, i + 1);
        }
        return sum;
    }

    // VarHandles
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
}
