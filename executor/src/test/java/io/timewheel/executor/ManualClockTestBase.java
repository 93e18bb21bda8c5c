package io.timewheel.executor;

import io.timewheel.executor.internal.tick.TickProbe;
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
    /** The test seam into the executor's (dedicated) tick thread. */
    TickProbe probe;
    WheelScheduledExecutorService executor;

    WheelScheduledExecutorService start(long startTime, int threads) {
        return start(startTime, threads, b -> b);
    }

    /** As {@link #start(long, int)}, with more builder options. */
    WheelScheduledExecutorService start(long startTime, int threads,
                                        UnaryOperator<WheelScheduledExecutorService.Builder> options) {
        clock = new ManualClock(startTime);
        probe = new TickProbe();
        executor = options.apply(WheelScheduledExecutorService.builder().corePoolSize(threads)
                .testSeam(clock, probe)).build();
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
        return syncPoint().wheelSize();
    }

    /** As {@link #sync()}, returning what the tick thread saw. */
    TickProbe.Seen syncPoint() throws InterruptedException {
        return probe.sync(10, SECONDS);
    }
}
