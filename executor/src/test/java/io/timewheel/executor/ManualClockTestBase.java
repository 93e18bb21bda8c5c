package io.timewheel.executor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * For executor tests on a manual clock: start an executor, sync with its tick thread, shut everything down,
 * and fail on any report the executor made that the test did not take (UnexpectedReports).
 */
@ExtendWith(UnexpectedReports.class)
abstract class ManualClockTestBase {

    final List<WheelScheduledExecutorService> executors = new ArrayList<>();
    ManualClock clock;
    WheelScheduledExecutorService executor;

    WheelScheduledExecutorService start(long startTime, int threads) {
        return start(startTime, threads, b -> b);
    }

    /** As {@link #start(long, int)}, with more builder options. */
    WheelScheduledExecutorService start(long startTime, int threads,
                                        UnaryOperator<WheelScheduledExecutorService.Builder> options) {
        clock = new ManualClock(startTime);
        executor = options.apply(WheelScheduledExecutorService.builder().corePoolSize(threads).clock(clock)).build();
        executors.add(executor);
        return executor;
    }

    @AfterEach
    void shutDown() throws InterruptedException {
        for (WheelScheduledExecutorService e : executors) {
            e.shutdownNow();
            assertTrue(e.awaitTermination(10, SECONDS));
        }
    }

    /** Returns the wheel size the tick thread saw after handing over everything due at the clock's time. */
    int sync() throws InterruptedException {
        return syncPoint().await(10, SECONDS);
    }

    /** As {@link #sync()}, returning the answered Sync. */
    Sync syncPoint() throws InterruptedException {
        Sync sync = new Sync(executor.queue);
        executor.tickThread().command(sync);
        sync.await(10, SECONDS);
        return sync;
    }
}
