package io.timewheel.executor;

import org.junit.jupiter.api.Test;

import static io.timewheel.executor.ReadyQueue.GIVE_WAY_NANOS;
import static io.timewheel.executor.ReadyQueue.MAX_GIVE_WAY_NANOS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a pusher yields its CPU to the workers (ReadyQueue's notes: Giving way): only while the head is overdue
 * by more than GIVE_WAY_NANOS, at most once per interval per queue, the interval doubling while the workers
 * poll nothing between yields and reset by any poll. On a manual clock; push's return value says whether it
 * yielded.
 */
class ReadyQueueGiveWayTest extends ManualClockTestBase {

    @Test
    void giveWay_onlyPastTheLag_andNotBeforeTheInterval() {
        long head = 1_000_000L;
        long every = GIVE_WAY_NANOS;
        long longAgo = head - 10 * MAX_GIVE_WAY_NANOS;
        assertFalse(ReadyQueue.giveWay(head, head, longAgo, every), "due now, not overdue");
        assertFalse(ReadyQueue.giveWay(head, head + GIVE_WAY_NANOS, longAgo, every), "overdue by the lag exactly");
        assertTrue(ReadyQueue.giveWay(head, head + GIVE_WAY_NANOS + 1, longAgo, every));
        long now = head + 5 * GIVE_WAY_NANOS;
        assertFalse(ReadyQueue.giveWay(head, now, now - every + 1, every), "within the interval of the last yield");
        assertTrue(ReadyQueue.giveWay(head, now, now - every, every));
        assertFalse(ReadyQueue.giveWay(head, now, now - every, 4 * every), "a longer interval");
        // across the nanoTime wrap: differences, not values, are compared
        long wrapHead = Long.MAX_VALUE - GIVE_WAY_NANOS;
        long wrapNow = wrapHead + 2 * GIVE_WAY_NANOS; // overflows to a negative value
        assertTrue(ReadyQueue.giveWay(wrapHead, wrapNow, wrapNow - every, every));
        assertFalse(ReadyQueue.giveWay(wrapNow, wrapHead, wrapHead - every, every), "due in the future");
    }

    @Test
    void backOff_doubles_upToTheCap() {
        long every = GIVE_WAY_NANOS;
        int steps = 0;
        while (every < MAX_GIVE_WAY_NANOS) {
            long next = ReadyQueue.backOff(every);
            assertEquals(Math.min(every * 2, MAX_GIVE_WAY_NANOS), next);
            every = next;
            steps++;
        }
        assertEquals(10, steps, "from 2^14 to 2^24 ns");
        assertEquals(MAX_GIVE_WAY_NANOS, ReadyQueue.backOff(MAX_GIVE_WAY_NANOS));
    }

    @Test
    void push_yieldsWhileTheHeadIsOverdue_backsOffWhileNothingIsPolled_andResetsOnAPoll() {
        long start = 1_000_000_000L;
        start(start, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);

        assertFalse(ready.push(entry(start + 1_000_000), clock.nanoTime()), "nothing overdue");
        assertFalse(ready.push(entry(start - GIVE_WAY_NANOS), clock.nanoTime()), "the head overdue by the lag exactly");
        assertTrue(ready.push(entry(start + 2_000_000), clock.nanoTime() + 1), "the head overdue by more: yields");
        assertFalse(ready.push(entry(start + 2_000_000), clock.nanoTime() + 1), "once per interval");

        // nothing polled since: each interval twice the one before
        long every = GIVE_WAY_NANOS;
        long at = clock.nanoTime() + 1;
        for (int i = 0; i < 6; i++) {
            long next = every * 2;
            assertFalse(ready.push(entry(start + 3_000_000), at + next - 1), "interval " + next + ": too soon");
            assertTrue(ready.push(entry(start + 3_000_000), at + next), "interval " + next);
            at += next;
            every = next;
        }

        // a poll since the last yield: the interval is back to GIVE_WAY_NANOS
        clock.advanceNanos(at - clock.nanoTime());
        assertNotNull(ready.pollDue());
        assertTrue(ready.push(entry(start + 3_000_000), at + GIVE_WAY_NANOS), "reset by the poll");
        at += GIVE_WAY_NANOS;
        assertFalse(ready.push(entry(start + 3_000_000), at + 2 * GIVE_WAY_NANOS - 1), "backing off again");
        assertTrue(ready.push(entry(start + 3_000_000), at + 2 * GIVE_WAY_NANOS));
    }

    @Test
    void push_neverYields_whileTheQueueKeepsUp() {
        long start = 5_000_000_000L;
        start(start, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        for (int i = 0; i < 1_000; i++) {
            long now = clock.nanoTime();
            assertFalse(ready.push(entry(now + 1_000 * (i % 7)), now), "push " + i);
            clock.advanceNanos(1_000);
            while (ready.pollDue() != null) {
                // a worker that keeps up: every due entry taken before the next push
            }
        }
    }

    private ScheduledTask<Void> entry(long deadline) {
        ScheduledTask<Void> task = new ScheduledTask<>(executor.queue, (Runnable) () -> { }, deadline);
        task.markQueued(); // never counted in the executor's queue: only this test's ReadyQueue holds it
        return task;
    }
}
