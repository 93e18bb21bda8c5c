package io.timewheel.executor;

import io.timewheel.wheel.TimerWheel;
import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.tick.TickProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.LogRecord;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wheel's tick, set through {@link WheelScheduledExecutorService.Builder#tickNanos} or the system property
 * {@code timewheel.tickNanos} (which the agent's {@code tickNanos} option sets): it reaches the executor's
 * wheel, and deadlines stay exact whatever it is (it only decides where an entry waits).
 */
class TickSizeTest extends ManualClockTestBase {
    private static final String PROPERTY = "timewheel.tickNanos";

    @ParameterizedTest(name = "tick = {0} ns")
    @ValueSource(longs = {1L, 1L << 10, 1L << 16, 1L << 26, TimerWheel.MAX_TICK_NANOS})
    void builderTick_isTheWheelsTick_andEveryTaskRunsExactlyAtItsDeadline(long tick) throws Exception {
        clock = new ManualClock(-MILLISECONDS.toNanos(1)); // the wheel's clock crosses zero too
        probe = new TickProbe();
        executor = WheelScheduledExecutorService.builder().corePoolSize(1).testSeam(clock, probe).tickNanos(tick).build();
        executors.add(executor);
        long start = clock.nanoTime();
        // all beyond the ready queue's horizon, so each one waits in the wheel; none a multiple of the tick
        long[] delays = {ReadyQueue.HORIZON_NANOS + 7, 3 * tick + ReadyQueue.HORIZON_NANOS + 12_345,
                SECONDS.toNanos(1) + 1, SECONDS.toNanos(200) + 3};
        java.util.Arrays.sort(delays);
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        List<AtomicLong> startedAt = new ArrayList<>();
        for (long delay : delays) {
            AtomicLong at = new AtomicLong(Long.MIN_VALUE);
            startedAt.add(at);
            futures.add(executor.schedule(() -> at.set(clock.nanoTime()), delay, NANOSECONDS));
        }
        assertEquals(tick, syncRequest().wheelTickNanos());
        for (int i = 0; i < delays.length; i++) {
            long deadline = start + delays[i];
            clock.advanceNanos(deadline - 1 - clock.nanoTime());
            syncRequest();
            assertFalse(futures.get(i).isDone(), "ran before its deadline: delay " + delays[i]);
            clock.advanceNanos(1);
            syncRequest();
            ScheduledFuture<?> f = futures.get(i);
            await().atMost(Duration.ofSeconds(10)).until(f::isDone);
            assertEquals(deadline, startedAt.get(i).get(), "delay " + delays[i]);
        }
    }

    @Test
    void tickProperty_isTheDefaultOfEveryBuilder() throws Exception {
        long tick = 1L << 18;
        String before = System.setProperty(PROPERTY, Long.toString(tick));
        try {
            start(0L, 1);
        } finally {
            restore(before);
        }
        executor.schedule(() -> { }, 1, SECONDS);
        assertEquals(tick, syncRequest().wheelTickNanos());
    }

    @Test
    void badTickProperty_isIgnoredWithAWarning_andTheDefaultTickApplies() throws Exception {
        String before = System.setProperty(PROPERTY, "1000"); // not a power of two
        try {
            start(0L, 1);
        } finally {
            restore(before);
        }
        List<LogRecord> reports = UnexpectedReports.take("ignoring timewheel.tickNanos=1000", 1);
        assertTrue(reports.get(0).getMessage().contains("power of two"), reports.get(0).getMessage());
        executor.schedule(() -> { }, 1, SECONDS);
        assertEquals(ExecutorOptions.DEFAULT_TICK_NANOS, syncRequest().wheelTickNanos());
    }

    /**
     * A malformed property is named once per JVM, not once per executor built: every builder reads the
     * defaults, and the agent builds one executor per STPE it swaps. A value not named before (the warning is
     * once per property and value) so that no other test of this JVM has used it up.
     */
    @Test
    void badTickProperty_isWarnedAboutOnce_howeverManyExecutorsAreBuilt() throws Exception {
        String before = System.setProperty(PROPERTY, "3");
        try {
            for (int i = 0; i < 3; i++) {
                executors.add(new WheelScheduledExecutorService(1));
                executors.add(WheelScheduledExecutorService.builder().build());
            }
        } finally {
            restore(before);
        }
        UnexpectedReports.take("ignoring timewheel.tickNanos=3", 1);
        ForkJoinPool.commonPool().awaitQuiescence(1, SECONDS);
        assertEquals(0, UnexpectedReports.count("ignoring timewheel.tickNanos=3"), "warned about more than once");
    }

    @Test
    void badLateThresholdProperty_isWarnedAboutOnce_howeverManyExecutorsAreBuilt() throws Exception {
        String property = "timewheel.lateThresholdMillis";
        String before = System.setProperty(property, "-7");
        try {
            for (int i = 0; i < 3; i++) {
                executors.add(new WheelScheduledExecutorService(1));
            }
        } finally {
            if (before == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, before);
            }
        }
        UnexpectedReports.take("ignoring timewheel.lateThresholdMillis=-7", 1);
        assertEquals(0, UnexpectedReports.count("ignoring timewheel.lateThresholdMillis=-7"), "warned about more than once");
    }

    @Test
    void badBuilderTick_throwsIllegalArgumentException() {
        WheelScheduledExecutorService.Builder builder = WheelScheduledExecutorService.builder();
        for (long bad : new long[] {0L, -1L, 3L, 1000L, TimerWheel.MAX_TICK_NANOS << 1, Long.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> builder.tickNanos(bad), "tick " + bad);
        }
    }

    private TickProbe.Seen syncRequest() throws InterruptedException {
        return syncPoint();
    }

    private static void restore(String before) {
        if (before == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, before);
        }
    }
}
