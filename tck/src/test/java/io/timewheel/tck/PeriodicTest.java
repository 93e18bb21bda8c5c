package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.timewheel.executor.PeriodicPolicy;
import io.timewheel.executor.WheelScheduledExecutorService;

/**
 * Fixed rate and fixed delay: cadence, never early, no overlap, what stops a periodic task.
 *
 * <p>Timing facts are proven, not hoped for: a run's scheduled instant is read through its own
 * {@code getDelay} while it runs (bracketed by two nanoTime reads), and starts are compared with instants
 * they must not precede. Nothing asserts that anything happened "within" some time.
 */
class PeriodicTest extends TckTest {

    /** The scheduled instant of one run, as [lo, hi] from getDelay read inside the run. */
    private static final class Instant {
        final long lo;
        final long hi;
        final long start;

        Instant(long lo, long hi, long start) {
            this.lo = lo;
            this.hi = hi;
            this.start = start;
        }
    }

    /** Reads the scheduled instant of the run in progress: getDelay(NANOSECONDS) is (that instant - now). */
    private static Instant scheduledInstantOfCurrentRun(ScheduledFuture<?> self) {
        long before = System.nanoTime();
        long delay = self.getDelay(NANOSECONDS);
        long after = System.nanoTime();
        return new Instant(before + delay, after + delay, before);
    }

