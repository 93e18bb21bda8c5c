package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The striped inbox in front of the tick thread's wheels: every entry offered is handed out exactly once or
 * retracted, never both; retract takes back only the top of the caller's stripe before the consumer detaches
 * it; one stripe's entries come out in offer order.
 */
class StripedInboxTest {

    // ---------------------------------------------------------------------------------------------
    // Construction and emptiness

    @Test
    void byDefault_atLeast16Stripes_soThreadsWithIdsFewerThan16ApartNeverShareOne() throws Exception {
        StripedInbox inbox = new StripedInbox();
        // threads created one after another (a pool's workers) get ids close together: each its own stripe
        long[] ids = new long[16];
        int[] stripes = new int[16];
        for (int i = 0; i < 16; i++) {
            FutureTask<Integer> stripe = new FutureTask<>(inbox::stripe);
            Thread t = new Thread(stripe);
            t.start();
            stripes[i] = stripe.get(10, TimeUnit.SECONDS);
            ids[i] = threadId(t);
        }
        for (int i = 0; i < 16; i++) {
            for (int j = i + 1; j < 16; j++) {
                if (Math.abs(ids[i] - ids[j]) < 16) {
                    assertTrue(stripes[i] != stripes[j], "ids " + ids[i] + " and " + ids[j] + " share stripe " + stripes[i]);
                }
            }
        }
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19
    private static long threadId(Thread t) {
        return t.getId();
    }

    @Test
    void constructor_acceptsPowersOfTwoFrom1To1024_only() {
        for (int stripes = 1; stripes <= 1024; stripes <<= 1) {
            int s = stripes;
            assertDoesNotThrow(() -> new StripedInbox(s), "stripes " + s);
        }
        for (int bad : new int[]{0, -1, -2, 3, 5, 6, 12, 100, 1000, 1023, 1025, 2048, 1 << 30,
                Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> new StripedInbox(bad), "stripes " + bad);
        }
    }

    @Test
    void defaultConstructor_givesAWorkingInbox() {
        StripedInbox inbox = new StripedInbox();
        assertTrue(inbox.isEmpty());
        TestEntry a = new TestEntry(1, 10);
        inbox.offer(a);
        assertFalse(inbox.isEmpty());
        assertEquals(1, inbox.detachAll());
        assertSame(a, inbox.poll());
        assertTrue(inbox.isEmpty());
    }

    @Test
    void newInbox_isEmpty_hasNothingDetached_andPollsNull() {
        StripedInbox inbox = new StripedInbox(8);
        assertTrue(inbox.isEmpty());
        assertFalse(inbox.hasDetached());
        assertNull(inbox.poll());
        assertEquals(0, inbox.detachAll());
        assertNull(inbox.poll());
        assertTrue(inbox.isEmpty());
    }

    @Test
    void isEmpty_followsOffersDetachesPollsAndRetracts() throws Exception {
        StripedInbox inbox = new StripedInbox(8);
        TestEntry a = new TestEntry(1, 5), u = new TestEntry(2, 6);
        inbox.offer(a);
        assertFalse(inbox.isEmpty(), "offered, not detached");
        assertTrue(inbox.retract(a));
        assertTrue(inbox.isEmpty(), "the only entry was retracted");

        inbox.offer(u);
        assertFalse(inbox.isEmpty(), "an untimed entry counts too");
        assertEquals(1, inbox.detachAll());
        assertFalse(inbox.isEmpty(), "detached and not handed out");
        assertSame(u, inbox.poll());
        assertTrue(inbox.isEmpty());

        // an entry on another thread's stripe counts as well
        onOtherThread(() -> {
            inbox.offer(a);
            return null;
        });
        assertFalse(inbox.isEmpty());
        assertEquals(1, inbox.detachAll());
        assertSame(a, inbox.poll());
        assertTrue(inbox.isEmpty());
    }

    // ---------------------------------------------------------------------------------------------
    // Offer, detachAll, poll

    @Test
    void poll_returnsNullBeforeDetachAll_thenHandsOutEveryEntryExactlyOnce() {
        StripedInbox inbox = new StripedInbox(4);
        List<TestEntry> offered = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            TestEntry e = new TestEntry(i, 1_000 + i);
            offered.add(e);
            if (i % 3 == 0) {
                inbox.offer(e);
            } else {
                inbox.offer(e);
            }
            assertTrue(e.isInInbox(), "offered: in the inbox");
        }
        assertNull(inbox.poll(), "poll hands out detached entries only");
        assertFalse(inbox.hasDetached());
        assertFalse(inbox.isEmpty());

        assertEquals(100, inbox.detachAll());
        assertTrue(inbox.hasDetached());
        Set<Integer> seen = new HashSet<>();
        TimerEntry e;
        while ((e = inbox.poll()) != null) {
            TestEntry t = (TestEntry) e;
            assertTrue(seen.add(t.id), "handed out twice: " + t);
            assertFalse(t.isInInbox(), "handed out: no longer in the inbox");
            assertFalse(t.isInWheel());
            assertEquals(1_000 + t.id, t.deadline());
        }
        assertEquals(100, seen.size());
        assertFalse(inbox.hasDetached());
        assertTrue(inbox.isEmpty());
        assertEquals(0, inbox.detachAll());
        assertNull(inbox.poll());
    }

