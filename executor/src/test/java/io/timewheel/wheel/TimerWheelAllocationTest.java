package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The wheel allocates nothing on add / remove / advance / poll / expire / nextDeadline: measured with the
 * JVM's per-thread allocation counter around a warm loop over pre-created entries. The counter is exact
 * (TLAB-based), not sampled; the only slack allowed is for the measurement itself.
 */
class TimerWheelAllocationTest {

    private static final int OPS = 100_000;
    private static final int ENTRIES = 4_096;
    private static final long SLACK_BYTES = 1_024;

    private static final Consumer<TestEntry> SINK = e -> e.at(e.deadline()); // touches the entry, captures nothing

    @Test
    void addRemoveAdvancePollExpire_allocateNothing_onceWarm() {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no com.sun.management.ThreadMXBean on this JVM");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "per-thread allocation counting unsupported");
        if (!threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
        @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+; we build for 17
        long thread = Thread.currentThread().getId();

        Workload workload = new Workload();
        for (int i = 0; i < 30; i++) {
            workload.run(OPS); // warm-up: let the JIT compile the loop and the wheel
        }
        // The JIT may still be swapping code in during the first measurements: keep the least of a few.
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10 && least >= SLACK_BYTES; attempt++) {
            workload.adds = workload.fired = 0;
            long before = threads.getThreadAllocatedBytes(thread);
            workload.run(OPS);
            long after = threads.getThreadAllocatedBytes(thread);
            least = Math.min(least, after - before);
        }
        System.out.printf("TimerWheelAllocationTest: %d bytes allocated over %,d wheel operations (%,d adds, %,d fired)%n",
                least, OPS, workload.adds, workload.fired);
        long measured = least;
        assertTrue(measured < SLACK_BYTES, () -> measured + " bytes allocated over " + OPS + " operations");
    }

    /** A mixed workload over pre-created entries: log-uniform delays, cancels, small steps, huge jumps. */
    private static final class Workload {
        final TimerWheel<TestEntry> wheel = new TimerWheel<>(Long.MAX_VALUE - (1L << 35));
        final TestEntry[] entries = new TestEntry[ENTRIES];
        long random = 0x9E37_79B9_7F4A_7C15L;
        long adds, fired;

        Workload() {
            for (int i = 0; i < ENTRIES; i++) {
                entries[i] = new TestEntry(i);
            }
        }

        long next() { // xorshift64: no allocation
            random ^= random << 13;
            random ^= random >>> 7;
            random ^= random << 17;
            return random;
        }

        void run(int ops) {
            TimerWheel<TestEntry> wheel = this.wheel;
            for (int op = 0; op < ops; op++) {
                long r = next();
                TestEntry e = entries[(int) (r >>> 52) & (ENTRIES - 1)];
                switch ((int) (r & 7)) {
                    case 0, 1, 2 -> {
                        if (!e.isInWheel()) {
                            int bits = (int) ((r >>> 3) & 63);
                            long delay = bits == 0 ? 0 : (next() >>> 1) >>> (63 - Math.min(63, bits));
                            wheel.add(e.at(wheel.time() + delay));
                            adds++;
                        }
                    }
                    case 3 -> wheel.remove(e);
                    case 4 -> {
                        long step = (r >>> 3) & ((1L << 24) - 1);
                        wheel.advance(wheel.time() + ((r & 0x7F00) == 0 ? (next() >>> 2) : step));
                        TestEntry polled;
                        while ((polled = wheel.poll()) != null) {
                            fired++;
                            polled.at(polled.deadline());
                        }
                    }
                    case 5 -> fired += wheel.expire(wheel.time() + ((r >>> 3) & ((1L << 22) - 1)), SINK);
                    case 6 -> {
                        long next = wheel.nextDeadline();
                        if (next - wheel.time() > 0 && next - wheel.time() < 1L << 40) {
                            fired += wheel.expire(next, SINK);
                        }
                    }
                    default -> {
                        if (wheel.remove(e)) {
                            wheel.add(e.at(wheel.time() + (r >>> 40))); // reschedule
                            adds++;
                        }
                    }
                }
            }
        }
    }
}
