package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counting under concurrency, on both timers: producers schedule timeouts with random delays and cancel some of
 * them while others come due, then the timer is stopped with timeouts still pending. Every accepted timeout
 * ends in exactly one way (it ran once, a cancel returned true for it, or stop() returned it), and none ran
 * before its deadline (the clock read just before newTimeout plus the delay).
 */
class TimerCountingTest extends TimerTest {

    private static final int PRODUCERS = 2;
    private static final int PER_PRODUCER = 5_000;
    /** Most delays are random in [0, MAX_DELAY_MICROS): due while the producers run, or soon after. */
    private static final int MAX_DELAY_MICROS = 30_000;
    /** One timeout in FAR_ONE_IN has a delay of an hour: still pending when the timer stops. */
    private static final int FAR_ONE_IN = 10;

    @BothTimers
    void everyTimeout_runsOnceOrIsCancelledOrReturnedByStop_andNoneEarly(TimerKind kind) throws Exception {
        Timer timer = timer(kind);
        int n = PRODUCERS * PER_PRODUCER;
        AtomicLongArray deadline = new AtomicLongArray(n);
        AtomicLongArray ranAt = new AtomicLongArray(n);
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicIntegerArray cancelled = new AtomicIntegerArray(n);
        AtomicIntegerArray returned = new AtomicIntegerArray(n);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch firstRun = new CountDownLatch(1);
        Thread[] producers = new Thread[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            int first = p * PER_PRODUCER;
            producers[p] = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(first + 1);
                Timeout[] mine = new Timeout[PER_PRODUCER];
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < PER_PRODUCER; i++) {
                    int id = first + i;
                    long delay = random.nextInt(FAR_ONE_IN) == 0 ? HOURS.toMicros(1) : random.nextInt(MAX_DELAY_MICROS);
                    deadline.set(id, System.nanoTime() + MICROSECONDS.toNanos(delay));
                    mine[i] = timer.newTimeout(new Probe(id, ranAt, runs, firstRun), delay, MICROSECONDS);
                    if (random.nextInt(3) == 0) { // cancel one of the recent ones: some already due, most not
                        int victim = Math.max(0, i - random.nextInt(50));
                        if (mine[victim].cancel()) {
                            cancelled.incrementAndGet(first + victim);
                        }
                    }
                }
            }, "producer-" + p);
            producers[p].start();
        }
        go.countDown();
        for (Thread t : producers) {
            t.join();
        }
        awaitLatch(firstRun); // so that the stop comes while timeouts run, not before any has
        Set<Timeout> left = timer.stop();
        for (Timeout t : left) {
            assertTrue(t.isCancelled(), "stop() cancels what it returns");
            returned.incrementAndGet(((Probe) t.task()).id);
        }
        int ran = 0, early = 0;
        for (int id = 0; id < n; id++) {
            int ways = runs.get(id) + cancelled.get(id) + returned.get(id);
            assertEquals(1, ways, "timeout " + id + ": runs " + runs.get(id) + ", cancelled " + cancelled.get(id)
                    + ", returned by stop " + returned.get(id));
            if (runs.get(id) == 1) {
                ran++;
                if (ranAt.get(id) - deadline.get(id) < 0) {
                    early++;
                }
            }
        }
        assertEquals(0, early, early + " of " + ran + " timeouts ran before their deadline");
        assertTrue(ran > 0 && !left.isEmpty(), "the scenario covers both: " + ran + " ran, " + left.size() + " left at the stop");
    }

    /** Records when, and how often, it runs. */
    private static final class Probe implements TimerTask {
        final int id;
        private final AtomicLongArray ranAt;
        private final AtomicIntegerArray runs;
        private final CountDownLatch firstRun;

        Probe(int id, AtomicLongArray ranAt, AtomicIntegerArray runs, CountDownLatch firstRun) {
            this.id = id;
            this.ranAt = ranAt;
            this.runs = runs;
            this.firstRun = firstRun;
        }

        @Override
        public void run(Timeout timeout) {
            ranAt.set(id, System.nanoTime());
            runs.incrementAndGet(id);
            firstRun.countDown();
        }
    }
}
