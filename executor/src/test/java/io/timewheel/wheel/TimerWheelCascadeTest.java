package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The cascade of a slot is spread over the window before it (TimerWheel's notes, "Cascades"): as the clock
 * goes through a level's window slot by slot, the slot above that holds the level's next window keeps at most
 * the share of its entries that the window's remaining slots stand for, so the advance that enters the next
 * window finds (nearly) nothing left to move down. Without the spreading the whole slot waits for that advance.
 */
class TimerWheelCascadeTest {

    @Test
    void theNextWindowsLevel1Slot_isMovedDownAShareAtATime_duringTheWindowBefore() {
        spreadsTheCascadeOf(1);
    }

    @Test
    void theNextWindowsLevel2Slot_isMovedDownAShareAtATime_duringTheWindowBefore() {
        spreadsTheCascadeOf(2);
    }

    /** Entries of the window after next of level {@code level - 1}, at {@code level} when added. */
    private static void spreadsTheCascadeOf(int level) {
        int tickShift = 20; // the executor's tick: level-0 windows of 67 ms, level-1 windows of 4.3 s, four levels
        long tick = 1L << (tickShift + 6 * (level - 1)), window = 64 * tick; // a slot and a window of level - 1
        long start = 10 * window; // the start of an even window
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        assertTrue(wheel.levels() >= level + 2, "a wheel with a level above " + level);
        // 6,400 entries spread over the window after next: level 1 when added (two windows ahead)
        SplittableRandom random = new SplittableRandom(42);
        List<TestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 6_400; i++) {
            TestEntry e = new TestEntry(i, start + 2 * window + random.nextLong(window));
            wheel.add(e);
            assertEquals(level, e.level(), "two windows ahead");
            entries.add(e);
        }
        // into the next window (its own slot above is empty), then through it slot by slot
        wheel.advance(start + window);
        for (int t = 0; t < 64; t++) {
            wheel.advance(start + window + t * tick);
            long above = entries.stream().filter(e -> e.level() == level).count();
            long allowed = 6_400L * (63 - t) / 64;
            assertTrue(above <= allowed, "slot " + t + ": " + above + " entries still at level " + level + ", at most " + allowed);
            assertTrue(above >= allowed - 6_400L / 64 - 1, "slot " + t + ": moved down ahead of the share: " + above);
        }
        assertEquals(0, entries.stream().filter(e -> e.level() == level).count(), "all moved down by the window's last slot");
        // the next window's entries fire in order, none early, none lost
        entries.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline(), b.deadline())
                : Integer.compare(a.sequence(), b.sequence()));
        int fired = 0;
        for (long now = start + 2 * window; fired < entries.size(); now += (1L << tickShift) / 3) {
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
