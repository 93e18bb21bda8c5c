package io.timewheel.executor.internal.queue;

import io.timewheel.wheel.TimerWheel;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Queue;
import java.util.Set;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ReadyQueue against a model (a sorted set on (deadline, sequence)): entries arriving in order (appended to
 * the run), out of order (the heap), with equal deadlines created in one order and pushed in another, and
 * in sorted batches handed over from a real TimerWheel, interleaved with takes and polls at a moving clock.
 * Every entry handed out must be the model's least, and only once it is due.
 */
class ReadyQueueTest extends QueueTestBase {

    private static final Comparator<QueueEntry> ORDER = (a, b) -> {
        long d = a.deadline() - b.deadline();
        return d != 0 ? Long.signum(d) : Integer.signum(a.sequence() - b.sequence());
    };

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void handsOutExactlyTheModelsLeastDueEntry_whateverOrderEntriesArriveIn(int seed) throws Exception {
        long start = seed % 2 == 0 ? Long.MAX_VALUE - 1_000_000_000L : 0L; // even seeds cross the nanoTime wrap
        start(start, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        TimerWheel<QueueEntry> wheel = new TimerWheel<>(start);
        TreeSet<QueueEntry> model = new TreeSet<>(ORDER);
        HandOverBatch batch = new HandOverBatch();
        SplittableRandom random = new SplittableRandom(seed);
        List<QueueEntry> held = new ArrayList<>(); // created, not pushed yet: pushed later, out of creation order
        long ascending = start; // the deadline of the in-order stream
        int handedOut = 0;

        for (int step = 0; step < 20_000; step++) {
            long now = clock.nanoTime();
            int op = random.nextInt(100);
            if (op < 45) { // in order: a stream of non-decreasing deadlines, ties included
                ascending += random.nextInt(4) == 0 ? 0 : random.nextLong(1_000, 200_000);
                if (ascending - now < 0) {
                    ascending = now;
                }
                push(ready, model, entry(ascending));
            } else if (op < 55) { // anywhere in the horizon, or already overdue
                push(ready, model, entry(now + random.nextLong(-1_000_000, ReadyQueue.HORIZON_NANOS)));
            } else if (op < 60) { // equal deadlines, created now and pushed later in another order
                long deadline = random.nextBoolean() ? ascending : now + random.nextLong(ReadyQueue.HORIZON_NANOS);
                for (int i = random.nextInt(1, 5); i > 0; i--) {
                    held.add(entry(deadline));
                }
            } else if (op < 63 && !held.isEmpty()) {
                for (int i = held.size() - 1; i >= 0; i--) {
                    push(ready, model, held.get(i));
                }
                held.clear();
            } else if (op < 68) { // a batch through the wheel, sorted by it, handed over in one call
                for (int i = random.nextInt(1, 40); i > 0; i--) {
                    QueueEntry e = entry(now + random.nextLong(ReadyQueue.HORIZON_NANOS));
                    e.tryFile();
                    wheel.addInSequence(e);
                    model.add(e);
                }
                wheel.advance(now + ReadyQueue.HORIZON_NANOS);
                batch.takeExpired(wheel, null);
                ready.pushBatch(batch, 0L);
                batch.clear();
            } else if (op < 85) {
                handedOut += takeOrPoll(ready, model, random.nextBoolean());
            } else {
                clock.advanceNanos(random.nextLong(1, 400_000));
            }
        }
        for (QueueEntry e : held) {
            push(ready, model, e);
        }
        clock.advanceNanos(2 * ReadyQueue.HORIZON_NANOS + (ascending - clock.nanoTime()));
        while (!model.isEmpty()) {
            assertEquals(1, takeOrPoll(ready, model, handedOut % 2 == 0));
            handedOut++;
        }
        assertNull(ready.pollDue());
        assertNull(ready.take(true, 0, null));
    }

    /**
     * Producers that push at once into a queue that grows many times from its initial 16 entries, while a
     * consumer takes the due ones (so the ring's head moves and its growth copies a wrapped ring): each producer
     * allocates larger arrays before it takes the lock on a hint read without it (the size it saw), which
     * another producer may have made stale, so some of those arrays are used and some dropped. Every entry
     * pushed must come out exactly once, the consumer's only when due, and the rest in (deadline, sequence)
     * order.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3})
    @Timeout(60)
    void concurrentPushesIntoAGrowingQueue_loseNothing_andKeepTheOrder(int seed) throws Exception {
        start(0L, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        int producers = 4;
        int each = 20_000;
        List<List<QueueEntry>> pushed = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            SplittableRandom random = new SplittableRandom(seed * 31L + p);
            List<QueueEntry> mine = new ArrayList<>();
            long ascending = 0;
            for (int i = 0; i < each; i++) {
                // half in order (the ring), half anywhere (the heap), a few with equal deadlines
                ascending += random.nextInt(8) == 0 ? 0 : random.nextLong(1, 1_000);
                mine.add(entry(random.nextBoolean() ? ascending : random.nextLong(0, 40_000_000L)));
            }
            pushed.add(mine);
        }
        clock.advanceNanos(10_000_000L); // about a third due as they arrive: the consumer's
        long now = clock.nanoTime();
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CyclicBarrier go = new CyclicBarrier(producers + 1);
        AtomicBoolean pushing = new AtomicBoolean(true);
        List<QueueEntry> consumed = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (List<QueueEntry> mine : pushed) {
            threads.add(start(errors, () -> {
                go.await();
                for (QueueEntry e : mine) {
                    ready.push(e, 0L);
                }
            }));
        }
        Thread consumer = start(errors, () -> {
            go.await();
            for (boolean last = false; !last; ) {
                last = !pushing.get(); // one more sweep after the producers are done
                for (QueueEntry e; (e = ready.pollDue()) != null; ) {
                    consumed.add(e);
                }
            }
        });
        for (Thread t : threads) {
            t.join();
        }
        pushing.set(false);
        consumer.join();
        assertEquals(List.of(), new ArrayList<>(errors));

        Set<QueueEntry> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (QueueEntry e : consumed) {
            assertTrue(seen.add(e), "handed out twice");
            assertTrue(e.deadline() - now <= 0, "handed out before its deadline");
        }
        TreeSet<QueueEntry> model = new TreeSet<>(ORDER);
        pushed.forEach(model::addAll);
        assertEquals(producers * each, model.size());
        model.removeAll(seen);
        clock.advanceNanos(1_000_000_000L);
        while (!model.isEmpty()) {
            assertEquals(1, takeOrPoll(ready, model, model.size() % 2 == 0));
        }
        assertNull(ready.pollDue());
        assertTrue(consumed.size() > 0, "the consumer took nothing: the test did not run as meant");
    }

    /**
     * The ring grows while it wraps around the end of its arrays (its head moved on by takes): the entries before
     * and after the wrap must all come out, in order. A push grows it at three quarters full.
     */
    @ParameterizedTest(name = "{0} taken first")
    @ValueSource(ints = {1, 5, 8, 11})
    void ringGrowingWhileWrapped_keepsEveryEntryInOrder(int taken) throws Exception {
        start(0L, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        TreeSet<QueueEntry> model = new TreeSet<>(ORDER);
        long deadline = 0;
        for (int i = 0; i < 12; i++) {
            push(ready, model, entry(deadline += 1_000)); // in order: the ring, 12 of its 16 slots
        }
        clock.advanceNanos(deadline);
        for (int i = 0; i < taken; i++) {
            assertEquals(1, takeOrPoll(ready, model, false)); // the ring's head moves on
        }
        for (int i = 0; i < 40; i++) { // past the end of the arrays, then past growths
            push(ready, model, entry(deadline += 1_000));
        }
        clock.advanceNanos(deadline);
        while (!model.isEmpty()) {
            assertEquals(1, takeOrPoll(ready, model, model.size() % 2 == 0));
        }
        assertNull(ready.pollDue());
    }

    /** Starts a thread running {@code body}; what it throws goes to {@code errors}. */
    private static Thread start(Queue<Throwable> errors, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                errors.add(e);
            }
        });
        t.start();
        return t;
    }

    private interface Body {
        void run() throws Exception;
    }

    /**
     * The starvation watch looks by the earliest live deadline a scan finds: a live entry in the heap below a
     * not-due node that left the queue must still be found, not hidden by the pruning of the heap's walk.
     */
    @Test
    void scan_findsTheEarliestLiveDeadline_belowAHeapNodeThatLeftTheQueue() {
        start(0L, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        ready.push(entry(3_000), 0L); // the ring
        ScheduledTask<Void> gone = entry(1_000);
        ready.push(gone, 0L); // before the ring's tail: the heap, its root
        ready.push(entry(2_000), 0L); // the heap, below the root
        assertEquals(QueueEntry.REMOVED, gone.tryRemove()); // left the queue, still in the heap
        ReadyQueue.Overdue scan = new ReadyQueue.Overdue();
        ready.scan(500, scan); // nothing due
        assertEquals(0, scan.count);
        assertTrue(scan.any);
        assertEquals(2_000, scan.earliestDeadline, "the live heap entry below the root that left the queue");
    }

    /**
     * An entry that allows a take-ahead (as the netty module's timeouts do) is taken that much before its
     * deadline only from the head: never ahead of an earlier entry that is not due, never beyond its take-ahead;
     * the executor's own tasks allow none.
     */
    @Test
    void anEntryAllowingATakeAhead_isTakenWithinIt_onlyFromTheHead() throws InterruptedException {
        start(0L, 1);
        ReadyQueue ready = new ReadyQueue(clock, null);
        ScheduledTask<Void> plain = entry(1_500_000);
        AheadEntry ahead = new AheadEntry(queue, 2_000_000, 1_000_000);
        AheadEntry beyond = new AheadEntry(queue, 2_500_001, 1_000_000);
        ready.push(beyond, 0L);
        ready.push(ahead, 0L);
        ready.push(plain, 0L);
        clock.advanceNanos(1_200_000); // ahead is within its take-ahead, but plain, before it, is not due
        assertNull(ready.take(true, 0, null), "taken past an earlier entry that is not due");
        clock.advanceNanos(299_999); // 1 ns before plain's deadline
        assertNull(ready.take(true, 0, null), "a task of the executor's own taken before its deadline");
        clock.advanceNanos(1);
        assertSame(plain, ready.take(true, 0, null));
        assertSame(ahead, ready.take(true, 0, null), "0.5 ms before its deadline, within its take-ahead");
        assertNull(ready.take(true, 0, null), "taken 1 ns beyond its take-ahead");
        clock.advanceNanos(1);
        assertSame(beyond, ready.take(true, 0, null));
        assertNull(ready.take(true, 0, null));
    }

    /** A queue entry whose task's deadline is not its own: it may be taken up to {@code ahead} before it. */
    private static final class AheadEntry extends TaskEntry {
        private final long ahead;
        private boolean queued = true; // one thread: the test's

        AheadEntry(TaskQueue queue, long deadline, long ahead) {
            super(queue, deadline);
            this.ahead = ahead;
        }

        @Override
        public long takeAheadNanos() {
            return ahead;
        }

        @Override
        public Runnable runnable() {
            return () -> { };
        }

        @Override
        public boolean isQueued() {
            return queued;
        }

        @Override
        public boolean tryFile() {
            return queued;
        }

        @Override
        public boolean tryUnfile() {
            return queued;
        }

        @Override
        public boolean tryTake() {
            boolean was = queued;
            queued = false;
            return was;
        }

        @Override
        public int tryRemove() {
            return tryTake() ? REMOVED : NOT_REMOVED;
        }

        @Override
        protected void markQueued() {
        }
    }

    private ScheduledTask<Void> entry(long deadline) {
        ScheduledTask<Void> task = new ScheduledTask<>(queue, (Runnable) () -> { }, deadline);
        task.markQueued(); // never counted in the executor's queue: only this test's ReadyQueue holds it
        return task;
    }

    private static void push(ReadyQueue ready, TreeSet<QueueEntry> model, QueueEntry e) {
        ready.push(e, 0L);
        model.add(e);
    }

    /** Takes (timed, no wait) or polls one entry: the model's least if it is due, else none. */
    private int takeOrPoll(ReadyQueue ready, TreeSet<QueueEntry> model, boolean take) throws InterruptedException {
        QueueEntry got = take ? ready.take(true, 0, null) : ready.pollDue();
        QueueEntry least = model.isEmpty() ? null : model.first();
        if (least == null || least.deadline() - clock.nanoTime() > 0) {
            assertNull(got, "handed out an entry before its deadline, or one that was never pushed");
            return 0;
        }
        assertSame(least, got, "not the least due entry by (deadline, sequence)");
        model.pollFirst();
        return 1;
    }
}
