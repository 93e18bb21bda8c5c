import io.timewheel.wheel.TimerEntry;
import io.timewheel.wheel.TimerWheel;
import java.util.SplittableRandom;

/**
 * Issue 26: the cost of adding to the current level-0 slot out of order, between advances that stay in one tick.
 * The slot starts with {@code pending} entries due in the second half of the tick; each step adds one more at a
 * random place among them and advances the wheel by 1 ns (nothing falls due). The old wheel linked each add in
 * order, walking from the slot's tail; the sorted run appends it and merges it in at the advance: both are
 * O(entries in the slot) per step, so this only shows which costs more per entry. The slot grows by one per step.
 * A probe, not part of the build:
 * <pre>
 * javac -d /tmp/ita -cp executor/target/classes bench/probes/InTickAdds.java
 * java -cp executor/target/classes:/tmp/ita InTickAdds 1000 20000
 * </pre>
 */
public class InTickAdds {
    static final class Entry extends TimerEntry {
        void arm(long deadline) {
            setDeadline(deadline);
        }
    }

    public static void main(String[] a) {
        int pending = Integer.parseInt(a[0]), steps = Integer.parseInt(a[1]);
        long start = 1L << 40, tick = 1L << 20;
        SplittableRandom random = new SplittableRandom(1);
        for (int round = 1; round <= 5; round++) {
            TimerWheel<Entry> wheel = new TimerWheel<>(tick, start);
            for (int i = 0; i < pending; i++) {
                Entry e = new Entry();
                e.arm(start + tick / 2 + random.nextLong(tick / 2));
                wheel.add(e);
            }
            wheel.advance(start);
            long now = start, t0 = System.nanoTime();
            for (int s = 0; s < steps; s++) {
                Entry e = new Entry();
                e.arm(start + tick / 2 + random.nextLong(tick / 2));
                wheel.add(e);
                wheel.advance(++now);
                if (wheel.poll() != null) {
                    throw new AssertionError("nothing is due");
                }
            }
            long t1 = System.nanoTime();
            System.out.printf("InTickAdds round %d: %d entries growing to %d, %.0f ns per add + advance%n",
                    round, pending, pending + steps, (t1 - t0) / (double) steps);
        }
    }
}
