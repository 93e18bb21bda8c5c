package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The wheel's pacer (TimerWheel.pacer): run by advance after every PACE_ENTRIES entries it moves, never
 * elsewhere, and without effect on what the wheel hands out, even when it throws.
 */
class TimerWheelPacerTest {
    private static final long TICK = 1L << 20;

    /** A pacer that counts its runs. */
    private static final class Counting implements Runnable {
        int runs;

        @Override
        public void run() {
            runs++;
        }
    }

    @Test
    void anAdvanceThatExpiresOneSlot_runsThePacerOncePerPaceEntries() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(TICK, 0);
        Counting pacer = new Counting();
        wheel.pacer(pacer);
        int n = 10 * TimerWheel.PACE_ENTRIES + 5;
        for (int i = 0; i < n; i++) {
            wheel.add(new TestEntry(i, 5 * TICK + (n - i))); // one level-0 slot ahead, latest first
        }
        assertEquals(0, pacer.runs, "adding runs no pacer");
        assertEquals(n, wheel.advance(10 * TICK)); // passes the slot: every entry expires, moved once
        assertEquals(10, pacer.runs);
        for (int i = n - 1; i >= 0; i--) {
            assertEquals(i, wheel.poll().id, "the earliest deadline first");
        }
        assertNull(wheel.poll());
        assertEquals(10, pacer.runs, "polling runs no pacer");
    }

    @Test
    void theCountCarriesOverFromOneAdvanceToTheNext_andANewPacerStartsAfresh() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(TICK, 0);
        Counting first = new Counting();
        wheel.pacer(first);
        int half = TimerWheel.PACE_ENTRIES / 2;
        for (int i = 0; i < 3 * half; i++) {
            wheel.add(new TestEntry(i, (2 + 2 * (i / half)) * TICK + 1)); // half a pace in slots 2, 4 and 6
        }
        // each advance passes one of those slots and stops at an empty one: half a pace moved per advance
        wheel.advance(3 * TICK);
        assertEquals(0, first.runs, "half a pace moved");
        wheel.advance(5 * TICK);
        assertEquals(1, first.runs, "a whole pace over two advances");
        Counting second = new Counting();
        wheel.pacer(second);
        wheel.advance(7 * TICK);
        assertEquals(0, second.runs, "half a pace since the pacer was set");
        assertEquals(1, first.runs);
        wheel.pacer(null);
        for (int i = 0; i < 4 * TimerWheel.PACE_ENTRIES; i++) {
            wheel.add(new TestEntry(100 + i, 8 * TICK + 1));
        }
        assertEquals(3 * half + 4 * TimerWheel.PACE_ENTRIES, wheel.advance(9 * TICK));
        assertEquals(0, second.runs, "no pacer: nothing runs");
    }

    @Test
    void aPacedWheel_handsOutExactlyWhatAnUnpacedOneDoes_evenWithAPacerThatThrows() {
        for (boolean throwing : new boolean[] {false, true}) {
            SplittableRandom random = new SplittableRandom(0x9ACE_D1L);
            TimerWheel<TestEntry> plain = new TimerWheel<>(TICK, 0);
            TimerWheel<TestEntry> paced = new TimerWheel<>(TICK, 0);
            Counting counting = new Counting();
            paced.pacer(() -> {
                counting.run();
                if (throwing) {
                    throw new IllegalStateException("a pacer that throws");
                }
            });
            List<TestEntry> plainEntries = new ArrayList<>(), pacedEntries = new ArrayList<>();
            List<Integer> plainOut = new ArrayList<>(), pacedOut = new ArrayList<>();
            long now = 0;
            int id = 0;
            for (int step = 0; step < 20_000; step++) {
                int op = random.nextInt(100);
                if (op < 60) {
                    // deadlines from overdue to a few level-1 slots ahead, many sharing a tick
                    long deadline = now + random.nextLong(-TICK, 300 * TICK);
                    plainEntries.add(new TestEntry(id, deadline));
                    pacedEntries.add(new TestEntry(id, deadline));
                    plain.add(plainEntries.get(id));
                    paced.add(pacedEntries.get(id));
                    id++;
                } else if (op < 70 && id > 0) {
                    int victim = random.nextInt(id);
                    assertEquals(plain.remove(plainEntries.get(victim)), paced.remove(pacedEntries.get(victim)));
                } else {
                    now += random.nextLong(0, 8 * TICK);
                    assertEquals(plain.advance(now), paced.advance(now));
                    for (TestEntry e; (e = plain.poll()) != null; ) {
                        plainOut.add(e.id);
                    }
                    for (TestEntry e; (e = paced.poll()) != null; ) {
                        pacedOut.add(e.id);
                    }
                }
            }
            now += 400 * TICK;
            plain.expire(now, e -> plainOut.add(e.id));
            paced.expire(now, e -> pacedOut.add(e.id));
            assertEquals(plainOut, pacedOut, "throwing pacer: " + throwing);
            assertTrue(plain.isEmpty() && paced.isEmpty());
            assertTrue(counting.runs > 100, "the pacer ran: " + counting.runs);
        }
    }
}
