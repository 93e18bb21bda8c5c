package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The intrusive multi-producer, single-consumer inbox in front of the wheel. */
class TimerInboxTest {

    @Test
    void newInbox_isEmpty_andPollsNull() {
        TimerInbox inbox = new TimerInbox();
        assertTrue(inbox.isEmpty());
        assertNull(inbox.poll());
        assertTrue(inbox.isEmpty());
    }

    @Test
    void isEmpty_isFalseWhileAnEntryIsQueued_andTrueOnceTheLastIsPolled() {
        TimerInbox inbox = new TimerInbox();
        TestEntry a = new TestEntry(1), b = new TestEntry(2);
        inbox.offer(a);
        assertFalse(inbox.isEmpty());
        assertSame(a, inbox.poll());
        assertTrue(inbox.isEmpty());
        inbox.offer(a);
        inbox.offer(b);
        assertSame(a, inbox.poll());
        assertFalse(inbox.isEmpty());
        assertSame(b, inbox.poll());
        assertTrue(inbox.isEmpty());
        assertNull(inbox.poll());
    }

    @Test
    void singleThread_handsEntriesOutInOfferOrder_underInterleavedOffersAndPolls() {
        TimerInbox inbox = new TimerInbox();
        ArrayDeque<TestEntry> model = new ArrayDeque<>();
        SplittableRandom random = new SplittableRandom(11);
        List<TestEntry> free = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            free.add(new TestEntry(i));
        }
        for (int step = 0; step < 200_000; step++) {
            if (!free.isEmpty() && random.nextInt(100) < 52) {
                TestEntry e = free.remove(free.size() - 1);
                inbox.offer(e);
                model.addLast(e);
            } else {
                TestEntry got = (TestEntry) inbox.poll();
                assertSame(model.pollFirst(), got);
                if (got != null) {
                    free.add(got); // polled entries are reused: offered again later
                }
            }
            assertEquals(model.isEmpty(), inbox.isEmpty());
        }
    }

    @Test
    void anEntry_canBeOfferedAgain_afterItIsPolled() {
        TimerInbox inbox = new TimerInbox();
        TestEntry e = new TestEntry(1);
        for (int i = 0; i < 1_000; i++) {
            inbox.offer(e);
            assertSame(e, inbox.poll());
            assertNull(inbox.poll());
            assertTrue(inbox.isEmpty());
        }
    }

    @Test
    void polledEntries_canGoStraightIntoAWheel() {
        // The inbox and the wheel share the entry's link field: an entry handed out by the inbox must be a
        // clean wheel node, and an entry polled from the wheel a clean inbox node.
        TimerInbox inbox = new TimerInbox();
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, 0);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 100; i++) {
                inbox.offer(new TestEntry(i, wheel.time() + 1 + (i * 37L) % 100));
            }
            TimerEntry e;
            while ((e = inbox.poll()) != null) {
                wheel.add((TestEntry) e);
            }
            assertEquals(100, wheel.advance(wheel.time() + 100));
            long last = Long.MIN_VALUE;
            TestEntry fired;
            while ((fired = wheel.poll()) != null) {
                assertTrue(fired.deadline() >= last);
                last = fired.deadline();
                inbox.offer(fired.at(fired.deadline() + 1000)); // back through the inbox
            }
            int n = 0;
            while ((e = inbox.poll()) != null) {
                n++;
                assertFalse(((TestEntry) e).isInWheel());
            }
            assertEquals(100, n);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES) // a hang guard only
    void fourProducers_oneConsumer_everyEntryArrivesOnce_inEachProducersOrder_withItsDeadline() throws InterruptedException {
        int producers = 4;
        int perProducer = 250_000;
        TimerInbox inbox = new TimerInbox();
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    for (int i = 0; i < perProducer; i++) {
                        // The deadline is a plain write before offer: the consumer must see it.
                        inbox.offer(new TestEntry(producer << 24 | i, deadlineOf(producer, i)));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "inbox-producer-" + p);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }

        int[] nextIndex = new int[producers];
        long received = 0, nullWhileNotEmpty = 0;
        go.countDown();
        while (received < (long) producers * perProducer) {
            TimerEntry polled = inbox.poll();
            if (polled == null) {
                if (!inbox.isEmpty()) {
                    nullWhileNotEmpty++; // a producer between its swap and its link
                }
                if (failure.get() != null) {
                    fail("a producer failed", failure.get());
                }
                Thread.yield(); // two cores, five threads: let the producers run
                continue;
            }
            TestEntry e = (TestEntry) polled;
            int producer = e.id >>> 24, index = e.id & ((1 << 24) - 1);
            if (index != nextIndex[producer]) {
                fail("producer " + producer + ": got entry " + index + ", expected " + nextIndex[producer]
                        + " (lost, duplicated or reordered)");
            }
            if (e.deadline() != deadlineOf(producer, index)) {
                fail("entry " + index + " of producer " + producer + " arrived without its deadline: " + e.deadline());
            }
            nextIndex[producer]++;
            received++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(failure.get());
        assertNull(inbox.poll(), "nothing more than was offered");
        assertTrue(inbox.isEmpty());
        for (int p = 0; p < producers; p++) {
            assertEquals(perProducer, nextIndex[p]);
        }
        System.out.printf("TimerInboxTest: %,d entries from %d producers; poll saw a producer mid-offer %,d times%n",
                received, producers, nullWhileNotEmpty);
    }

    private static long deadlineOf(int producer, int index) {
        return producer * 1_000_000_007L + index * 31L - Long.MAX_VALUE;
    }
}
