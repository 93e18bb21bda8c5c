package io.timewheel.executor;

import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.tick.TickProbe;
import io.timewheel.executor.internal.tick.TickThread;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The opt-in tick thread priority (TickThread's notes: Priority): the system property sets the priority of
 * the tick threads created after it is set, anything but a priority is ignored with one warning, and a
 * tick thread of lowered priority still runs the executor's timers.
 */
@ExtendWith(UnexpectedReports.class)
class TickThreadPriorityTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(TickThread.PRIORITY_PROPERTY);
    }

    /** A dedicated tick thread is created with its executor; its priority is the property's at that moment. */
    private static int tickPriorityOfNewExecutor() throws InterruptedException {
        TickProbe probe = new TickProbe();
        WheelScheduledExecutorService executor =
                WheelScheduledExecutorService.builder().testSeam(null, probe).build();
        try {
            CountDownLatch ran = new CountDownLatch(1);
            // beyond the near term, so that the tick thread files it and hands it over
            executor.schedule(ran::countDown, ReadyQueue.HORIZON_NANOS + 1_000_000, TimeUnit.NANOSECONDS);
            assertTrue(ran.await(30, TimeUnit.SECONDS), "the timer ran");
            return probe.thread().getPriority();
        } finally {
            executor.shutdownNow();
            assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void withoutThePropertyTheTickThreadHasNormalPriority() throws InterruptedException {
        assertEquals(Thread.NORM_PRIORITY, tickPriorityOfNewExecutor());
    }

    @ParameterizedTest
    @ValueSource(ints = {Thread.MIN_PRIORITY, 3, Thread.MAX_PRIORITY})
    void thePropertySetsThePriorityOfTickThreadsCreatedAfterIt(int priority) throws InterruptedException {
        System.setProperty(TickThread.PRIORITY_PROPERTY, " " + priority + " ");
        assertEquals(priority, tickPriorityOfNewExecutor());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "11", "-1", "low", ""})
    void anythingButAPriorityIsIgnoredWithOneWarning(String value) throws InterruptedException {
        System.setProperty(TickThread.PRIORITY_PROPERTY, value);
        assertEquals(Thread.NORM_PRIORITY, tickPriorityOfNewExecutor());
        UnexpectedReports.take("ignoring " + TickThread.PRIORITY_PROPERTY + "=" + value + ":", 1);
    }
}
