package io.timewheel.executor.internal.queue;

import org.junit.jupiter.api.Test;

import static io.timewheel.executor.internal.queue.GiveWay.LAG_NANOS;
import static io.timewheel.executor.internal.queue.GiveWay.MAX_INTERVAL_NANOS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a pusher yields its CPU to the workers (GiveWay's notes): only while the head is overdue by more than
 * LAG_NANOS, at most once per interval per queue, the interval doubling while the workers poll nothing between
 * yields and reset by any poll, even while the workers run late. GiveWay on given times; the queue on a manual
 * clock, push's return value saying whether it yielded.
 */
class ReadyQueueGiveWayTest extends QueueTestBase {

    @Test
    void afterPush_onlyPastTheLag() {
        long head = 1_000_000L;
        assertFalse(new GiveWay(head).afterPush(head, head), "due now, not overdue");
        assertFalse(new GiveWay(head).afterPush(head, head + LAG_NANOS), "overdue by the lag exactly");
        assertTrue(new GiveWay(head).afterPush(head, head + LAG_NANOS + 1), "a fresh queue: the first overdue look yields");
        // across the nanoTime wrap: differences, not values, are compared
        long wrapHead = Long.MAX_VALUE - LAG_NANOS;
        long wrapNow = wrapHead + 2 * LAG_NANOS; // overflows to a negative value
        assertTrue(new GiveWay(wrapNow).afterPush(wrapHead, wrapNow));
        assertFalse(new GiveWay(wrapHead).afterPush(wrapNow, wrapHead), "due in the future");
    }

    @Test
    void backOff_doubles_upToTheCap() {
        long every = LAG_NANOS;
        int steps = 0;
        while (every < MAX_INTERVAL_NANOS) {
            long next = GiveWay.backOff(every);
            assertEquals(Math.min(every * 2, MAX_INTERVAL_NANOS), next);
            every = next;
            steps++;
        }
        assertEquals(10, steps, "from 2^14 to 2^24 ns");
        assertEquals(MAX_INTERVAL_NANOS, GiveWay.backOff(MAX_INTERVAL_NANOS));
    }

    @Test
    void whileNothingIsPolled_yieldsOncePerInterval_theIntervalDoubling() {
        long head = 1_000_000L;
        long at = head + 2 * LAG_NANOS;
        GiveWay giveWay = new GiveWay(at);
        assertTrue(giveWay.afterPush(head, at));
        assertFalse(giveWay.afterPush(head, at), "once per interval");
        long every = LAG_NANOS;
        for (int i = 0; i < 12; i++) {
            long next = Math.min(every * 2, MAX_INTERVAL_NANOS);
            assertFalse(giveWay.afterPush(head, at + next - 1), "interval " + next + ": too soon");
            assertTrue(giveWay.afterPush(head, at + next), "interval " + next);
            at += next;
            every = next;
        }
        assertEquals(MAX_INTERVAL_NANOS, every, "capped");
    }

    @Test
    void aPollSinceTheLastYield_resetsTheInterval() {
        long head = 1_000_000L;
        long at = head + 2 * LAG_NANOS;
        GiveWay giveWay = new GiveWay(at);
        assertTrue(giveWay.afterPush(head, at));
        for (int i = 0; i < 5; i++) { // backed off to 64 x LAG_NANOS
            at += LAG_NANOS << (i + 1);
            assertTrue(giveWay.afterPush(head, at));
        }
        giveWay.polled();
        assertFalse(giveWay.afterPush(head, at + LAG_NANOS - 1), "a poll since: the interval is LAG_NANOS, not yet");
        assertTrue(giveWay.afterPush(head, at + LAG_NANOS), "a poll since: reset");
        at += LAG_NANOS;
        assertFalse(giveWay.afterPush(head, at + 2 * LAG_NANOS - 1), "backing off again");
        assertTrue(giveWay.afterPush(head, at + 2 * LAG_NANOS));
    }

    @Test
    void push_yieldsWhileTheHeadIsOverdue_backsOffWhileNothingIsPolled_andResetsOnAPoll() {
        long start = 1_000_000_000L;
        start(start, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);

        assertFalse(ready.push(entry(start + 1_000_000), clock.nanoTime()), "nothing overdue");
        assertFalse(ready.push(entry(start - LAG_NANOS), clock.nanoTime()), "the head overdue by the lag exactly");
        assertTrue(ready.push(entry(start + 2_000_000), clock.nanoTime() + 1), "the head overdue by more: yields");
        assertFalse(ready.push(entry(start + 2_000_000), clock.nanoTime() + 1), "once per interval");

        // nothing polled since: each interval twice the one before
        long every = LAG_NANOS;
        long at = clock.nanoTime() + 1;
        for (int i = 0; i < 6; i++) {
            long next = every * 2;
            assertFalse(ready.push(entry(start - LAG_NANOS), at + next - 1), "interval " + next + ": too soon");
            assertTrue(ready.push(entry(start - LAG_NANOS), at + next), "interval " + next);
            at += next;
            every = next;
        }

        // a poll since the last yield (pollLocked counts it): the interval is back to LAG_NANOS
        clock.advanceNanos(at - clock.nanoTime());
        assertNotNull(ready.pollDue()); // one of the overdue entries: others stay at the head
        assertTrue(ready.push(entry(start + 3_000_000), at + LAG_NANOS), "reset by the poll");
        at += LAG_NANOS;
        assertFalse(ready.push(entry(start + 3_000_000), at + 2 * LAG_NANOS - 1), "backing off again");
        assertTrue(ready.push(entry(start + 3_000_000), at + 2 * LAG_NANOS));
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

    @Test
    void push_yieldsOncePerLag_whileTheWorkersRunLateButKeepTaking() {
        // ExpiryBenchmark's shape: the head stays overdue (the workers run behind) though they take a head
        // between any two pushes; a worker sharing the pusher's CPU runs like this, and the yields feed it
        // (GiveWay's notes: the rejected rule that counted its polls as progress)
        long start = 7_000_000_000L;
        start(start, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        for (int i = 0; i < 20; i++) {
            ready.push(entry(start - 10 * LAG_NANOS), clock.nanoTime()); // a backlog, overdue
        }
        for (int i = 0; i < 1_000; i++) {
            assertNotNull(ready.pollDue(), "a worker takes one, late");
            clock.advanceNanos(LAG_NANOS - 1);
            assertFalse(ready.push(entry(start - 10 * LAG_NANOS), clock.nanoTime()), "push " + i + ": too soon");
            clock.advanceNanos(1);
            assertTrue(ready.push(entry(start - 10 * LAG_NANOS), clock.nanoTime()), "push " + i);
        }
    }

    private ScheduledTask<Void> entry(long deadline) {
        ScheduledTask<Void> task = new ScheduledTask<>(queue, (Runnable) () -> { }, deadline);
        task.markQueued(); // never counted in the executor's queue: only this test's ReadyQueue holds it
        return task;
    }
}
