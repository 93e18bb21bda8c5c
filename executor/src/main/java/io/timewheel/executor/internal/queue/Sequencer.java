package io.timewheel.executor.internal.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The numbers that break ties between equal deadlines in one {@link TaskQueue}: tasks due at the same time
 * run in the order they were created, as on STPE, whose {@code sequencer} gives each task its number. The
 * counters are a {@code long[]} the queue holds ({@link #newCounters}), one load away from a producer. Any
 * thread.
 */
final class Sequencer {
    /*
     * Implementation notes
     *
     * What the numbers must do. The queue compares two entries' numbers only when their deadlines are equal
     * (the wheel and the ready queue, with wrap-around: TimerEntry; compareTo and a snapshot's sort, as plain
     * ints, a total order as sorting needs, which differs from the queue's only across a wrap). If A's
     * creation happens before B's and A is due when B is, A's number must be the lower; entries created
     * concurrently may come in either order, even with equal numbers.
     *
     * Why not one counter. STPE takes every number from one AtomicLong, so every schedule on an executor
     * writes one cache line: two threads scheduling at once pass it back and forth on every task
     * (ScheduleCancelBenchmark with -t 2 and -t 4 shows it). Per-thread numbers would write no shared line,
     * but break the order above.
     *
     * A counter per deadline. A task that is not periodic keeps the deadline it was created with (a decorated
     * periodic task's re-queued holder is a new entry, created for its new deadline). Tasks with equal
     * deadlines only have to be ordered among themselves, so each takes its number from the counter its
     * deadline hashes to: equal deadlines, one counter, whose getAndAdd order extends happens-before. Threads
     * whose deadlines differ (the usual case: deadlines are nanoTime readings plus delays) write different
     * cells; two deadlines that share a cell are still ordered correctly, only contended.
     *
     * What it gains, and what it cannot. A cell is written by whichever thread's deadline hashes to it, so
     * with two producers about half the writes still find the line in the other core's cache, where one
     * counter finds it there every time; per-thread numbers would find it there never. That remainder is the
     * price of exact FIFO across threads: a task whose deadline equals one another thread created earlier
     * can only be ordered after it through a write it can find by that deadline, and the threads' deadlines
     * are not theirs alone.
     *
     * Periodic tasks keep their creation number for every run (as STPE's ScheduledFutureTask keeps its
     * sequenceNumber) while their deadline moves, so a later run can tie with a task whose number came from
     * any counter. A periodic task's creation takes n = the largest value of every counter, then raises
     * every counter that is not above n to n + 1 (CAS). If X's creation happens before P's, P's read of X's
     * counter sees X's getAndAdd: n > X's number. If P's happens before X's, X's getAndAdd sees P's raise: X's
     * number > n. Between two periodic tasks, the later one reads the earlier one's raise. The cost, a pass
     * over the cells, is paid once per periodic task, not per run.
     *
     * Wrap-around. Counters are longs; entries keep the low 32 bits, compared by difference, so two numbers
     * compare correctly while their counters' values were less than 2^31 apart: from one counter, while
     * fewer than 2^31 tasks on that counter came between them (with one counter: on the executor); across
     * counters (a periodic task against another), the counters drift apart by at most the tasks created
     * since a periodic creation last brought them level.
     *
     * Layout as QueuedCount's: cells PAD longs (128 bytes) apart in one long[], the first one PAD in.
     */

    /** Longs per cell: 16 * 8 = 128 bytes. */
    private static final int PAD = 16;
    /** Log2 of the number of cells: 2^4 = 16 cells (the hash takes its top LOG_CELLS bits). */
    private static final int LOG_CELLS = 4;

    private Sequencer() {
    }

    /** A queue's counters: cell i's at (i + 1) * PAD. Any thread, atomically; values only grow. */
    static long[] newCounters() {
        return new long[((1 << LOG_CELLS) + 1) * PAD];
    }

    /** The number of a task created now whose deadline stays {@code deadline} while it is queued. */
    static int next(long[] counters, long deadline) {
        long number = (long) CELL.getAndAdd(counters, index(deadline), 1L);
        return (int) number;
    }

    /** The number of a task created now that keeps it whatever deadlines it takes (a periodic task). */
    static int nextForAnyDeadline(long[] c) {
        long n = 0;
        for (int i = PAD; i < c.length; i += PAD) {
            n = Math.max(n, (long) CELL.getVolatile(c, i));
        }
        for (int i = PAD; i < c.length; i += PAD) {
            for (long seen = (long) CELL.getVolatile(c, i); seen <= n; seen = (long) CELL.getVolatile(c, i)) {
                if (CELL.compareAndSet(c, i, seen, n + 1)) {
                    break;
                }
            }
        }
        return (int) n;
    }

    /** The index of the counter of {@code deadline}: a multiplicative hash, so nearby deadlines spread. */
    static int index(long deadline) {
        return ((int) ((deadline * 0x9E3779B97F4A7C15L) >>> (64 - LOG_CELLS)) + 1) * PAD;
    }

    // VarHandles
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
}
