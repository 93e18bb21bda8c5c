package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * executeExistingDelayedTasksAfterShutdownPolicy x continueExistingPeriodicTasksAfterShutdownPolicy, for
 * delayed one-shots, periodic tasks and tasks already due, at shutdown and when set after shutdown.
 *
 * <p>The JDK decides at shutdown (STPE.onShutdown) and again when a task is about to run
 * (STPE.canRunInCurrentRunState): a periodic task is kept iff the periodic policy says so; a one-shot is kept
 * iff the delayed policy says so or its delay has already elapsed. Setting a policy to false after shutdown
 * re-runs onShutdown at once (the setters call it: JDK 25 ScheduledThreadPoolExecutor.java:733 and :764).
 */
class ShutdownPolicyTest extends TckTest {

    static Stream<Arguments> everyPolicy() {
        return Stream.of(Impl.values()).flatMap(impl -> Stream.of(
                Arguments.of(impl, true, true), Arguments.of(impl, true, false),
                Arguments.of(impl, false, true), Arguments.of(impl, false, false)));
    }

    private ScheduledThreadPoolExecutor executor(Impl impl, boolean keepDelayed, boolean keepPeriodic) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(keepDelayed);
        e.setContinueExistingPeriodicTasksAfterShutdownPolicy(keepPeriodic);
        return e;
    }

    private static void assertKept(ScheduledThreadPoolExecutor e, Future<?> f) {
        assertFalse(f.isCancelled());
        assertFalse(f.isDone());
        assertTrue(e.getQueue().contains(f));
    }

    private static void assertDropped(ScheduledThreadPoolExecutor e, Future<?> f) {
        assertTrue(f.isCancelled());
        assertTrue(f.isDone());
        assertThrows(CancellationException.class, f::get);
        assertFalse(e.getQueue().contains(f));
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void delayedOneShot_isKeptOnlyUnderTheDelayedPolicy(Impl impl, boolean keepDelayed, boolean keepPeriodic)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        ScheduledFuture<?> runnable = e.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<String> callable = e.schedule(() -> "c", 1, HOURS);
        e.shutdown();
        for (Future<?> f : List.of(runnable, callable)) {
            if (keepDelayed) {
                assertKept(e, f);
            } else {
                assertDropped(e, f);
            }
        }
        if (keepDelayed) {
            assertFalse(e.isTerminated());
            assertTrue(e.isTerminating());
        } else {
            awaitTerminated(e);
        }
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void periodic_isKeptOnlyUnderThePeriodicPolicy(Impl impl, boolean keepDelayed, boolean keepPeriodic)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        ScheduledFuture<?> rate = e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        ScheduledFuture<?> delay = e.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        e.shutdown();
        for (Future<?> f : List.of(rate, delay)) {
            if (keepPeriodic) {
                assertKept(e, f);
            } else {
                assertDropped(e, f);
            }
        }
        if (keepPeriodic) {
            assertFalse(e.isTerminated());
        } else {
            awaitTerminated(e);
        }
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void alreadyDueOneShot_runsWhateverThePolicies(Impl impl, boolean keepDelayed, boolean keepPeriodic)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        Gate release = blockWorker(e);
        ScheduledFuture<String> zero = e.schedule(() -> "zero", 0, SECONDS);
        Future<String> submitted = e.submit(() -> "submitted");
        ScheduledFuture<String> elapsed = e.schedule(() -> "elapsed", 1, MILLISECONDS);
        awaitDue(elapsed);
        e.shutdown();
        release.open();
        assertEquals("zero", get(zero));
        assertEquals("submitted", get(submitted));
        assertEquals("elapsed", get(elapsed));
        awaitTerminated(e);
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void alreadyDuePeriodic_runsOnlyUnderThePeriodicPolicy(Impl impl, boolean keepDelayed, boolean keepPeriodic)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        Gate release = blockWorker(e);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 1, HOURS);
        e.shutdown();
        release.open();
        if (keepPeriodic) {
            awaitUntil("ran once and re-queued", () -> runs.get() == 1 && e.getQueue().contains(f));
            assertFalse(f.isDone());
            assertFalse(e.isTerminated());
        } else {
            awaitTerminated(e);
            assertEquals(0, runs.get());
            assertTrue(f.isCancelled());
        }
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void terminatesOnItsOwn_onlyWhenNothingIsKept(Impl impl, boolean keepDelayed, boolean keepPeriodic)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        e.schedule(() -> { }, 1, HOURS);
        e.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        e.shutdown();
        if (!keepDelayed && !keepPeriodic) {
            awaitTerminated(e);
            assertTrue(e.getQueue().isEmpty());
        } else {
            assertFalse(e.awaitTermination(50, MILLISECONDS));
            assertTrue(e.isTerminating());
            assertEquals((keepDelayed ? 1 : 0) + (keepPeriodic ? 1 : 0), e.getQueue().size());
        }
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void periodicRunningAtShutdown_goesOnOnlyUnderThePeriodicPolicy(Impl impl, boolean keepDelayed,
                                                                    boolean keepPeriodic) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        AtomicInteger runs = new AtomicInteger();
        Gate started = new Gate();
        Gate release = gate();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 1) {
                started.open();
                release.awaitUninterruptibly();
            }
        }, 0, 1, MILLISECONDS);
        started.await();
        e.shutdown();
        release.open();
        if (keepPeriodic) {
            awaitUntil("runs after shutdown", () -> runs.get() >= 4);
            assertFalse(f.isDone());
            assertFalse(e.isTerminated());
        } else {
            // STPE.reExecutePeriodic (JDK 25 line 361): after the run, canRunInCurrentRunState is false: cancelled.
            awaitTerminated(e);
            assertEquals(1, runs.get());
            assertTrue(f.isCancelled());
        }
    }

    @ParameterizedTest(name = "{0} delayed={1} periodic={2}")
    @MethodSource("everyPolicy")
    void oneShotRunningAtShutdown_completesNormally(Impl impl, boolean keepDelayed, boolean keepPeriodic)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, keepDelayed, keepPeriodic);
        Gate started = new Gate();
        Gate release = gate();
        ScheduledFuture<String> f = e.schedule(() -> {
            started.open();
            release.awaitUninterruptibly();
            return "finished";
        }, 1, MILLISECONDS);
        started.await();
        e.shutdown();
        release.open();
        assertEquals("finished", get(f));
        assertFalse(f.isCancelled());
        awaitTerminated(e);
    }

    @BothImpls
    void defaults_delayedTaskRunsAfterShutdownNoEarlierThanItsDeadline_periodicIsCancelled(Impl impl)
            throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicLong start = new AtomicLong();
        long deadline = System.nanoTime() + MILLISECONDS.toNanos(30);
        ScheduledFuture<?> delayed = e.schedule(() -> start.set(System.nanoTime()), 30, MILLISECONDS);
        ScheduledFuture<?> periodic = e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        e.shutdown();
        assertTrue(periodic.isCancelled());
        get(delayed);
        assertTrue(start.get() - deadline >= 0, "ran " + (deadline - start.get()) + " ns early");
        awaitTerminated(e);
    }

    @BothImpls
    void delayedPolicySetFalseAfterShutdown_cancelsPendingDelayedTasksAtOnce(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> a = e.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<?> b = e.schedule(() -> "b", 2, HOURS);
        e.shutdown();
        assertKept(e, a);
        assertKept(e, b);
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        assertDropped(e, a);
        assertDropped(e, b);
        awaitTerminated(e);
    }

    @BothImpls
    void periodicPolicySetFalseAfterShutdown_cancelsQueuedPeriodicTasksAtOnce(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, true, true);
        ScheduledFuture<?> rate = e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        ScheduledFuture<?> delay = e.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        e.shutdown();
        assertKept(e, rate);
        assertKept(e, delay);
        e.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        assertDropped(e, rate);
        assertDropped(e, delay);
        awaitTerminated(e);
    }

    @BothImpls
    void periodicPolicySetFalseAfterShutdown_stopsABusyPeriodicTask(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, true, true);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 200, MICROSECONDS);
        e.shutdown();
        int atShutdown = runs.get();
        awaitUntil("runs after shutdown", () -> runs.get() >= atShutdown + 3);
        e.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        awaitTerminated(e);
        assertTrue(f.isCancelled());
    }

    @BothImpls
    void policiesSetTrueAfterShutdown_reviveNothing(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, false, false);
        ScheduledFuture<?> delayed = e.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<?> periodic = e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        e.shutdown();
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(true);
        e.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
        assertDropped(e, delayed);
        assertDropped(e, periodic);
        awaitTerminated(e);
    }

    @BothImpls
    void tasksCancelledByShutdown_areNotReturnedByShutdownNow(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, false, true);
        ScheduledFuture<?> delayed = e.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<?> periodic = e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        e.shutdown();
        assertDropped(e, delayed);
        List<Runnable> never = e.shutdownNow();
        assertSameElements(List.of(periodic), never);
        awaitTerminated(e);
    }

    @BothImpls
    void continuePolicy_periodicRunsOnAfterShutdown_untilShutdownNow(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, true, true);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 1, MILLISECONDS);
        e.shutdown();
        int atShutdown = runs.get();
        awaitUntil("runs after shutdown", () -> runs.get() >= atShutdown + 5);
        List<Runnable> never = e.shutdownNow();
        awaitTerminated(e);
        // Either it was queued (and shutdownNow returned it) or it was running (and is cancelled after that run).
        assertTrue(identitySet(never).contains(f) || f.isCancelled());
    }
}
