package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * White-box checks of the wheel's documented invariants (the implementation notes of {@link TimerWheel}),
 * and the arithmetic the tests need: digits, spans, log-uniform draws.
 */
final class WheelChecks {

    private WheelChecks() {
    }

    static int tickShift(TimerWheel<?> wheel) {
        return Long.numberOfTrailingZeros(wheel.tickNanos());
    }

    /** The odometer digit of {@code t} at {@code level}. */
    static int digit(long t, int tickShift, int level) {
        return (int) ((t >>> (tickShift + 6 * level)) & 63);
    }

    /** log2 of the span of levels 0..k-1 (k = 1 is one level-0 rotation; k = levels is the whole wheel). */
    static int spanBits(int tickShift, int k) {
        return tickShift + 6 * k;
    }

    /** The number of levels the implementation notes promise: ceil((42 - tickShift) / 6), at least 1. */
    static int expectedLevels(int tickShift) {
        return Math.max(1, (42 - tickShift + 5) / 6);
    }

    /**
     * The level {@code place} must choose for a deadline relative to the wheel's time: -1 for "the current
     * slot" (level 0, slot digit_0(time)).
     */
    static int expectedLevel(long deadline, long time, int tickShift, int levels) {
        long ticksDiff = (deadline >>> tickShift) ^ (time >>> tickShift);
        if (deadline - time <= 0 || ticksDiff == 0) {
            return -1;
        }
        return Math.min(levels - 1, (63 - Long.numberOfLeadingZeros(ticksDiff)) / 6);
    }

    /**
     * Checks I1..I3 and I8 for one entry that the model says is waiting in a slot (not expired): its slot is
     * the digit of its deadline at its level, and the level keeps it ahead of the clock as the notes say.
     */
    static void checkWaiting(TimerWheel<?> wheel, TestEntry e) {
        int s = tickShift(wheel);
        int levels = wheel.levels();
        long t = wheel.time();
        long d = e.deadline();
        int k = e.level();
        int slot = e.slot();
        boolean sameTick = (d >>> s) == (t >>> s);
        if (e.inRun()) {
            // I1: the current slot's entries wait in the sorted run: due ones, this tick's, and in a one-level
            // wheel those whose digit is the clock's (a rotation or more ahead)
            assertTrue(d - t <= 0 || sameTick || (levels == 1 && digit(d, s, 0) == digit(t, s, 0)),
                    () -> "entry in the sorted run that belongs in a slot: " + e + " at time " + t);
            assertFalse(WheelSeam.isFoundDue(wheel, e), () -> "a waiting entry counted as found due: " + e + " at time " + t);
            return;
        }
        if (k < 0) {
            fail("entry should wait in a slot: " + e + " at time " + t);
        }
        assertTrue(k < levels, () -> "level out of range: " + e);
        // the levels below the top two have two banks each (rows 2k and 2k + 1, for even and odd windows of
        // the level: 64 of its slots); an entry of a level's next window may wait in its other bank already
        int banked = Math.max(0, levels - 2);
        int currentRow = row(0, t, s, banked);
        boolean currentSlot = e.row() == currentRow && slot == digit(t, s, 0);
        // I1: due entries and entries in the current tick wait in the current slot, which is the sorted run
        assertFalse(d - t <= 0 || sameTick, () -> "due or same-tick entry outside the sorted run: " + e + " at time " + t);
        assertFalse(currentSlot, () -> "an entry in the current slot's lanes: " + e + " at time " + t);
        assertEquals(digit(d, s, k), slot, () -> "slot is not the deadline's digit at its level: " + e + " at time " + t);
        int windowShift = s + 6 * (k + 1);
        if (k < banked && (d >>> windowShift) - (t >>> windowShift) == 1) {
            // I1, I2: the level's next window, in its other bank
            assertEquals(row(k, d, s, banked), e.row(), () -> "next-window entry in the wrong bank: " + e + " at time " + t);
        } else if (k == levels - 1) {
            // I3: a top-level entry's prefix is ahead of the clock's (a current-slot entry of a one-level
            // wheel with the same digit waits for its rotations).
            long prefixShift = s + 6L * (levels - 1);
            assertTrue((d >>> prefixShift) != (t >>> prefixShift),
                    () -> "top-level entry whose prefix equals the clock's: " + e + " at time " + t);
            assertEquals(2 * k, e.row(), () -> "top-level entry outside the top's row: " + e);
        } else {
            // I1, I2: below the top, an entry shares the clock's digits above its level and its digit is ahead.
            int above = s + 6 * (k + 1);
            assertEquals(t >>> above, d >>> above, () -> "entry outside the clock's window at level " + k + ": " + e + " at " + t);
            assertTrue(slot > digit(t, s, k), () -> "entry not ahead of the clock at its level: " + e + " at time " + t);
            assertEquals(row(k, t, s, banked), e.row(), () -> "current-window entry outside the current bank: " + e + " at time " + t);
        }
    }

    /** The row of level {@code k}'s bank for the window time {@code t} lies in. */
    private static int row(int k, long t, int tickShift, int banked) {
        long window = t >>> (tickShift + 6 * (k + 1));
        return 2 * k + (k < banked ? (int) (window & 1) : 0);
    }

    /**
     * A log-uniform draw in [0, 2^maxBits - 1]: first a bit length uniformly in [0, maxBits], then a uniform
     * value of that length. Every power of two gets the same share, so tiny and huge values are both common.
     */
    static long logUniform(java.util.SplittableRandom random, int maxBits) {
        int bits = random.nextInt(maxBits + 1);
        if (bits == 0) {
            return 0;
        }
        long top = 1L << (bits - 1);
        return top | (random.nextLong() & (top - 1));
    }
}
