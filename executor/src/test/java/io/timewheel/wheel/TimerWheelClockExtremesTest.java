package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wheel at the edges of the nanoTime range: clocks starting around 0, negative, at Long.MIN_VALUE and
 * just below Long.MAX_VALUE so that {@code now + delay} wraps; delays on every slot and level boundary and
 * up to Long.MAX_VALUE. Each entry must come out exactly at its deadline: not one nanosecond before, and at
 * the first advance that reaches it.
 */
class TimerWheelClockExtremesTest {

    static final int[] TICK_SHIFTS = {0, 10, 20, 30, 36};
    static final long[] STARTS = {0, 1, -1, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MAX_VALUE - 1,
            Long.MAX_VALUE - (1L << 20) + 1, -(1L << 42) + 3, 0x0123_4567_89AB_CDEFL};

    static Stream<Arguments> ticksAndStarts() {
        Stream.Builder<Arguments> all = Stream.builder();
        for (int tickShift : TICK_SHIFTS) {
            for (long start : STARTS) {
                all.add(Arguments.of(tickShift, start));
            }
        }
        return all.build();
    }

    /** 0, 1, tick - 1, tick, tick + 1, each level's span and a few rotations of the top, +-1, up to Long.MAX_VALUE. */
    static long[] boundaryDelays(int tickShift, int levels) {
        TreeSet<Long> delays = new TreeSet<>();
        long tick = 1L << tickShift;
        for (long d : new long[] {0, 1, 2, tick - 1, tick, tick + 1, 2 * tick - 1, 2 * tick, Long.MAX_VALUE - 1, Long.MAX_VALUE,
                Long.MAX_VALUE - tick, Long.MAX_VALUE / 2, (Long.MAX_VALUE / 2) + 1}) {
            delays.add(d);
        }
        for (int k = 1; k <= levels + 3; k++) {
            int bits = WheelChecks.spanBits(tickShift, k);
            if (bits >= 63) {
                break;
            }
            long span = 1L << bits;
            for (long d : new long[] {span - 1, span, span + 1, 2 * span - 1, 2 * span + 1}) {
                if (d > 0) {
                    delays.add(d);
                }
            }
        }
        long[] result = new long[delays.size()];
        int i = 0;
        for (long d : delays) {
            result[i++] = d;
        }
        return result;
    }

    @ParameterizedTest(name = "tick 2^{0} ns, start {1}")
    @MethodSource("ticksAndStarts")
    void boundaryDelays_fireExactlyAtTheirDeadline_neverBefore(int tickShift, long start) {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        long[] delays = boundaryDelays(tickShift, wheel.levels());
        // Two entries per delay, added in opposite halves, to check add order among equal deadlines too.
        List<TestEntry> entries = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < delays.length; i++) {
                TestEntry e = new TestEntry(round * delays.length + i, start + delays[i]);
                wheel.add(e);
                WheelChecks.checkWaiting(wheel, e);
                entries.add(e);
            }
        }
        assertEquals(entries.size(), wheel.size());

        // delay 0 is due at the start: it is found by the first advance, which may be to the same time.
        assertEquals(2, wheel.advance(start));
        assertSame(entries.get(0), wheel.poll());
        assertSame(entries.get(delays.length), wheel.poll());
        assertNull(wheel.poll());

        for (int i = 1; i < delays.length; i++) {
            long deadline = start + delays[i];
            // The wheel knows exactly when the next entry is due (nothing was removed).
            assertEquals(deadline, wheel.nextDeadline(), "nextDeadline before delay " + delays[i]);
            // One nanosecond before: nothing.
            assertEquals(0, wheel.advance(deadline - 1), "fired before its deadline: delay " + delays[i]);
            assertEquals(deadline, wheel.nextDeadline());
            // At the deadline: exactly this delay's two entries, in add order.
            assertEquals(2, wheel.advance(deadline), "not fired at its deadline: delay " + delays[i]);
            assertSame(entries.get(i), wheel.poll());
            assertSame(entries.get(delays.length + i), wheel.poll());
            assertNull(wheel.poll());
            assertEquals(2 * (delays.length - i - 1), wheel.size());
        }
        assertTrue(wheel.isEmpty());
        assertEquals(wheel.time() + Long.MAX_VALUE, wheel.nextDeadline());
    }

    @ParameterizedTest(name = "tick 2^{0} ns, start {1}")
    @MethodSource("ticksAndStarts")
    void boundaryDelays_whenTheClockJumpsStraightToNextDeadline_fireInOrderAtTheirDeadline(int tickShift, long start) {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        long[] delays = boundaryDelays(tickShift, wheel.levels());
        // Added in reverse: the order out is by deadline, whatever the order in.
        for (int i = delays.length - 1; i >= 0; i--) {
            wheel.add(new TestEntry(i, start + delays[i]));
        }
        int next = 0;
        int wakeUps = 0;
        wheel.advance(start);
        while (!wheel.isEmpty()) {
            if (++wakeUps > 2 * delays.length) {
                fail("the wheel keeps answering a nextDeadline at which nothing fires: " + wheel.size() + " entries left");
            }
            long target = wheel.nextDeadline();
            if (target - wheel.time() < 0) {
                target = wheel.time();
            }
            wheel.advance(target);
            TestEntry e;
            while ((e = wheel.poll()) != null) {
                assertEquals(next, e.id, "out of order");
                assertEquals(start + delays[next], e.deadline());
                assertEquals(e.deadline(), wheel.time(), "an entry fired after a wake-up that was not its deadline");
                next++;
            }
        }
        assertEquals(delays.length, next);
    }

    @ParameterizedTest(name = "tick 2^{0} ns, start {1}")
    @MethodSource("ticksAndStarts")
    void deadlinesInThePast_fireAtTheNextAdvance_inDeadlineOrder(int tickShift, long start) {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        long[] ago = {1, Long.MAX_VALUE, 2, 1L << 62, (1L << 42) + 1, (1L << tickShift) + 3, Long.MAX_VALUE - 1};
        for (int i = 0; i < ago.length; i++) {
            wheel.add(new TestEntry(i, start - ago[i]));
        }
        wheel.add(new TestEntry(99, start + 1));
        assertTrue(wheel.nextDeadline() - start <= 0, "entries are due but nextDeadline is ahead");
        assertEquals(ago.length, wheel.advance(start));
        int[] expectedOrder = {1, 6, 3, 4, 5, 2, 0};
        for (int id : expectedOrder) {
            assertEquals(id, wheel.poll().id);
        }
        assertNull(wheel.poll());
        assertEquals(1, wheel.advance(start + 1));
        assertEquals(99, wheel.poll().id);
    }
}
