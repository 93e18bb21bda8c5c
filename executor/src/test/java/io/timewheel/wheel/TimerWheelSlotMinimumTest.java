package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Reproductions of a bug the model test found: a slot's minimum deadline was kept by comparing two deadlines
 * directly ({@code entry.deadline - slotMin < 0}), which overflows when one lies far ahead of the wheel's time
 * and the other behind it. nextDeadline() then answered a time far ahead although an entry was due, and a
 * driver sleeping until then would never fire it.
 */
class TimerWheelSlotMinimumTest {

    @Test
    void nextDeadline_seesADueEntry_besideAFarFutureEntryInTheCurrentSlot_oneLevelWheel() {
        // With the largest tick the wheel has one level, so a far deadline whose digit equals the clock's
        // waits in the current slot (its round count pending).
        long start = 5L << 36;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(TimerWheel.MAX_TICK_NANOS, start);
        assertEquals(1, wheel.levels());
        TestEntry far = new TestEntry(1, start + (1L << 62)); // same digit: 2^62 ns is whole rotations
        TestEntry due = new TestEntry(2, start - (1L << 62) - 1); // 146 years ago: legal, within 2^63 - 1
        wheel.add(far);
        wheel.add(due);
        assertTrue(wheel.nextDeadline() - wheel.time() <= 0,
                () -> "an entry is due but nextDeadline is " + (wheel.nextDeadline() - wheel.time()) + " ns ahead");
        assertEquals(1, wheel.advance(start));
        assertSame(due, wheel.poll());
    }

    @Test
    void nextDeadline_seesADueEntry_besideAFarFutureEntryInTheCurrentSlot_delayMaxValue() {
        // The everyday form: tick 2^36, a timer of Long.MAX_VALUE ns (its digit equals the clock's whenever the
        // clock is not on a tick boundary), then a timer whose deadline is already 2 ns past when it reaches the
        // wheel (a producer computed it before the wheel thread's last advance).
        long start = (5L << 36) + 12345;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(TimerWheel.MAX_TICK_NANOS, start);
        TestEntry forever = new TestEntry(1, start + Long.MAX_VALUE);
        TestEntry late = new TestEntry(2, start - 2);
        wheel.add(forever);
        wheel.add(late);
        assertTrue(wheel.nextDeadline() - wheel.time() <= 0,
                () -> "an entry is due but nextDeadline is " + (wheel.nextDeadline() - wheel.time()) + " ns ahead");
    }

    @Test
    void nextDeadline_seesADueEntry_besideALaterEntryOfTheSameTick_defaultTick() {
        // The same overflow on the default tick, at the very edge of the range: a deadline Long.MAX_VALUE ns
        // before the wheel's time next to one 2 ns after it, both in the current slot.
        TimerWheel<TestEntry> wheel = new TimerWheel<>(0);
        TestEntry soon = new TestEntry(1, 2);
        TestEntry due = new TestEntry(2, -Long.MAX_VALUE);
        wheel.add(soon);
        wheel.add(due);
        assertTrue(wheel.nextDeadline() - wheel.time() <= 0,
                () -> "an entry is due but nextDeadline is " + (wheel.nextDeadline() - wheel.time()) + " ns ahead");
        assertEquals(1, wheel.advance(0));
        assertSame(due, wheel.poll());
    }
}
