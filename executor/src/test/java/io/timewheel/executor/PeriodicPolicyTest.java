package io.timewheel.executor;

import io.timewheel.executor.PeriodicPolicy.MissedRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Periodic-task policies (issue 27) on a manual clock: what a fixed-rate task does with the runs it missed
 * while the clock jumped, and what a periodic task does when a run throws. The "grid" of a task is its first
 * deadline plus whole periods; every test starts the clock at t0 and schedules a 1 s fixed-rate task with a
 * 1 s initial delay, so the grid is t0 + k s.
 */
class PeriodicPolicyTest extends ManualClockTestBase {

    private static final long SECOND = 1_000_000_000L;

    /** A fixed-rate task that records the scheduled instant of each run (its getDelay, read inside the run). */
    private final class Recorder {
        final List<Long> instants = Collections.synchronizedList(new ArrayList<>());
        final CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        ScheduledFuture<?> future;

        Recorder schedule(PeriodicPolicy policy) {
            future = executor.scheduleAtFixedRate(
                    () -> instants.add(clock.nanoTime() + self.join().getDelay(NANOSECONDS)), 1, 1, SECONDS, policy);
            self.complete(future);
            return this;
        }

        /** Waits until the task is re-armed for {@code instant} (its getDelay says so). */
        void awaitNextRunAt(long instant) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> future.getDelay(NANOSECONDS) == instant - clock.nanoTime());
        }
    }

    private List<Long> grid(long t0, int from, int to) {
        List<Long> instants = new ArrayList<>();
        for (int k = from; k <= to; k++) {
            instants.add(t0 + k * SECOND);
        }
        return instants;
    }

    private static PeriodicPolicy policy(MissedRuns missedRuns) {
        return PeriodicPolicy.STPE.missedRuns(missedRuns);
    }

    @ParameterizedTest(name = "t0 = {0}")
    @ValueSource(longs = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE - 5_000_000_000L, 123_456_789L})
    void catchUp_clockJumps10AndAHalfPeriods_runsTheTenMissedRunsBackToBack_nextAtT0Plus11(long t0) throws Exception {
        start(t0, 1);
        Recorder r = new Recorder().schedule(policy(MissedRuns.CATCH_UP));
        clock.advanceNanos(10 * SECOND + SECOND / 2);
        sync();
        r.awaitNextRunAt(t0 + 11 * SECOND);
        assertEquals(grid(t0, 1, 10), r.instants, "the runs of instants t0 + 1 s .. t0 + 10 s, all at t0 + 10.5 s");
        ExecutorStatistics s = executor.statistics();
        assertEquals(9, s.missedRuns(), s.toString()); // runs 1..9 started a period or more late; run 10 half a period
        assertEquals(10, s.tasksRun(), s.toString());
    }

    @ParameterizedTest(name = "t0 = {0}")
    @ValueSource(longs = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE - 5_000_000_000L, 123_456_789L})
    void runOnce_clockJumps10AndAHalfPeriods_runsOnce_nextAtT0Plus11(long t0) throws Exception {
        start(t0, 1);
        Recorder r = new Recorder().schedule(policy(MissedRuns.RUN_ONCE));
        clock.advanceNanos(10 * SECOND + SECOND / 2);
        sync();
        r.awaitNextRunAt(t0 + 11 * SECOND);
        assertEquals(grid(t0, 1, 1), r.instants, "one run, the late one of t0 + 1 s");
        clock.advanceNanos(SECOND / 2 - 1);
        sync();
        assertEquals(1, r.instants.size(), "ran again before t0 + 11 s");
        clock.advanceNanos(1);
        sync();
        r.awaitNextRunAt(t0 + 12 * SECOND);
        assertEquals(List.of(t0 + SECOND, t0 + 11 * SECOND), r.instants, "back on the grid at t0 + 11 s");
        ExecutorStatistics s = executor.statistics();
        assertEquals(1, s.missedRuns(), s.toString());
        assertEquals(2, s.tasksRun(), s.toString());
    }

    @ParameterizedTest(name = "t0 = {0}")
    @ValueSource(longs = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE - 5_000_000_000L, 123_456_789L})
    void skip_clockJumps10AndAHalfPeriods_runsNone_nextAtT0Plus11(long t0) throws Exception {
        start(t0, 1);
        Recorder r = new Recorder().schedule(policy(MissedRuns.SKIP));
        clock.advanceNanos(10 * SECOND + SECOND / 2);
        sync();
        r.awaitNextRunAt(t0 + 11 * SECOND);
        assertEquals(List.of(), r.instants, "a missed run ran");
        ExecutorStatistics s = executor.statistics();
        assertEquals(1, s.missedRuns(), s.toString());
        assertEquals(1, s.tasksRun(), s.toString()); // the skipped run was taken and counted, its body not called
        clock.advanceNanos(SECOND / 2);
        sync();
        r.awaitNextRunAt(t0 + 12 * SECOND);
        assertEquals(List.of(t0 + 11 * SECOND), r.instants, "back on the grid at t0 + 11 s");
    }

    @Test
    void skip_runLateByLessThanAPeriod_runs() throws Exception {
        start(0L, 1);
        Recorder r = new Recorder().schedule(policy(MissedRuns.SKIP));
        clock.advanceNanos(SECOND + SECOND / 2);
        sync();
        r.awaitNextRunAt(2 * SECOND);
        assertEquals(List.of(SECOND), r.instants);
        assertEquals(0, executor.statistics().missedRuns());
    }

    @Test
    void skip_clockExactlyOnAGridPoint_runsThatPoint_notTheMissedOne() throws Exception {
        start(0L, 1);
        Recorder r = new Recorder().schedule(policy(MissedRuns.SKIP));
        clock.advanceNanos(3 * SECOND); // t0 + 1 s and 2 s missed, t0 + 3 s due now
        sync();
        r.awaitNextRunAt(4 * SECOND);
        assertEquals(List.of(3 * SECOND), r.instants);
    }

    @Test
    void runOnce_afterARunThatOverran_continuesAtTheFirstGridPointNotBeforeItsEnd() throws Exception {
        start(0L, 1);
        List<Long> starts = Collections.synchronizedList(new ArrayList<>());
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            starts.add(clock.nanoTime());
            if (starts.size() == 1) {
                clock.advanceNanos(3 * SECOND + SECOND / 2); // the run takes 3.5 periods: ends at 4.5 s
            }
        }, 1, 1, SECONDS, policy(MissedRuns.RUN_ONCE));
        clock.advanceNanos(SECOND);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.getDelay(NANOSECONDS) == SECOND / 2);
        assertEquals(List.of(SECOND), starts, "CATCH_UP would have run 2 s, 3 s and 4 s at once");
        assertEquals(1, executor.statistics().overruns());
    }

    @Test
    void catchUp_isStpesDefault_andTheDefaultOfThePlainMethod() throws Exception {
        start(0L, 1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, SECONDS);
        clock.advanceNanos(10 * SECOND + SECOND / 2);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.getDelay(NANOSECONDS) == SECOND / 2);
        assertEquals(10, runs.get());
    }

    @Test
    void builderDefault_appliesToThePlainScheduleAtFixedRate() throws Exception {
        start(0L, 1, b -> b.periodicPolicy(policy(MissedRuns.RUN_ONCE)));
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, SECONDS);
        clock.advanceNanos(10 * SECOND + SECOND / 2);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.getDelay(NANOSECONDS) == SECOND / 2);
        assertEquals(1, runs.get());
    }

    // ---------------------------------------------------------------------------------------------
    // Failures

    /** Throws on every second run (runs 2, 4, ...). */
    private static Runnable failingEverySecondRun(AtomicInteger runs) {
        return () -> {
            if (runs.incrementAndGet() % 2 == 0) {
                throw new IllegalStateException("run " + runs.get());
            }
        };
    }

    @Test
    void reportAndContinue_taskThrowingOnEverySecondRun_keepsRunning_100Runs50Reports() throws Exception {
        start(0L, 1);
        AtomicInteger runs = new AtomicInteger();
        List<Throwable> reported = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> reportedTasks = Collections.synchronizedList(new ArrayList<>());
        List<Thread> handlerThreads = Collections.synchronizedList(new ArrayList<>());
        Runnable command = failingEverySecondRun(runs);
        BiConsumer<Runnable, Throwable> handler = (task, failure) -> {
            reportedTasks.add(task);
            reported.add(failure);
            handlerThreads.add(Thread.currentThread());
        };
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(command, 1, 1, MILLISECONDS,
                PeriodicPolicy.STPE.reportAndContinue(handler));
        clock.advance(100, MILLISECONDS); // CATCH_UP: the 100 runs of 1 ms .. 100 ms, back to back
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.getDelay(NANOSECONDS) == MILLISECONDS.toNanos(1));
        assertEquals(100, runs.get());
        assertEquals(50, reported.size());
        assertEquals("run 100", reported.get(49).getMessage());
        assertTrue(reportedTasks.stream().allMatch(t -> t == command), "the handler is given the command as submitted");
        assertTrue(handlerThreads.stream().noneMatch(t -> t == Thread.currentThread()), "handler ran on the caller");
        assertFalse(f.isDone());
        assertTrue(executor.getQueue().contains(f));
        assertEquals(50, executor.statistics().periodicFailures());
        f.cancel(false);
    }

    @Test
    void stop_taskThrowingOnItsSecondRun_stops_getThrowsExecutionException() throws Exception {
        start(0L, 1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(failingEverySecondRun(runs), 1, 1, MILLISECONDS,
                PeriodicPolicy.STPE.missedRuns(MissedRuns.RUN_ONCE).stopOnFailure());
        clock.advance(1, MILLISECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 1 && f.getDelay(NANOSECONDS) > 0);
        clock.advance(1, MILLISECONDS);
        sync();
        ExecutionException x = assertThrows(ExecutionException.class, () -> f.get(10, SECONDS));
        assertEquals("run 2", x.getCause().getMessage());
        clock.advance(10, MILLISECONDS);
        sync();
        assertEquals(2, runs.get());
        assertFalse(executor.getQueue().contains(f));
        assertEquals(1, executor.statistics().periodicFailures());
    }

    @Test
    void reportAndContinue_handlerThatThrows_stopsTheTask_withTheHandlersThrowable() throws Exception {
        start(0L, 1);
        IllegalStateException failure = new IllegalStateException("run");
        IllegalArgumentException handlerFailure = new IllegalArgumentException("handler");
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> { throw failure; }, 1, 1, MILLISECONDS,
                PeriodicPolicy.STPE.reportAndContinue((task, x) -> { throw handlerFailure; }));
        clock.advance(1, MILLISECONDS);
        sync();
        ExecutionException x = assertThrows(ExecutionException.class, () -> f.get(10, SECONDS));
        assertSame(handlerFailure, x.getCause());
        assertSame(failure, handlerFailure.getSuppressed()[0]);
    }

    @Test
    void fixedDelay_reportAndContinue_keepsRunning() throws Exception {
        start(0L, 1);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger reports = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleWithFixedDelay(failingEverySecondRun(runs), 1, 1, MILLISECONDS,
                PeriodicPolicy.STPE.reportAndContinue((task, x) -> reports.incrementAndGet()));
        for (int run = 1; run <= 10; run++) {
            clock.advance(1, MILLISECONDS);
            sync();
            int expected = run;
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == expected && f.getDelay(NANOSECONDS) > 0);
        }
        assertEquals(5, reports.get());
        assertFalse(f.isDone());
    }

    @Test
    void builderDefault_failurePolicyAppliesToFixedDelay_itsMissedRunPolicyIsIgnored() throws Exception {
        AtomicInteger reports = new AtomicInteger();
        start(0L, 1, b -> b.periodicPolicy(PeriodicPolicy.STPE.missedRuns(MissedRuns.SKIP)
                .reportAndContinue((task, x) -> reports.incrementAndGet())));
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = executor.scheduleWithFixedDelay(failingEverySecondRun(runs), 1, 1, SECONDS);
        clock.advanceNanos(10 * SECOND); // late by 9 delays: under SKIP a fixed-rate task would not run now
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 1 && f.getDelay(NANOSECONDS) == SECOND);
        clock.advanceNanos(SECOND);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> reports.get() == 1 && f.getDelay(NANOSECONDS) == SECOND);
        assertFalse(f.isDone());
    }

    @Test
    void fixedDelayOverload_rejectsAMissedRunPolicy() {
        start(0L, 1);
        for (MissedRuns m : new MissedRuns[] {MissedRuns.RUN_ONCE, MissedRuns.SKIP}) {
            assertThrows(IllegalArgumentException.class,
                    () -> executor.scheduleWithFixedDelay(() -> { }, 1, 1, SECONDS, policy(m)));
        }
        assertEquals(0, executor.getQueue().size());
    }

    @Test
    void overloads_checkTheirArgumentsAsThePlainMethods() {
        start(0L, 1);
        PeriodicPolicy p = PeriodicPolicy.STPE;
        assertThrows(NullPointerException.class, () -> executor.scheduleAtFixedRate(() -> { }, 1, 1, SECONDS, null));
        assertThrows(NullPointerException.class, () -> executor.scheduleAtFixedRate(null, 1, 1, SECONDS, p));
        assertThrows(NullPointerException.class, () -> executor.scheduleWithFixedDelay(() -> { }, 1, 1, null, p));
        assertThrows(IllegalArgumentException.class, () -> executor.scheduleAtFixedRate(() -> { }, 1, 0, SECONDS, p));
        assertThrows(IllegalArgumentException.class, () -> executor.scheduleWithFixedDelay(() -> { }, 1, -1, SECONDS, p));
        assertThrows(NullPointerException.class, () -> p.reportAndContinue(null));
        assertNotSame(p, p.missedRuns(MissedRuns.SKIP));
        assertEquals(MissedRuns.CATCH_UP, p.missedRuns());
    }
}
