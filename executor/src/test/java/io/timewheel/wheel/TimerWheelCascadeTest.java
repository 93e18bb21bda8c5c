package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The cascade of a level-1 slot is spread over the window before it (TimerWheel's notes, "Cascades"): as the
 * clock goes through a window tick by tick, the level-1 slot of the next window keeps at most the share of its
 * entries that the window's remaining ticks stand for, so the advance that enters the next window finds
 * (nearly) nothing left to move down. Without the spreading the whole slot waits for that advance.
 */
class TimerWheelCascadeTest {

    @Test
    void theNextWindowsLevel1Slot_isMovedDownAShareAtATime_duringTheWindowBefore() {
        int tickShift = 20; // the executor's tick: 64-tick windows of 67 ms, four levels
        long tick = 1L << tickShift, window = 64 * tick;
        long start = 10 * window; // the start of an even window
        TimerWheel<TestEntry> wheel = new TimerWheel<>(tick, start);
        assertTrue(wheel.levels() >= 3, "a wheel with a level above level 1");
        // 6,400 entries spread over the window after next: level 1 when added (two windows ahead)
        SplittableRandom random = new SplittableRandom(42);
        List<TestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 6_400; i++) {
            TestEntry e = new TestEntry(i, start + 2 * window + random.nextLong(window));
            wheel.add(e);
            assertEquals(1, e.level(), "two windows ahead: level 1");
            entries.add(e);
        }
        // into the next window (its own level-1 slot is empty), then through it tick by tick
        wheel.advance(start + window);
        for (int t = 0; t < 64; t++) {
            wheel.advance(start + window + t * tick);
            long atLevel1 = entries.stream().filter(e -> e.level() == 1).count();
            long allowed = 6_400L * (63 - t) / 64;
            assertTrue(atLevel1 <= allowed, "tick " + t + ": " + atLevel1 + " entries still at level 1, at most " + allowed);
            assertTrue(atLevel1 >= allowed - 6_400L / 64 - 1, "tick " + t + ": moved down ahead of the share: " + atLevel1);
        }
        assertEquals(0, entries.stream().filter(e -> e.level() == 1).count(), "all moved down by the window's last tick");
        // the next window's entries fire in order, none early, none lost
        entries.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline(), b.deadline())
                : Integer.compare(a.sequence(), b.sequence()));
        int fired = 0;
        for (long now = start + 2 * window; fired < entries.size(); now += tick / 3) {
            wheel.advance(now);
            TestEntry e;
            while ((e = wheel.poll()) != null) {
                assertTrue(e.deadline() <= now, "early: " + e + " at " + now);
                assertEquals(entries.get(fired).id, e.id, "out of order at " + fired);
                fired++;
            }
        }
        assertEquals(0, wheel.size());
    }
}
