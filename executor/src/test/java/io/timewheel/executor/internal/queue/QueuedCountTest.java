package io.timewheel.executor.internal.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QueuedCountTest {

    @Test
    void countsInAndOut_fromOneThread() {
        QueuedCount count = new QueuedCount();
        assertTrue(count.isEmpty());
        assertEquals(0, count.sum());
        count.increment();
        count.increment();
        assertFalse(count.isEmpty());
        assertEquals(2, count.sum());
        count.decrement();
        assertEquals(1, count.sum());
        count.decrement();
        assertTrue(count.isEmpty());
        assertEquals(0, count.sum());
    }

    @Test
    void anEntryCountedInByOneThread_andOutByAnother_leavesZero() throws Exception {
        QueuedCount count = new QueuedCount();
        count.increment();
        Thread other = new Thread(count::decrement);
        other.start();
        other.join();
        assertTrue(count.isEmpty());
        assertEquals(0, count.sum());
    }

    @Test
    void manyThreads_countingAtOnce_sumExactlyWhenQuiet() throws Exception {
        QueuedCount count = new QueuedCount();
        int threads = 8;
        int perThread = 200_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int keep = t; // thread t leaves t entries counted in
            Thread thread = new Thread(() -> {
                await(start);
                for (int i = 0; i < perThread; i++) {
                    count.increment();
                    if (i >= keep) {
                        count.decrement();
                    }
                }
            });
            all.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : all) {
            thread.join();
        }
        assertEquals(threads * (threads - 1) / 2, count.sum());
        assertFalse(count.isEmpty());
    }

    /**
     * The property termination relies on: a thread that counts entry B in and then entry A out (as a worker
     * that re-arms one periodic task and takes the next) keeps the count at 1 or more, so isEmpty() never
     * answers true and sum() never 0, however the reader's passes over the cells interleave with it. A sum
     * read in one pass can read a cell's count-in before B and its count-out after A, and answer 0.
     */
    @Test
    void isEmpty_neverTrue_whileAnEntryIsQueuedThroughout() throws Exception {
        QueuedCount count = new QueuedCount();
        count.increment(); // the first entry, queued from the start
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong falseEmpties = new AtomicLong();
        AtomicLong zeroSums = new AtomicLong();
        Thread worker = new Thread(() -> {
            for (int i = 0; i < 5_000_000; i++) {
                count.increment(); // the next entry queued
                count.decrement(); // the previous one taken: one is still queued
            }
        });
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                if (count.isEmpty()) {
                    falseEmpties.incrementAndGet();
                }
                if (count.sum() <= 0) {
                    zeroSums.incrementAndGet();
                }
            }
        });
        reader.start();
        worker.start();
        worker.join();
        stop.set(true);
        reader.join();
        assertEquals(0, falseEmpties.get(), "isEmpty() answered true while one entry was queued throughout");
        assertEquals(0, zeroSums.get(), "sum() answered 0 while one entry was queued throughout");
        assertEquals(1, count.sum());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