    @Test
    void entriesOfferedAfterADetach_waitForTheNextDetach() {
        StripedInbox inbox = new StripedInbox(4);
        TestEntry a = new TestEntry(1, 1), b = new TestEntry(2, 2);
        inbox.offer(a);
        assertEquals(1, inbox.detachAll());
        inbox.offer(b);
        assertSame(a, inbox.poll());
        assertNull(inbox.poll(), "b was offered after the detach");
        assertFalse(inbox.hasDetached());
        assertFalse(inbox.isEmpty());
        assertTrue(b.isInInbox());
        assertEquals(1, inbox.detachAll());
        assertSame(b, inbox.poll());
        assertNull(inbox.poll());
        assertTrue(inbox.isEmpty());
    }

    @Test
    void detachAll_collectsEveryStripe_andAddsToWhatIsStillDetached() throws Exception {
        StripedInbox inbox = new StripedInbox(16);
        int threads = 8, perThread = 10;
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            onOtherThread(() -> {
                for (int i = 0; i < perThread; i++) {
                    inbox.offer(new TestEntry(base + i, base + i));
                }
                return null;
            });
        }
        TestEntry mine = new TestEntry(1_000, 0);
        inbox.offer(mine);
        assertEquals(threads * perThread + 1, inbox.detachAll());
        TimerEntry first = inbox.poll(); // one handed out, the rest still detached
        assertNotNull(first);
        TestEntry late = new TestEntry(2_000, 0);
        onOtherThread(() -> {
            inbox.offer(late);
            return null;
        });
        assertEquals(1, inbox.detachAll());
        Set<Integer> seen = new HashSet<>();
        seen.add(((TestEntry) first).id);
        TimerEntry e;
        while ((e = inbox.poll()) != null) {
            assertTrue(seen.add(((TestEntry) e).id), "handed out twice: " + e);
        }
        assertEquals(threads * perThread + 2, seen.size());
        assertTrue(seen.contains(1_000) && seen.contains(2_000));
        assertTrue(inbox.isEmpty());
    }

    @Test
    void anEntry_canBeOfferedAgain_afterItIsHandedOutOrRetracted() {
        StripedInbox inbox = new StripedInbox(2);
        TestEntry e = new TestEntry(1, 7);
        for (int i = 0; i < 1_000; i++) {
            inbox.offer(e);
            if (i % 2 == 0) {
                assertTrue(inbox.retract(e));
                assertEquals(0, inbox.detachAll());
            } else {
                assertEquals(1, inbox.detachAll());
                assertSame(e, inbox.poll());
            }
            assertFalse(e.isInInbox());
            assertNull(inbox.poll());
            assertTrue(inbox.isEmpty());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Retract

    @Test
    void retract_succeedsOnlyForTheTopOfTheCallersStripe() {
        StripedInbox inbox = new StripedInbox(4);
        TestEntry a = new TestEntry(1, 1), b = new TestEntry(2, 2), never = new TestEntry(3, 3);
        assertFalse(inbox.retract(never), "never offered");
        inbox.offer(a);
        inbox.offer(b);
        assertFalse(inbox.retract(a), "a is below b");
        assertTrue(a.isInInbox());
        assertTrue(inbox.retract(b));
        assertFalse(b.isInInbox(), "retracted: no longer in the inbox");
        assertFalse(inbox.retract(b), "already retracted");
        assertTrue(inbox.retract(a), "a is the top again");
        assertFalse(a.isInInbox());
        assertTrue(inbox.isEmpty());
        assertEquals(0, inbox.detachAll());
        assertNull(inbox.poll());
    }

    @Test
    void retract_failsOnceTheConsumerDetachedTheEntry_whichIsThenHandedOut() {
        StripedInbox inbox = new StripedInbox(4);
        TestEntry a = new TestEntry(1, 1);
        inbox.offer(a);
        assertEquals(1, inbox.detachAll());
        assertFalse(inbox.retract(a), "detached: too late to take it back");
        assertTrue(a.isInInbox(), "detached but not handed out: still in the inbox");
        assertSame(a, inbox.poll());
        assertFalse(a.isInInbox());
        assertFalse(inbox.retract(a));
        assertNull(inbox.poll());
    }

    @Test
    void retractedEntries_areNeverHandedOut_andTheRestAllAre() {
        StripedInbox inbox = new StripedInbox(4);
        List<TestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            TestEntry e = new TestEntry(i, i);
            entries.add(e);
            inbox.offer(e);
        }
        assertFalse(inbox.retract(entries.get(4)), "not on top");
        assertTrue(inbox.retract(entries.get(9)));
        assertTrue(inbox.retract(entries.get(8)));
        assertTrue(inbox.retract(entries.get(7)));
        TestEntry after = new TestEntry(100, 100);
        inbox.offer(after); // pushed on what is left below the retracted ones
        assertFalse(inbox.retract(entries.get(6)), "not on top any more");

        assertEquals(8, inbox.detachAll());
        Set<Integer> seen = new HashSet<>();
        TimerEntry e;
        while ((e = inbox.poll()) != null) {
            assertTrue(seen.add(((TestEntry) e).id), "handed out twice: " + e);
        }
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 100), seen);
        for (int i = 7; i <= 9; i++) {
            assertFalse(entries.get(i).isInInbox());
        }
    }

    @Test
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19; the inbox picks stripes by it
    void retract_fromAnotherThreadsStripe_fails() throws Exception {
        long mine = Thread.currentThread().getId();
        AtomicReference<StripedInbox> box = new AtomicReference<>();
        TestEntry x = new TestEntry(1, 1), y = new TestEntry(2, 2);
        List<Boolean> results = new ArrayList<>();
        CountDownLatch inboxReady = new CountDownLatch(1), offeredX = new CountDownLatch(1);
        CountDownLatch otherDone = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            try {
                inboxReady.await();
                offeredX.await();
                StripedInbox inbox = box.get();
                results.add(inbox.retract(x)); // x is on the main thread's stripe
                inbox.offer(y);
                results.add(inbox.retract(x));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                otherDone.countDown();
            }
        }, "striped-inbox-other");
        long theirs = other.getId();
        // the smallest stripe count that puts the two threads on different stripes (threads pick by id)
        int stripes = Long.numberOfTrailingZeros(mine ^ theirs) < 10 ? (int) Long.lowestOneBit(mine ^ theirs) << 1 : 0;
        assumeTrue(stripes != 0, "thread ids " + mine + " and " + theirs + " share every stripe count up to 1024");
        StripedInbox inbox = new StripedInbox(stripes);
        box.set(inbox);
        other.start();
        inboxReady.countDown();
        inbox.offer(x);
        offeredX.countDown();
        assertTrue(otherDone.await(10, TimeUnit.SECONDS));
        other.join();
        assertEquals(List.of(false, false), results, "another stripe's top was taken back");
        assertFalse(inbox.retract(y), "y is on the other thread's stripe");
        assertTrue(inbox.retract(x), "x is still the top of the main thread's stripe");
        assertEquals(1, inbox.detachAll());
        assertSame(y, inbox.poll());
        assertTrue(inbox.isEmpty());
    }

    @Test
    void oneStripesEntries_comeOutInOfferOrder_acrossDetaches() {
        StripedInbox inbox = new StripedInbox(4);
        TestEntry a = new TestEntry(1, 30), b = new TestEntry(2, 10), c = new TestEntry(3, 20);
        TestEntry d = new TestEntry(4, 5);
        inbox.offer(a);
        inbox.offer(b);
        assertEquals(2, inbox.detachAll());
        inbox.offer(c);
        inbox.offer(d);
        assertEquals(2, inbox.detachAll());
        assertSame(a, inbox.poll());
        assertSame(b, inbox.poll());
        assertSame(c, inbox.poll());
        assertSame(d, inbox.poll());
        assertNull(inbox.poll());
    }

    @Test
    void oneStripe_isSharedByEveryThread_soRetractTakesBackItsTopWhoeverOfferedIt() throws Exception {
        StripedInbox inbox = new StripedInbox(1);
        TestEntry x = new TestEntry(1, 1), x2 = new TestEntry(2, 2), y = new TestEntry(3, 3);
        inbox.offer(x);
        assertTrue(onOtherThread(() -> inbox.retract(x)), "x is the top of the one stripe");
        assertTrue(inbox.isEmpty());

        inbox.offer(x2);
        onOtherThread(() -> {
            inbox.offer(y);
            return null;
        });
        assertFalse(inbox.retract(x2), "another thread's entry is on top of x2");
        assertTrue(x2.isInInbox());
        assertEquals(2, inbox.detachAll());
        Set<Integer> seen = new HashSet<>();
        TimerEntry e;
        while ((e = inbox.poll()) != null) {
            seen.add(((TestEntry) e).id);
        }
        assertEquals(Set.of(2, 3), seen);
    }

    // ---------------------------------------------------------------------------------------------
    // Into a wheel

    @Test
    void handedOutEntries_goIntoAWheelInSequence_soEqualDeadlinesComeOutInCreationOrder() throws Exception {
        StripedInbox inbox = new StripedInbox(4);
        TimerWheel<SeqEntry> wheel = new TimerWheel<>(1, 0);
        List<SeqEntry> created = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            created.add(new SeqEntry(i, 1_000, i - 20)); // sequences across 0, equal deadlines
        }
        // offered in reverse, from four threads: the consumer receives them in no particular order
        for (int t = 0; t < 4; t++) {
            int thread = t;
            onOtherThread(() -> {
                for (int i = created.size() - 1; i >= 0; i--) {
                    if (i % 4 == thread) {
                        inbox.offer(created.get(i));
                    }
                }
                return null;
            });
        }
        SeqEntry stillIn = created.get(0);
        assertTrue(stillIn.isInInbox());
        assertThrows(IllegalStateException.class, () -> wheel.addInSequence(stillIn), "an entry in the inbox");
        assertFalse(wheel.remove(stillIn), "an entry in the inbox is in no wheel");

        assertEquals(40, inbox.detachAll());
        TimerEntry e;
        while ((e = inbox.poll()) != null) {
            wheel.addInSequence((SeqEntry) e);
        }
        assertEquals(40, wheel.advance(1_000));
        for (int i = 0; i < 40; i++) {
            SeqEntry fired = wheel.poll();
            assertSame(created.get(i), fired, "position " + i);
            assertEquals(i - 20, fired.sequence());
        }
        assertNull(wheel.poll());
    }

    // ---------------------------------------------------------------------------------------------
    // Concurrency

    @ParameterizedTest(name = "stripes = {0}")
    @ValueSource(ints = {1, 4, 16})
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard only
    void fourProducersRetractingEveryKth_oneConsumer_everyEntryIsRetractedOrHandedOut_exactlyOnce(int stripes)
            throws InterruptedException {
        int producers = 4, perProducer = 50_000, k = 3;
        StripedInbox inbox = new StripedInbox(stripes);
        // what each producer's retract returned, read by this thread after join
        boolean[][] retracted = new boolean[producers][perProducer];
        int[][] handedOut = new int[producers][perProducer];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger running = new AtomicInteger(producers);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    TestEntry previous = null;
                    for (int i = 0; i < perProducer; i++) {
                        TestEntry e = new TestEntry(producer << 24 | i, deadlineOf(producer, i));
                        if (i % 5 == 4) {
                            inbox.offer(e);
                        } else {
                            inbox.offer(e);
                        }
                        if (i % k == 0 && inbox.retract(e)) {
                            retracted[producer][i] = true;
                            if (e.isInInbox()) {
                                throw new AssertionError("retracted, yet in the inbox: " + e);
                            }
                            // the entry below is now the top, unless the consumer detached the stripe or
                            // another thread of the stripe pushed meanwhile: retract must move top to its next
                            if (previous != null && i % (2 * k) == 0 && inbox.retract(previous)) {
                                retracted[producer][i - 1] = true;
                            }
                        }
                        previous = e;
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    running.decrementAndGet();
                }
            }, "striped-inbox-producer-" + p);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }

        go.countDown();
        long consumed = 0;
        boolean last = false;
        while (!last) {
            last = running.get() == 0; // then one more detach takes whatever was offered before
            inbox.detachAll();
            TimerEntry polled;
            while ((polled = inbox.poll()) != null) {
                TestEntry e = (TestEntry) polled;
                int producer = e.id >>> 24, index = e.id & ((1 << 24) - 1);
                handedOut[producer][index]++;
                consumed++;
                if (e.deadline() != deadlineOf(producer, index)) {
                    fail("entry " + index + " of producer " + producer + " arrived without its deadline: " + e.deadline());
                }
                if (e.isInInbox()) {
                    fail("handed out, yet in the inbox: " + e);
                }
            }
            if (failure.get() != null) {
                fail("a producer failed", failure.get());
            }
            if (!last) {
                Thread.yield(); // two cores, five threads: let the producers run
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(failure.get());
        assertEquals(0, inbox.detachAll(), "nothing left after the producers ended and the last detach");
        assertNull(inbox.poll());
        assertTrue(inbox.isEmpty());

        long retractedCount = 0;
        for (int p = 0; p < producers; p++) {
            for (int i = 0; i < perProducer; i++) {
                int outs = handedOut[p][i];
                boolean back = retracted[p][i];
                if (back && outs != 0) {
                    fail("producer " + p + " entry " + i + ": retracted and handed out " + outs + " times");
                }
                if (!back && outs != 1) {
                    fail("producer " + p + " entry " + i + ": not retracted and handed out " + outs + " times");
                }
                if (back) {
                    retractedCount++;
                }
            }
        }
        assertEquals((long) producers * perProducer, consumed + retractedCount);
        System.out.printf("StripedInboxTest: %d stripes, %,d entries: %,d retracted, %,d handed out%n",
                stripes, (long) producers * perProducer, retractedCount, consumed);
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers

    /** An entry with a sequence given at construction, for wheels fed with addInSequence. */
    static final class SeqEntry extends TimerEntry {
        final int id;

        SeqEntry(int id, long deadline, int sequence) {
            super(deadline, sequence);
            this.id = id;
        }

        @Override
        public String toString() {
            return "#" + id + "@" + deadline + "/seq" + sequence + "/loc" + location;
        }
    }

    private static long deadlineOf(int producer, int index) {
        return producer * 1_000_000_007L + index * 31L - Long.MAX_VALUE; // near the wrap: MIN_VALUE + ...
    }

    /** Runs {@code body} on a new thread (so on that thread's stripe), waits for it and returns its result. */
    private static <T> T onOtherThread(Callable<T> body) throws Exception {
        FutureTask<T> task = new FutureTask<>(body);
        Thread t = new Thread(task, "striped-inbox-helper");
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive(), "helper thread hung");
        return task.get();
    }
}