    @BothImpls
    void fixedRate_runsFollowTheExactCadence_evenAfterAnOverrun(Impl impl) throws Exception {
        // STPE sets the next time only after the run returns (ScheduledFutureTask.run, JDK 25 lines 310-311:
        // runAndReset, then
        // setNextRunTime: time += period), so during run k getDelay reports run k's own scheduled instant.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        long period = MILLISECONDS.toNanos(10);
        int runs = 8;
        CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        List<Instant> instants = new CopyOnWriteArrayList<>();
        Gate done = new Gate();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            Instant now = scheduledInstantOfCurrentRun(self.join());
            instants.add(now);
            if (instants.size() == 2) {
                pauseUntil(now.hi + 3 * period + period / 2); // overrun: three periods are missed meanwhile
            }
            if (instants.size() == runs) {
                done.open();
            }
        }, 5, 10, MILLISECONDS);
        self.complete(f);
        done.await();
        f.cancel(false);
        Instant first = instants.get(0);
        for (int k = 1; k < runs; k++) {
            Instant run = instants.get(k);
            long expected = k * period;
            assertTrue(run.lo - first.hi <= expected && run.hi - first.lo >= expected,
                    "run " + k + " scheduled " + (run.lo - first.lo) + " ns after run 0, expected " + expected);
        }
    }

    @BothImpls
    void fixedRate_neverStartsBeforeItsCadenceInstant(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        long period = MILLISECONDS.toNanos(3);
        List<Long> starts = new CopyOnWriteArrayList<>();
        Gate done = new Gate();
        long before = System.nanoTime();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            starts.add(System.nanoTime());
            if (starts.size() == 10) {
                done.open();
            }
        }, 2, 3, MILLISECONDS);
        done.await();
        f.cancel(false);
        long first = before + MILLISECONDS.toNanos(2);
        for (int k = 0; k < 10; k++) {
            long cadence = first + k * period;
            assertTrue(starts.get(k) - cadence >= 0,
                    "run " + k + " started " + (cadence - starts.get(k)) + " ns early");
        }
    }

    @BothImpls
    void fixedRate_missedPeriodsAreRun_notSkipped(Impl impl) throws Exception {
        // After an overrun of 5.5 periods, the runs of the 5 missed periods all have scheduled instants before
        // the overrun ended: they run back to back, not coalesced.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        long period = MILLISECONDS.toNanos(4);
        CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        List<Instant> instants = new CopyOnWriteArrayList<>();
        long[] endOfOverrun = new long[1];
        Gate done = new Gate();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            Instant now = scheduledInstantOfCurrentRun(self.join());
            instants.add(now);
            if (instants.size() == 1) {
                pauseUntil(now.hi + 5 * period + period / 2);
                endOfOverrun[0] = System.nanoTime();
            }
            if (instants.size() == 7) {
                done.open();
            }
        }, 1, 4, MILLISECONDS);
        self.complete(f);
        done.await();
        f.cancel(false);
        for (int k = 1; k <= 5; k++) {
            assertTrue(instants.get(k).lo < endOfOverrun[0], "run " + k + " was scheduled after the overrun ended");
        }
    }

    /**
     * Issue 27's CATCH_UP scenario in real time: a 1-thread pool busy for 10.5 periods past the schedule of a
     * fixed-rate task (initial delay one period): the runs of the 10 periods that passed all have scheduled
     * instants before the pool became free, so they run back to back. On the wheel executor the task is
     * scheduled through the policy overload with CATCH_UP (and a failure handler, so that the task carries a
     * policy): it must behave as STPE's plain method does.
     */
    @BothImpls
    void fixedRate_catchUp_afterThePoolWasBusyTenAndAHalfPeriods_runsTheTenMissedRunsBackToBack(Impl impl)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        long period = MILLISECONDS.toNanos(4);
        Gate started = new Gate();
        CompletableFuture<Long> scheduledAt = new CompletableFuture<>();
        long[] endOfBusy = new long[1];
        e.execute(() -> {
            started.open();
            pauseUntil(scheduledAt.join() + 10 * period + period / 2);
            endOfBusy[0] = System.nanoTime();
        });
        started.await(); // the only worker is busy: the fixed-rate task cannot start before the pause ends
        CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        List<Instant> instants = new CopyOnWriteArrayList<>();
        Gate done = new Gate();
        Runnable body = () -> {
            instants.add(scheduledInstantOfCurrentRun(self.join()));
            if (instants.size() == 10) {
                done.open();
            }
        };
        ScheduledFuture<?> f = impl == Impl.JDK ? e.scheduleAtFixedRate(body, 4, 4, MILLISECONDS)
                : ((WheelScheduledExecutorService) e).scheduleAtFixedRate(body, 4, 4, MILLISECONDS,
                        PeriodicPolicy.STPE.missedRuns(PeriodicPolicy.MissedRuns.CATCH_UP)
                                .reportAndContinue((task, x) -> { throw new AssertionError("reported", x); }));
        // run k's instant is (schedule time) + k periods <= scheduledAt + 10 periods, for k <= 10
        scheduledAt.complete(System.nanoTime());
        self.complete(f);
        done.await();
        f.cancel(false);
        for (int k = 0; k < 10; k++) {
            assertTrue(instants.get(k).lo < endOfBusy[0], "run " + (k + 1) + " was scheduled after the pool became free");
        }
    }

    @BothImpls
    void fixedDelay_nextRunStartsNoEarlierThanEndOfPreviousPlusDelay(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        long delay = MILLISECONDS.toNanos(2);
        List<long[]> runs = new CopyOnWriteArrayList<>(); // {start, end}
        Gate done = new Gate();
        ScheduledFuture<?> f = e.scheduleWithFixedDelay(() -> {
            long start = System.nanoTime();
            pauseUntil(start + MILLISECONDS.toNanos(runs.size() % 3)); // runs of 0, 1, 2 ms
            runs.add(new long[] {start, System.nanoTime()});
            if (runs.size() == 8) {
                done.open();
            }
        }, 0, 2, MILLISECONDS);
        done.await();
        f.cancel(false);
        for (int k = 1; k < 8; k++) {
            long earliest = runs.get(k - 1)[1] + delay;
            assertTrue(runs.get(k)[0] - earliest >= 0, "run " + k + " started " + (earliest - runs.get(k)[0])
                    + " ns before end of previous run + delay");
        }
    }

    @BothImpls
    void fixedDelay_overrunShiftsTheSchedule(Impl impl) throws Exception {
        // Unlike fixed rate, the instant of the run after an overrun is measured from the end of the overrun.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        long delay = MILLISECONDS.toNanos(4);
        CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        List<Instant> instants = new CopyOnWriteArrayList<>();
        long[] endOfOverrun = new long[1];
        Gate done = new Gate();
        ScheduledFuture<?> f = e.scheduleWithFixedDelay(() -> {
            Instant now = scheduledInstantOfCurrentRun(self.join());
            instants.add(now);
            if (instants.size() == 1) {
                pauseUntil(now.hi + 3 * delay);
                endOfOverrun[0] = System.nanoTime();
            }
            if (instants.size() == 2) {
                done.open();
            }
        }, 1, 4, MILLISECONDS);
        self.complete(f);
        done.await();
        f.cancel(false);
        assertTrue(instants.get(1).hi >= endOfOverrun[0] + delay, "second run scheduled before end + delay");
        assertTrue(instants.get(1).start - (endOfOverrun[0] + delay) >= 0, "second run started early");
    }

    private void assertRunsNeverOverlap(Impl impl, boolean fixedRate) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 4);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int[] plainCounter = new int[1]; // unsynchronized: each run must see the previous run's write
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Gate done = new Gate();
        Runnable body = () -> {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            seen.add(plainCounter[0]);
            plainCounter[0]++;
            pauseUntil(System.nanoTime() + MILLISECONDS.toNanos(2)); // longer than the period
            inside.decrementAndGet();
            if (seen.size() == 12) {
                done.open();
            }
        };
        ScheduledFuture<?> f = fixedRate ? e.scheduleAtFixedRate(body, 0, 500, MICROSECONDS)
                : e.scheduleWithFixedDelay(body, 0, 1, NANOSECONDS);
        done.await();
        f.cancel(false);
        assertEquals(0, overlaps.get());
        for (int k = 0; k < 12; k++) {
            assertEquals(k, seen.get(k), "run " + k + " did not see the previous runs' writes");
        }
    }

    @BothImpls
    void fixedRate_runsNeverOverlap_andEachSeesThePrevious(Impl impl) throws Exception {
        assertRunsNeverOverlap(impl, true);
    }

    @BothImpls
    void fixedDelay_runsNeverOverlap_andEachSeesThePrevious(Impl impl) throws Exception {
        assertRunsNeverOverlap(impl, false);
    }

    private void assertExceptionStopsTask(Impl impl, boolean fixedRate, Throwable failure) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        Runnable body = () -> {
            if (runs.incrementAndGet() == 3) {
                if (failure instanceof Error) {
                    throw (Error) failure;
                }
                throw (RuntimeException) failure;
            }
        };
        ScheduledFuture<?> f = fixedRate ? e.scheduleAtFixedRate(body, 0, 1, MILLISECONDS)
                : e.scheduleWithFixedDelay(body, 0, 1, MILLISECONDS);
        ExecutionException x = assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        assertSame(failure, x.getCause());
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
        assertFalse(e.getQueue().contains(f));
        flush(e, 5, MILLISECONDS);
        assertEquals(3, runs.get());
        assertFalse(e.getQueue().contains(f));
    }

    @BothImpls
    void fixedRate_exceptionStopsIt_getThrowsExecutionExceptionWithTheCause(Impl impl) throws Exception {
        assertExceptionStopsTask(impl, true, new IllegalStateException("third run fails"));
    }

    @BothImpls
    void fixedDelay_exceptionStopsIt_getThrowsExecutionExceptionWithTheCause(Impl impl) throws Exception {
        assertExceptionStopsTask(impl, false, new IllegalStateException("third run fails"));
    }

    @BothImpls
    void periodic_errorStopsIt_too(Impl impl) throws Exception {
        assertExceptionStopsTask(impl, true, new AssertionError("third run fails"));
    }

    @BothImpls
    void periodic_exceptionDoesNotKillTheWorker(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> { throw new IllegalStateException(); }, 0, 1, MILLISECONDS);
        assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        flush(e, 0, MILLISECONDS);
        assertEquals(1, factory.calls.get());
        assertTrue(factory.uncaught.isEmpty());
    }

    @BothImpls
    void cancel_stopsFurtherRuns(Impl impl) throws Exception {
        for (boolean fixedRate : new boolean[] {true, false}) {
            ScheduledThreadPoolExecutor e = executor(impl, 1);
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> f = fixedRate ? e.scheduleAtFixedRate(counting(runs), 0, 1, MILLISECONDS)
                    : e.scheduleWithFixedDelay(counting(runs), 0, 1, MILLISECONDS);
            awaitUntil("three runs", () -> runs.get() >= 3);
            assertTrue(f.cancel(false));
            int afterCancel = runs.get();
            flush(e, 5, MILLISECONDS);
            // At most a run that had already passed its start check when cancel returned.
            assertTrue(runs.get() <= afterCancel + 1, "runs went on after cancel: " + runs.get());
            assertTrue(f.isCancelled());
            assertTrue(f.isDone());
            assertThrows(CancellationException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        }
    }

    @BothImpls
    void cancelFromInsideARun_stopsAfterThatRun(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) {
                assertTrue(self.join().cancel(false));
            }
        }, 1, 1, MILLISECONDS);
        self.complete(f);
        awaitUntil("cancelled", f::isCancelled);
        flush(e, 5, MILLISECONDS);
        assertEquals(3, runs.get());
        assertFalse(e.getQueue().contains(f));
    }

    @BothImpls
    void periodicGet_neverCompletesNormally(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 1, MILLISECONDS);
        awaitUntil("two runs", () -> runs.get() >= 2);
        assertThrows(TimeoutException.class, () -> f.get(20, MILLISECONDS));
        assertFalse(f.isDone());
    }

    @BothImpls
    void betweenRuns_theSameFutureIsQueued_withTheNextDelay(Impl impl) throws Exception {
        // STPE re-queues the task it returned (outerTask) after each run.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (boolean fixedRate : new boolean[] {true, false}) {
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> f = fixedRate ? e.scheduleAtFixedRate(counting(runs), 0, 1, HOURS)
                    : e.scheduleWithFixedDelay(counting(runs), 0, 1, HOURS);
            // The task is out of the queue while it runs, so (ran once and queued) means re-queued after run 1.
            awaitUntil("first run done and re-queued", () -> runs.get() == 1 && e.getQueue().contains(f));
            assertEquals(1, runs.get());
            long delay = f.getDelay(NANOSECONDS);
            assertTrue(delay > 0 && delay <= HOURS.toNanos(1), "delay " + delay);
            assertFalse(f.isDone());
            assertTrue(((RunnableScheduledFuture<?>) f).isPeriodic());
        }
    }

    @BothImpls
    void subMillisecondPeriod_runsRepeatedly(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger rate = new AtomicInteger();
        AtomicInteger delay = new AtomicInteger();
        ScheduledFuture<?> f1 = e.scheduleAtFixedRate(counting(rate), 0, 200, MICROSECONDS);
        ScheduledFuture<?> f2 = e.scheduleWithFixedDelay(counting(delay), 0, 50_000, NANOSECONDS);
        awaitUntil("twenty runs of each", () -> rate.get() >= 20 && delay.get() >= 20);
        f1.cancel(false);
        f2.cancel(false);
    }

    private void assertHugePeriodRunsOnce(Impl impl, boolean fixedRate) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (TimeUnit unit : TimeUnit.values()) {
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> f = fixedRate ? e.scheduleAtFixedRate(counting(runs), 0, Long.MAX_VALUE, unit)
                    : e.scheduleWithFixedDelay(counting(runs), 0, Long.MAX_VALUE, unit);
            awaitUntil("first run re-queued", () -> runs.get() == 1 && e.getQueue().contains(f));
            flush(e, 1, MILLISECONDS);
            assertEquals(1, runs.get(), unit.toString());
            assertFalse(f.isDone());
            assertTrue(f.getDelay(NANOSECONDS) > 0, unit + ": " + f.getDelay(NANOSECONDS));
            assertTrue(f.getDelay(TimeUnit.DAYS) > 50_000, unit + ": " + f.getDelay(TimeUnit.DAYS));
        }
    }

    @BothImpls
    void fixedRate_longMaxPeriod_inEveryUnit_runsOnceThenWaits(Impl impl) throws Exception {
        assertHugePeriodRunsOnce(impl, true);
    }

    @BothImpls
    void fixedDelay_longMaxDelay_inEveryUnit_runsOnceThenWaits(Impl impl) throws Exception {
        assertHugePeriodRunsOnce(impl, false);
    }

    @BothImpls
    void periodicRuns_happenOnWorkerThreads_notTheCaller(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 2, factory);
        List<Thread> threads = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> threads.add(Thread.currentThread()), 0, 1, MILLISECONDS);
        awaitUntil("five runs", () -> threads.size() >= 5);
        f.cancel(false);
        for (Thread t : new ArrayList<>(threads)) {
            assertTrue(factory.threads.contains(t), t.getName());
        }
    }
}
