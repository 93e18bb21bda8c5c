package io.timewheel.executor;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Builder {@code virtualThreadPerRun} (issue 27): each due run on a new virtual thread. The tests of the mode
 * itself need Java 21+ and are skipped on older runtimes; there the option must fail at build().
 */
class VirtualThreadDispatchTest extends ManualClockTestBase {

    private static final boolean VIRTUAL_THREADS = Runtime.version().feature() >= 21;

    private static boolean isVirtual(Thread t) {
        return t.getClass().getName().equals("java.lang.VirtualThread");
    }

    @Test
    void beforeJava21_buildFails_withAClearMessage() {
        assumeTrue(!VIRTUAL_THREADS, "this runtime has virtual threads");
        UnsupportedOperationException x = assertThrows(UnsupportedOperationException.class,
                () -> WheelScheduledExecutorService.builder().virtualThreadPerRun().build());
        assertTrue(x.getMessage().contains("Java 21 or later"), x.getMessage());
    }

    @Test
    void oneHundredThousandTasksDueAtOnce_eachSleeping100ms_allFinish() throws Exception {
        assumeTrue(VIRTUAL_THREADS, "virtual threads need Java 21+");
        start(0L, 1, b -> b.virtualThreadPerRun());
        int n = 100_000;
        AtomicInteger done = new AtomicInteger();
        AtomicInteger onVirtual = new AtomicInteger();
        for (int i = 0; i < n; i++) {
            executor.schedule(() -> {
                if (isVirtual(Thread.currentThread())) {
                    onVirtual.incrementAndGet();
                }
                try {
                    Thread.sleep(100); // the workload: a blocking call of 100 ms
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            }, 1, SECONDS);
        }
        clock.advance(1, SECONDS);
        sync();
        // one pool thread would need 10,000 s for these; on virtual threads they overlap
        await().atMost(Duration.ofSeconds(30)).until(() -> done.get() == n);
        assertEquals(n, onVirtual.get());
        assertEquals(1, executor.getPoolSize());
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.getCompletedTaskCount() == n);
    }

    @Test
    void cancelTrue_interruptsTheRunsVirtualThread() throws Exception {
        assumeTrue(VIRTUAL_THREADS, "virtual threads need Java 21+");
        start(0L, 1, b -> b.virtualThreadPerRun());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        List<Thread> runner = new ArrayList<>();
        ScheduledFuture<?> f = executor.schedule(() -> {
            runner.add(Thread.currentThread());
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException expected) {
                interrupted.countDown();
            }
        }, 0, SECONDS);
        assertTrue(started.await(10, SECONDS));
        assertTrue(isVirtual(runner.get(0)));
        assertTrue(f.cancel(true));
        assertTrue(interrupted.await(10, SECONDS));
    }

    @Test
    void boundedConcurrency_neverRunsMoreThanTheBound() throws Exception {
        assumeTrue(VIRTUAL_THREADS, "virtual threads need Java 21+");
        start(0L, 1, b -> b.virtualThreadPerRun(2));
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            executor.schedule(() -> {
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
                done.incrementAndGet();
            }, 1, MILLISECONDS);
        }
        clock.advance(1, MILLISECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 2);
        assertEquals(2, executor.getActiveCount());
        // the other eight wait: one held by the pool thread for a permit, seven overdue in the queue
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.statistics().overdue() == 7);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> done.get() == 10);
        assertEquals(2, maxRunning.get());
    }

    @Test
    void fixedRate_runsNeverOverlap_onVirtualThreads() throws Exception {
        assumeTrue(VIRTUAL_THREADS, "virtual threads need Java 21+");
        start(0L, 1, b -> b.virtualThreadPerRun());
        AtomicInteger inRun = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            if (inRun.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            clock.advance(5, MILLISECONDS); // each run "takes" 5 periods
            Thread.yield();
            runs.incrementAndGet();
            inRun.decrementAndGet();
        }, 1, 1, MILLISECONDS);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1)).until(() -> {
            clock.advance(1, MILLISECONDS);
            sync();
            return runs.get() >= 20;
        });
        f.cancel(false);
        assertEquals(0, overlaps.get());
    }
}
