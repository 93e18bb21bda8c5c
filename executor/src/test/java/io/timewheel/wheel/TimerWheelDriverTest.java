package io.timewheel.wheel;

import static io.timewheel.wheel.WheelChecks.logUniform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wheel driven the way the tick thread drives it: sleep until {@link TimerWheel#nextDeadline()}, jump the
 * clock there, expire. Every timer must fire, none early, and the wake-ups must stay within the hierarchical
 * wheel's bound: one per level a timer cascades through plus one per top-level rotation it waits for.
 */
class TimerWheelDriverTest {

    static final int[] TICK_SHIFTS = {0, 10, 20, 30, 36};
    static final long[] STARTS = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE - (1L << 30), 0x5DEECE66DL};
    static final int TIMERS = 20_000;
    static final long SEED = 0xD71E_2024L;

    static Stream<Arguments> ticksAndStarts() {
        Stream.Builder<Arguments> all = Stream.builder();
        for (int tickShift : TICK_SHIFTS) {
            for (long start : STARTS) {
                all.add(Arguments.of(tickShift, start));
            }
        }
        return all.build();
    }

    /**
     * The wake-ups a hierarchical wheel with round counts may need for one timer: one per level it passes
     * through on its way down (its first level, counted from 0) and one per top-level rotation.
     */
    static long wakeUpBound(long delay, long deadline, long start, int tickShift, int levels) {
        int firstLevel = Math.max(0, WheelChecks.expectedLevel(deadline, start, tickShift, levels));
        long rotations = delay >>> WheelChecks.spanBits(tickShift, levels);
        return firstLevel + 1 + (firstLevel == levels - 1 ? rotations + 1 : 0);
    }

    @ParameterizedTest(name = "tick 2^{0} ns, start {1}")
    @MethodSource("ticksAndStarts")
    void drivingByNextDeadline_firesEveryTimerOnce_neverEarly_withinTheWakeUpBound(int tickShift, long start) {
        SplittableRandom random = new SplittableRandom(SEED ^ tickShift ^ start);
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        TestEntry[] timers = new TestEntry[TIMERS];
        long bound = 0;
        for (int i = 0; i < TIMERS; i++) {
            long delay = logUniform(random, 63);
            timers[i] = new TestEntry(i, start + delay);
            wheel.add(timers[i]);
            bound += wakeUpBound(delay, start + delay, start, tickShift, wheel.levels());
        }

        Driver driver = new Driver(wheel, TIMERS);
        driver.runUntilEmpty();

        for (TestEntry timer : timers) {
            assertEquals(1, driver.fired[timer.id], () -> "fired count of " + timer);
        }
        System.out.printf("TimerWheelDriverTest tick=2^%d start=%d levels=%d: %,d timers, %,d wake-ups (%.3f per timer), "
                        + "bound %,d (%.2f per timer), spurious %d%n",
                tickShift, start, wheel.levels(), TIMERS, driver.wakeUps, (double) driver.wakeUps / TIMERS, bound,
                (double) bound / TIMERS, driver.spurious);
        assertTrue(driver.wakeUps <= bound, () -> driver.wakeUps + " wake-ups exceed the bound");
        // Stronger than the bound: with no removal nextDeadline is exact, so every wake-up fires something.
        assertEquals(0, driver.spurious, "wake-ups that fired nothing although no timer was removed");
    }

    @ParameterizedTest(name = "tick 2^{0} ns, start {1}")
    @MethodSource("ticksAndStarts")
    void drivingWithCancelsAndPeriodicReAdds_firesEveryLiveTimer_spuriousWakeUpsAtMostOnePerCancel(int tickShift, long start) {
        SplittableRandom random = new SplittableRandom(SEED ^ tickShift ^ ~start);
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        int n = TIMERS / 4;
        TestEntry[] timers = new TestEntry[n];
        int[] firesLeft = new int[n];
        long[] period = new long[n];
        for (int i = 0; i < n; i++) {
            // A quarter are periodic with a small log-uniform period, re-added by the action that fires them.
            boolean periodic = random.nextInt(4) == 0;
            period[i] = periodic ? 1 + logUniform(random, tickShift + 14) : 0;
            firesLeft[i] = periodic ? 1 + random.nextInt(5) : 1;
            long delay = periodic ? logUniform(random, tickShift + 20) : logUniform(random, 63);
            timers[i] = new TestEntry(i, start + delay);
            wheel.add(timers[i]);
        }

        long[] cancels = {0};
        boolean[] cancelled = new boolean[n];
        Driver driver = new Driver(wheel, n) {
            @Override
            void fired(TestEntry e, long now) {
                super.fired(e, now);
                assertFalse(cancelled[e.id], () -> "a cancelled timer fired: " + e);
                if (--firesLeft[e.id] > 0) {
                    wheel.add(e.at(e.deadline() + period[e.id])); // fixed rate: from the deadline, not from now
                }
            }

            @Override
            void afterWakeUp() {
                // Cancel a random timer now and then, pending or not (a detached one answers false).
                if (random.nextInt(3) == 0) {
                    TestEntry victim = timers[random.nextInt(n)];
                    if (wheel.remove(victim)) {
                        cancels[0]++;
                        cancelled[victim.id] = true;
                    }
                }
            }
        };
        driver.runUntilEmpty();

        for (int i = 0; i < n; i++) {
            if (!cancelled[i]) {
                assertEquals(0, firesLeft[i], "timer " + i + " did not fire every time");
            }
        }
        System.out.printf("TimerWheelDriverTest tick=2^%d start=%d with cancels: %,d wake-ups, %,d fires, %,d cancels, %,d spurious%n",
                tickShift, start, driver.wakeUps, driver.totalFired, cancels[0], driver.spurious);
        // A removal can leave its slot's minimum stale (an earlier bound): one wake-up at most, then the slot is rebuilt.
        assertTrue(driver.spurious <= cancels[0], () -> driver.spurious + " spurious wake-ups for " + cancels[0] + " cancels");
    }

    /** The tick thread's loop, without the thread: jump to nextDeadline, expire, repeat. */
    static class Driver {
        final TimerWheel<TestEntry> wheel;
        final int[] fired;
        long wakeUps, spurious, totalFired;
        private long lastDeadline;
        private int lastSequence;
        private boolean anyFired;

        Driver(TimerWheel<TestEntry> wheel, int timers) {
            this.wheel = wheel;
            this.fired = new int[timers];
        }

        void runUntilEmpty() {
            long limit = 100L * fired.length + 1_000; // far above any correct run: a guard against a livelock
            while (!wheel.isEmpty()) {
                if (wakeUps > limit) {
                    fail(wakeUps + " wake-ups and " + wheel.size() + " timers left: nextDeadline leads nowhere");
                }
                long next = wheel.nextDeadline();
                long before = wheel.time();
                long now = next - before > 0 ? next : before; // the clock never goes back
                wakeUps++;
                anyFired = false;
                int count = wheel.expire(now, e -> fired(e, now));
                if (count == 0) {
                    spurious++;
                }
                afterWakeUp();
            }
        }

        void fired(TestEntry e, long now) {
            assertTrue(e.deadline() - now <= 0, () -> "fired early: " + e + " at " + now);
            fired[e.id]++;
            totalFired++;
            // One wake-up hands out its batch in (deadline, sequence) order.
            if (anyFired) {
                long byDeadline = e.deadline() - lastDeadline;
                assertTrue(byDeadline > 0 || (byDeadline == 0 && e.sequence() - lastSequence > 0),
                        () -> "out of order within one expire: " + e + " after deadline " + lastDeadline);
            }
            anyFired = true;
            lastDeadline = e.deadline();
            lastSequence = e.sequence();
        }

        void afterWakeUp() {
        }
    }
}
