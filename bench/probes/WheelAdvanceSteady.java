/*
 * Probe: what the compiled wheel costs per timer at a steady state, in WheelBenchmark.advance's scenario:
 * 100,000 timers due within 100 ms, expired in 1 ms steps, round after round with the same entries and one
 * long-lived wheel (as an executor's: its arrays at their working size, nothing allocated per round), each round
 * 268 ms after the last. The first third of the rounds is warm-up; the rest are reported as the median, p10 and
 * p90 of ns per timer. JMH's single shots give the advance ~100 calls each, on code still being compiled and a
 * fresh heap every iteration; this shows the wheel once compiled.
 *
 *   bench/probe.sh WheelAdvanceSteady 900             the advances
 *   bench/probe.sh WheelAdvanceSteady 900 add         the adds of the same rounds: what filing costs
 *   bench/probe.sh WheelAdvanceSteady 900 total       both: the wheel thread's whole work per timer
 *   bench/probe.sh WheelAdvanceSteady 900 window      WheelBenchmark.window's scenario: timers due 70-170 ms ahead,
 *                                                     one advance to 170 ms expires them all
 *   bench/probe.sh WheelAdvanceSteady 900 near        the adds land in level 0: nothing cascades
 *
 * The adds of a round land 167-267 ms ahead of the wheel's time (the last round ended 101 ms after its start),
 * in level 1, so the advances cascade them into level 0; with near, the wheel is first advanced to the round's
 * start (untimed). Reach for it when a change touches TimerWheel's add, cascade or advance: run the build before
 * and after, alternating, on each JDK; WheelFloor gives the floor under the advance.
 */
import io.timewheel.wheel.TimerEntry;
import io.timewheel.wheel.TimerWheel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

public class WheelAdvanceSteady {
    static final class Entry extends TimerEntry {
        void arm(long deadline) {
            setDeadline(deadline);
        }
    }

    static final long START = 1L << 40, MS = 1_000_000L;
    static final int BATCH = 100_000;
    static long expired;

    public static void main(String[] a) {
        int rounds = Integer.parseInt(a[0]);
        String mode = a.length > 1 ? a[1] : "advance";
        boolean timeAdds = mode.equals("add"), total = mode.equals("total"), window = mode.equals("window");
        boolean near = mode.equals("near");
        Entry[] entries = new Entry[BATCH];
        for (int i = 0; i < BATCH; i++) {
            entries[i] = new Entry();
        }
        SplittableRandom random = new SplittableRandom(7);
        List<Double> nanos = new ArrayList<>();
        TimerWheel<Entry> wheel = new TimerWheel<>(1L << 20, START);
        for (int round = 0; round < rounds; round++) {
            long base = START + ((long) round << 28); // 268 ms on per round: the same level-0 window alignment
            if (near) {
                wheel.advance(base); // untimed: the adds land 0-100 ms ahead, in level 0 (no cascade)
            }
            for (Entry e : entries) {
                e.arm(window ? base + 70 * MS + random.nextLong(100 * MS) : base + 1 + random.nextLong(100 * MS));
            }
            long a0 = System.nanoTime();
            for (Entry e : entries) {
                wheel.add(e);
            }
            long a1 = System.nanoTime();
            long before = expired, t0 = System.nanoTime();
            if (window) {
                wheel.expire(base + 170 * MS, e -> expired++);
            } else {
                for (long t = base + MS; t <= base + 101 * MS; t += MS) {
                    wheel.expire(t, e -> expired++);
                }
            }
            long t1 = System.nanoTime();
            if (timeAdds) {
                t0 = a0;
                t1 = a1;
            } else if (total) {
                t0 = a0; // the adds and the advances: the wheel thread's whole work per timer
            }
            if (expired - before != BATCH) {
                throw new AssertionError("expired " + (expired - before) + " of " + BATCH);
            }
            if (round >= rounds / 3) {
                nanos.add((t1 - t0) / (double) BATCH);
            }
        }
        Collections.sort(nanos);
        System.out.printf("WheelAdvanceSteady%s: median %.1f ns per timer, p10 %.1f, p90 %.1f (%d rounds after %d of warm-up)%n",
 mode.equals("advance") ? "" : " (" + mode + ")", nanos.get(nanos.size() / 2), nanos.get(nanos.size() / 10),
                nanos.get(nanos.size() * 9 / 10), nanos.size(), rounds - nanos.size());
    }
}
