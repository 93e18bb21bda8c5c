import io.timewheel.wheel.TimerEntry;
import io.timewheel.wheel.TimerWheel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Issue 26: WheelBenchmark.advance's scenario at a steady state. 100,000 timers due within 100 ms, expired in 1 ms
 * steps on a fresh wheel, round after round with the same entries (no allocation per round); the first third of
 * the rounds is warm-up, the rest are reported as the median, p10 and p90 of ns per timer. JMH's single shots
 * give the advance ~100 calls each, so they see code still being compiled and a fresh heap every iteration; this
 * shows what the compiled wheel costs. A probe, not part of the build:
 * <pre>
 * javac -d /tmp/was -cp executor/target/classes bench/probes/WheelAdvanceSteady.java
 * java -cp executor/target/classes:/tmp/was WheelAdvanceSteady 900
 * </pre>
 */
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
        Entry[] entries = new Entry[BATCH];
        for (int i = 0; i < BATCH; i++) {
            entries[i] = new Entry();
        }
        SplittableRandom random = new SplittableRandom(7);
        List<Double> nanos = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            TimerWheel<Entry> wheel = new TimerWheel<>(1L << 20, START);
            for (Entry e : entries) {
                e.arm(START + 1 + random.nextLong(100 * MS));
                wheel.add(e);
            }
            long before = expired, t0 = System.nanoTime();
            for (long t = START + MS; t <= START + 101 * MS; t += MS) {
                wheel.expire(t, e -> expired++);
            }
            long t1 = System.nanoTime();
            if (expired - before != BATCH) {
                throw new AssertionError("expired " + (expired - before) + " of " + BATCH);
            }
            if (round >= rounds / 3) {
                nanos.add((t1 - t0) / (double) BATCH);
            }
        }
        Collections.sort(nanos);
        System.out.printf("WheelAdvanceSteady: median %.1f ns per timer, p10 %.1f, p90 %.1f (%d rounds after %d of warm-up)%n",
                nanos.get(nanos.size() / 2), nanos.get(nanos.size() / 10), nanos.get(nanos.size() * 9 / 10),
                nanos.size(), rounds - nanos.size());
    }
}
