import io.timewheel.wheel.TimerEntry;
import io.timewheel.wheel.TimerWheel;
import java.util.SplittableRandom;
import org.openjdk.jol.info.GraphLayout;

/**
 * Issue 26: what a TimerWheel keeps per pending timer, by JOL (everything reachable from the wheel: its arrays and
 * the entries), for timers due within 100 ms (level 0) and 1 to 2 h ahead (the levels above), after the wheel has
 * been advanced once. Minus the entry objects themselves (JOL's size of one, times the count), so what is left is
 * the wheel's own cost per timer: 0.5 bytes for either (slots linked through the entries), 33.5 for level 0 with
 * the level-0 pool tried in session 47 (bench/results/jdk17/level0-pool.txt). A probe, not part of the build:
 * <pre>
 * javac -d /tmp/wm -cp executor/target/classes:bench/target/timewheel-bench.jar bench/probes/WheelMemory.java
 * java -Djdk.attach.allowAttachSelf=true -cp executor/target/classes:bench/target/timewheel-bench.jar:/tmp/wm WheelMemory 100000
 * </pre>
 */
public class WheelMemory {
    static final class Entry extends TimerEntry {
        Entry(long deadline) {
            super(deadline);
        }
    }

    static final long START = 1L << 40, MS = 1_000_000L;

    public static void main(String[] a) {
        int n = Integer.parseInt(a[0]);
        long entrySize = GraphLayout.parseInstance(new Entry(0)).totalSize();
        for (String horizon : new String[] {"100 ms", "1-2 h"}) {
            SplittableRandom random = new SplittableRandom(3);
            TimerWheel<Entry> wheel = new TimerWheel<>(1L << 20, START);
            long empty = GraphLayout.parseInstance(wheel).totalSize();
            for (int i = 0; i < n; i++) {
                long delay = horizon.equals("100 ms") ? 1 + random.nextLong(100 * MS)
                        : 3_600_000 * MS + random.nextLong(3_600_000 * MS);
                wheel.add(new Entry(START + delay));
            }
            wheel.advance(START + 1); // within the first tick: nothing due, the current slot sorted
            long full = GraphLayout.parseInstance(wheel).totalSize();
            double perTimer = (full - empty) / (double) n;
            System.out.printf("WheelMemory %s, %,d timers: %.1f bytes per timer reachable from the wheel,"
                    + " %.1f without the entry (%d bytes)%n", horizon, n, perTimer, perTimer - entrySize, entrySize);
        }
    }
}
