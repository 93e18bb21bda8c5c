package io.timewheel.wheel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Issue 26: the floor under WheelBenchmark.advance's scenario for a wheel that hands out entry objects in exact
 * deadline order, and the struct-of-arrays level 0 proposed to approach it, beside TimerWheel in one JVM, rounds
 * alternating. The scenario is WheelAdvanceSteady's: 100,000
 * timers due within 100 ms, expired in 1 ms steps, the same entries every round, only the expiry timed. The
 * floor is an ideal struct-of-arrays wheel whose adds (not timed) already put each timer's deadline and
 * reference into an array per tick: each step sorts one tick's deadlines (KeySort.radixSort, as the sorted run)
 * and hands each entry out in order, touching it once (its location written, the consumer called). No slot
 * lists, no run bookkeeping, no cancel handle kept up to date by the adds: less than a wheel can do.
 *
 * <p>The proposed level 0 (Pool), reduced to what this scenario runs: every level-0 entry has a position in one
 * pool (refs[p], deadlines[p], its location -POOL - p), taken from a free list when it is filed and given back
 * when it leaves; a slot is an int list of positions. When a slot becomes current its positions are keyed from
 * the deadline copies and radix sorted into the run's order, never touching an entry; each advance hands out
 * the run's head while it is due, touching each entry once (its location written, its position freed). What it
 * leaves out (cascades into level 0, cancels, newcomers merged into the current slot, out-of-memory care) is not
 * in this scenario. A probe, not part of the build (package io.timewheel.wheel, to reach KeySort):
 * <pre>
 * javac -d /tmp/wf -cp executor/target/classes bench/probes/WheelFloor.java
 * java -cp executor/target/classes:/tmp/wf io.timewheel.wheel.WheelFloor 600
 * </pre>
 */
public class WheelFloor {
    static final class Entry extends TimerEntry {
        void arm(long deadline) {
            setDeadline(deadline);
        }
    }

    static final long START = 1L << 40, MS = 1_000_000L;
    static final int BATCH = 100_000, TICKS = 128, SHIFT = 20, SLOTS = 128, POOL = -10;
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
        // the ideal wheel: per tick, the deadlines and the entries filed there (sized for the worst tick)
        Entry[][] refs = new Entry[TICKS][BATCH];
        long[][] keys = new long[TICKS][BATCH];
        int[] counts = new int[TICKS];
        long[] sortKeys = new long[BATCH], buffer = new long[BATCH];
        int[] count = new int[KeySort.WIDE_RADIX + 1];
        List<Double> wheelNanos = new ArrayList<>(), floorNanos = new ArrayList<>(), poolNanos = new ArrayList<>();
        Pool pool = new Pool();
        for (int round = 0; round < rounds; round++) {
            for (Entry e : entries) {
                e.arm(START + 1 + random.nextLong(100 * MS));
            }
            // TimerWheel, as WheelAdvanceSteady
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
            // the floor: file by tick (not timed), then per step sort the ticks that came due and hand them out
            java.util.Arrays.fill(counts, 0);
            for (Entry e : entries) {
                int tick = (int) ((e.deadline() - START) >>> SHIFT);
                int n = counts[tick]++;
                refs[tick][n] = e;
                keys[tick][n] = e.deadline();
            }
            before = expired;
            long t2 = System.nanoTime();
            int nextTick = 0;
            for (long t = START + MS; t <= START + 101 * MS; t += MS) {
                int upTo = (int) ((t - START) >>> SHIFT); // ticks wholly due: those before the tick t lies in
                for (; nextTick < upTo; nextTick++) {
                    expireTick(nextTick, refs[nextTick], keys[nextTick], counts[nextTick], sortKeys, buffer, count);
                }
            }
            for (; nextTick < TICKS; nextTick++) { // the last partial tick
                expireTick(nextTick, refs[nextTick], keys[nextTick], counts[nextTick], sortKeys, buffer, count);
            }
            long t3 = System.nanoTime();
            check(expired - before);
            // the proposed level 0: filed into the pool (not timed), then expired in the same steps
            for (Entry e : entries) {
                e.location = TimerEntry.DETACHED;
            }
            pool.currentTick = -1;
            for (Entry e : entries) {
                pool.add(e);
            }
            before = expired;
            long t4 = System.nanoTime();
            for (long t = START + MS; t <= START + 101 * MS; t += MS) {
                pool.expire(t);
            }
            long t5 = System.nanoTime();
            check(expired - before);
            if (round >= rounds / 3) {
                wheelNanos.add((t1 - t0) / (double) BATCH);
                floorNanos.add((t3 - t2) / (double) BATCH);
                poolNanos.add((t5 - t4) / (double) BATCH);
            }
        }
        System.out.printf("TimerWheel %s | level-0 pool %s | floor %s (ns per timer: median, p10, p90 of %d rounds)%n",
                summary(wheelNanos), summary(poolNanos), summary(floorNanos), wheelNanos.size());
    }

    static void expireTick(int tick, Entry[] refs, long[] deadlines, int n, long[] keys, long[] buffer, int[] count) {
        if (n == 0) {
            return;
        }
        long base = START + ((long) tick << SHIFT);
        for (int i = 0; i < n; i++) {
            keys[i] = ((deadlines[i] - base) << 22) | i;
        }
        KeySort.radixSort(keys, buffer, count, n, 22, SHIFT);
        for (int i = 0; i < n; i++) {
            Entry e = refs[(int) (keys[i] & ((1 << 22) - 1))];
            e.location = TimerEntry.DETACHED;
            expired++;
        }
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
