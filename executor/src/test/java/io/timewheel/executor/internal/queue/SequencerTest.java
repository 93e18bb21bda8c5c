package io.timewheel.executor.internal.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequencer: the numbers that break ties between equal deadlines follow creation order wherever two tasks can
 * be due at once (equal deadlines; a periodic task against any other), whichever counters they came from,
 * and nearby deadlines spread over the counters (else two producers would share one line again).
 */
class SequencerTest {

    /** Wrap-around order, as TimerEntry's sequences are compared. */
    private static boolean before(int a, int b) {
        return a - b < 0;
    }

    @Test
    void equalDeadlines_numberedInCreationOrder() {
        long[] sequencer = Sequencer.newCounters();
        SplittableRandom random = new SplittableRandom(7);
        long[] deadlines = random.longs(64).toArray();
        int[] last = new int[deadlines.length];
        for (int i = 0; i < deadlines.length; i++) {
            last[i] = Sequencer.next(sequencer, deadlines[i]);
        }
        for (int round = 0; round < 10_000; round++) {
            int i = random.nextInt(deadlines.length);
            int number = Sequencer.next(sequencer, deadlines[i]);
            assertTrue(before(last[i], number), "deadline " + deadlines[i] + ": " + last[i] + " then " + number);
            last[i] = number;
        }
    }

    @Test
    void aPeriodicNumber_isAfterEveryNumberTakenBefore_andBeforeEveryNumberTakenAfter_onEveryCounter() {
        long[] sequencer = Sequencer.newCounters();
        SplittableRandom random = new SplittableRandom(11);
        for (int round = 0; round < 200; round++) {
            // counters drift apart: some deadlines take many numbers, most few
            List<Integer> before = new ArrayList<>();
            int draws = random.nextInt(1, 300);
            long hot = random.nextLong();
            for (int i = 0; i < draws; i++) {
                before.add(Sequencer.next(sequencer, random.nextInt(4) == 0 ? random.nextLong() : hot));
            }
            int periodic = Sequencer.nextForAnyDeadline(sequencer);
            for (int number : before) {
                assertTrue(before(number, periodic), "taken before the periodic task: " + number + ", periodic " + periodic);
            }
            for (int i = 0; i < 64; i++) {
                int after = Sequencer.next(sequencer, random.nextLong());
                assertTrue(before(periodic, after), "taken after the periodic task: " + after + ", periodic " + periodic);
            }
            int nextPeriodic = Sequencer.nextForAnyDeadline(sequencer);
            assertTrue(before(periodic, nextPeriodic), periodic + " then " + nextPeriodic);
        }
    }

    @Test
    void everyCounterIsReached_soThePeriodicPassMatters() {
        // a periodic number must exceed numbers on the cell of every deadline: check that each cell is in use
        // (else the test above would pass with one counter)
        Set<Integer> cells = new HashSet<>();
        long now = 123_456_789L;
        for (long d = now; d < now + 1_000; d++) {
            cells.add(Sequencer.index(d));
        }
        assertEquals(16, cells.size(), "1000 consecutive deadlines reach every one of the 16 counters");
    }

    @Test
    void nearbyDeadlines_spreadOverTheCounters() {
        // two producers scheduling the same delay a few ns apart should rarely share a counter
        int shared = 0;
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            long d = random.nextLong();
            if (Sequencer.index(d) == Sequencer.index(d + 1 + random.nextInt(200))) {
                shared++;
            }
        }
        assertTrue(shared < 10_000 / 16 * 2, "deadlines a few ns apart share a counter " + shared + " times in 10000");
    }

    @Test
    void numbersTakenAfterAnotherThreadsNumber_areLater_onEqualDeadlines() throws Exception {
        long[] sequencer = Sequencer.newCounters();
        long deadline = 42L;
        AtomicInteger handedOver = new AtomicInteger();
        for (int round = 0; round < 100; round++) {
            Thread t = new Thread(() -> handedOver.set(Sequencer.next(sequencer, deadline)));
            t.start();
            t.join(); // happens-before
            int mine = Sequencer.next(sequencer, deadline);
            assertTrue(before(handedOver.get(), mine));
            Thread p = new Thread(() -> handedOver.set(Sequencer.nextForAnyDeadline(sequencer)));
            p.start();
            p.join();
            assertTrue(before(mine, handedOver.get()));
            assertTrue(before(handedOver.get(), Sequencer.next(sequencer, deadline + round)));
        }
    }
}
