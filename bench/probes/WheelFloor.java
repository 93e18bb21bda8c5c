/*
 * Probe: the floor under WheelBenchmark.advance's scenario for a wheel that hands out entry objects in exact
 * deadline order, beside TimerWheel in one JVM. The scenario is WheelAdvanceSteady's: 100,000 timers due within
 * 100 ms, expired in 1 ms steps, the same entries every round, only the expiry timed (TimerWheel on a fresh
 * wheel each round, as WheelBenchmark.advance). The floor is an ideal wheel whose adds (not timed) already put
 * each timer's deadline and reference into an array per tick: each step sorts one tick's deadlines
 * (KeySort.radixSort, as TimerWheel's sorted run) and hands each entry out in order, touching it once (its
 * location written, the consumer called). No slot lists, no run bookkeeping, no cancel handle kept up to date
 * by the adds: less than a wheel can do. Prints the median, p10 and p90 ns per timer of each, over the rounds
 * after the first third.
 *
 *   bench/probe.sh WheelFloor 600
 *
 * Reach for it before trying to make the wheel's advance faster: the gap between TimerWheel and the floor is
 * all that a different layout of level 0 can win. (In package io.timewheel.wheel to reach KeySort.)
 */
package io.timewheel.wheel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

public class WheelFloor {
    static final class Entry extends TimerEntry {
        void arm(long deadline) {
            setDeadline(deadline);
        }
    }

    static final long START = 1L << 40, MS = 1_000_000L;
    static final int BATCH = 100_000, TICKS = 128, SHIFT = 20;
    static long expired;

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
        List<Double> wheelNanos = new ArrayList<>(), floorNanos = new ArrayList<>();
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
            if (round >= rounds / 3) {
                wheelNanos.add((t1 - t0) / (double) BATCH);
                floorNanos.add((t3 - t2) / (double) BATCH);
            }
        }
        System.out.printf("TimerWheel %s | floor %s (ns per timer: median, p10, p90 of %d rounds)%n",
                summary(wheelNanos), summary(floorNanos), wheelNanos.size());
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
