package io.timewheel.wheel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Issue 26: what the struct-of-arrays level 0 proposed in session 46's note would cost on WheelBenchmark.advance's
 * scenario, measured before it is built, beside TimerWheel in one JVM (rounds alternating). The scenario is
 * WheelAdvanceSteady's and WheelFloor's: 100,000 timers due within 100 ms (all in level 0's two windows at the
 * default tick), expired in 1 ms steps, the same entries every round, only the expiry timed.
 *
 * <p>The design, reduced to what this scenario runs: every level-0 entry has a position in one pool (refs[p],
 * deadlines[p], its location -POOL - p), taken from a free list when it is filed and given back when it leaves;
 * a slot is an int list of positions. When a slot becomes current its positions are keyed from the deadline
 * copies and radix sorted (KeySort, as the sorted run) into the run's order, never touching an entry; each
 * advance hands out the run's head while it is due, touching each entry once (its location written, its
 * position freed). What it leaves out (cascades into level 0, cancels, newcomers merged into the current slot,
 * out-of-memory care) costs nothing in this scenario or little elsewhere. A probe, not part of the build:
 * <pre>
 * javac -d /tmp/lp -cp executor/target/classes bench/probes/Level0Pool.java
 * java -cp executor/target/classes:/tmp/lp io.timewheel.wheel.Level0Pool 600
 * </pre>
 */
public class Level0Pool {
    static final class Entry extends TimerEntry {
        void arm(long deadline) {
            setDeadline(deadline);
        }
    }

    static final long START = 1L << 40, MS = 1_000_000L;
    static final int BATCH = 100_000, SHIFT = 20, SLOTS = 128, POOL = -10;
    static long expired;

    /** The pool and level 0 of the proposed wheel (this scenario's part of it). */
    static final class Pool {
        TimerEntry[] refs = new TimerEntry[16];
        long[] deadlines = new long[16];
        int[] free = new int[16];
        int freeCount, top;
        final int[][] slots = new int[SLOTS][16];
        final int[] slotCounts = new int[SLOTS];
        // the run: positions of the current slot in order, and the sort's scratch
        int[] order = new int[16];
        int head, end;
        long[] keys = new long[16], buffer = new long[16];
        final int[] count = new int[KeySort.WIDE_RADIX + 1];
        long time;
        int currentTick = -1;

        void add(TimerEntry e) {
            int p;
            if (freeCount > 0) {
                p = free[--freeCount];
            } else {
                if (top == refs.length) {
                    refs = java.util.Arrays.copyOf(refs, top * 2);
                    deadlines = java.util.Arrays.copyOf(deadlines, top * 2);
                    free = java.util.Arrays.copyOf(free, top * 2);
                }
                p = top++;
            }
            refs[p] = e;
            long d = e.deadline();
            deadlines[p] = d;
            e.location = POOL - p;
            int slot = (int) (((d - START) >>> SHIFT) % SLOTS);
            int n = slotCounts[slot]++;
            if (n == slots[slot].length) {
                slots[slot] = java.util.Arrays.copyOf(slots[slot], n * 2);
            }
            slots[slot][n] = p;
        }

        /** Moves to now: each tick entered joins the run (sorted, entries untouched); the due head is handed out. */
        void expire(long now) {
            int tick = (int) ((now - START) >>> SHIFT);
            while (currentTick < tick) {
                drain(Long.MAX_VALUE); // the old current slot is wholly due
                currentTick++;
                join(currentTick % SLOTS, START + ((long) currentTick << SHIFT));
            }
            drain(now);
        }

        private void join(int slot, long base) {
            int n = slotCounts[slot];
            slotCounts[slot] = 0;
            if (keys.length < n) {
                keys = new long[n * 2];
                buffer = new long[n * 2];
                order = new int[n * 2];
            }
            int[] list = slots[slot];
            int m = 0;
            for (int i = 0; i < n; i++) {
                int p = list[i];
                if (refs[p] != null) {
                    keys[m++] = ((deadlines[p] - base) << 22) | i; // ties: filing order, as sequences would
                }
            }
            KeySort.radixSort(keys, buffer, count, m, 22, SHIFT);
            for (int i = 0; i < m; i++) {
                order[i] = list[(int) (keys[i] & ((1 << 22) - 1))];
            }
            head = 0;
            end = m;
        }

        private void drain(long now) {
            while (head < end) {
                int p = order[head];
                if (deadlines[p] - now > 0) {
                    return;
                }
                head++;
                TimerEntry e = refs[p];
                refs[p] = null;
                free[freeCount++] = p;
                e.location = TimerEntry.DETACHED;
                expired++;
            }
        }
    }

    public static void main(String[] a) {
        int rounds = Integer.parseInt(a[0]);
        Entry[] entries = new Entry[BATCH];
        for (int i = 0; i < BATCH; i++) {
            entries[i] = new Entry();
        }
        SplittableRandom random = new SplittableRandom(7);
        List<Double> wheelNanos = new ArrayList<>(), poolNanos = new ArrayList<>();
        Pool pool = new Pool();
        for (int round = 0; round < rounds; round++) {
            for (Entry e : entries) {
                e.arm(START + 1 + random.nextLong(100 * MS));
            }
            TimerWheel<Entry> wheel = new TimerWheel<>(1L << SHIFT, START);
            for (Entry e : entries) {
                wheel.add(e);
            }
            long before = expired, t0 = System.nanoTime();
            for (long t = START + MS; t <= START + 101 * MS; t += MS) {
                wheel.expire(t, e -> expired++);
            }
            long t1 = System.nanoTime();
            check(expired - before);
            for (Entry e : entries) {
                e.location = TimerEntry.DETACHED;
            }
            pool.currentTick = -1;
            for (Entry e : entries) {
                pool.add(e);
            }
            before = expired;
            long t2 = System.nanoTime();
            for (long t = START + MS; t <= START + 101 * MS; t += MS) {
                pool.expire(t);
            }
            long t3 = System.nanoTime();
            check(expired - before);
            if (round >= rounds / 3) {
                wheelNanos.add((t1 - t0) / (double) BATCH);
                poolNanos.add((t3 - t2) / (double) BATCH);
            }
        }
        System.out.printf("TimerWheel %s | level-0 pool %s (ns per timer: median, p10, p90 of %d rounds)%n",
                summary(wheelNanos), summary(poolNanos), wheelNanos.size());
    }

    static void check(long n) {
        if (n != BATCH) {
            throw new AssertionError("expired " + n + " of " + BATCH);
        }
    }

    static String summary(List<Double> nanos) {
        List<Double> s = new ArrayList<>(nanos);
        Collections.sort(s);
        return String.format("%.1f %.1f %.1f", s.get(s.size() / 2), s.get(s.size() / 10), s.get(s.size() * 9 / 10));
    }
}
