package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.function.Executable;

/**
 * schedule / scheduleAtFixedRate / scheduleWithFixedDelay / execute / submit: argument checks, extreme
 * delays in every unit, what each method returns, getDelay.
 */
class SchedulingTest extends TckTest {
    private static final Runnable NOOP = () -> { };
    private static final Callable<String> HELLO = () -> "hello";

    /**
     * (Long.MAX_VALUE >>> 1) - 1 ns, JDK 25's clamp (ScheduledThreadPoolExecutor.MAX_NANOS, used by triggerTime
     * at line 533), is 53375 days (146 years). JDK 17 has no clamp (its triggerTime keeps huge delays and only
     * adjusts them against the queue head in overflowFree), so its getDelay can be up to Long.MAX_VALUE ns:
     * the tests accept anything between the two.
     */
    private static final long JDK_CLAMP_DAYS = 53_375;
    /** Long.MAX_VALUE ns is 106751 days (292 years): no nanoTime-based delay can be longer. */
    private static final long LONG_MAX_NANOS_DAYS = 106_751;

    private static List<Executable> everyEntryPoint(ScheduledThreadPoolExecutor e, Runnable r, Callable<?> c) {
        return List.of(
                () -> e.schedule(r, 1, SECONDS),
                () -> e.schedule(c, 1, SECONDS),
                () -> e.scheduleAtFixedRate(r, 1, 1, SECONDS),
                () -> e.scheduleWithFixedDelay(r, 1, 1, SECONDS),
                () -> e.execute(r),
                () -> e.submit(r),
                () -> e.submit(r, "result"),
                () -> e.submit(c));
    }

    @BothImpls
    void nullTask_throwsNPE_fromEveryMethod(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (Executable call : everyEntryPoint(e, null, null)) {
            assertThrows(NullPointerException.class, call);
        }
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, e.getPoolSize());
    }

    @BothImpls
    void nullUnit_throwsNPE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        assertThrows(NullPointerException.class, () -> e.schedule(NOOP, 1, null));
        assertThrows(NullPointerException.class, () -> e.schedule(HELLO, 1, null));
        assertThrows(NullPointerException.class, () -> e.scheduleAtFixedRate(NOOP, 1, 1, null));
        assertThrows(NullPointerException.class, () -> e.scheduleWithFixedDelay(NOOP, 1, 1, null));
        assertTrue(e.getQueue().isEmpty());
    }

    @BothImpls
    void nullTaskAfterShutdown_throwsNPE_notRejection(Impl impl) {
        RecordingHandler handler = RecordingHandler.aborting();
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        e.shutdown();
        for (Executable call : everyEntryPoint(e, null, null)) {
            assertThrows(NullPointerException.class, call);
        }
        assertEquals(0, handler.calls.size());
    }

    @BothImpls
    void fixedRate_nonPositivePeriod_throwsIAE_inEveryUnit(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (TimeUnit unit : TimeUnit.values()) {
            for (long period : new long[] {0, -1, Long.MIN_VALUE}) {
                assertThrows(IllegalArgumentException.class, () -> e.scheduleAtFixedRate(NOOP, 0, period, unit));
            }
        }
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, e.getPoolSize());
    }

    @BothImpls
    void fixedDelay_nonPositiveDelay_throwsIAE_inEveryUnit(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (TimeUnit unit : TimeUnit.values()) {
            for (long delay : new long[] {0, -1, Long.MIN_VALUE}) {
                assertThrows(IllegalArgumentException.class, () -> e.scheduleWithFixedDelay(NOOP, 0, delay, unit));
            }
        }
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, e.getPoolSize());
    }

    @BothImpls
    void periodic_nullChecksComeBeforePeriodCheck(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        assertThrows(NullPointerException.class, () -> e.scheduleAtFixedRate(null, 0, 0, SECONDS));
        assertThrows(NullPointerException.class, () -> e.scheduleWithFixedDelay(null, 0, -1, SECONDS));
        assertThrows(NullPointerException.class, () -> e.scheduleAtFixedRate(NOOP, 0, 0, null));
        assertThrows(NullPointerException.class, () -> e.scheduleWithFixedDelay(NOOP, 0, 0, null));
    }

    @BothImpls
    void periodic_badPeriodAfterShutdown_throwsIAE_notRejection(Impl impl) {
        RecordingHandler handler = RecordingHandler.aborting();
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        e.shutdown();
        assertThrows(IllegalArgumentException.class, () -> e.scheduleAtFixedRate(NOOP, 0, 0, SECONDS));
        assertThrows(IllegalArgumentException.class, () -> e.scheduleWithFixedDelay(NOOP, 0, -5, SECONDS));
        assertEquals(0, handler.calls.size());
    }

    @BothImpls
    void negativeDelay_meansNow(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<String> f = e.schedule(HELLO, -5, SECONDS);
        assertTrue(f.getDelay(NANOSECONDS) <= 0, "getDelay of a negative-delay task");
        assertEquals("hello", get(f));
    }

    @BothImpls
    void negativeInitialDelay_periodicFirstRunIsNow(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        Gate rate = new Gate();
        Gate delay = new Gate();
        ScheduledFuture<?> f1 = e.scheduleAtFixedRate(rate::open, -1, 1, HOURS);
        ScheduledFuture<?> f2 = e.scheduleWithFixedDelay(delay::open, -1, 1, HOURS);
        rate.await();
        delay.await();
        assertFalse(f1.isDone());
        assertFalse(f2.isDone());
    }

    @BothImpls
    void longMinDelay_inEveryUnit_meansNow(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        for (TimeUnit unit : TimeUnit.values()) {
            ScheduledFuture<String> f = e.schedule(HELLO, Long.MIN_VALUE, unit);
            assertTrue(f.getDelay(NANOSECONDS) <= 0, unit.toString());
            assertEquals("hello", get(f), unit.toString());
        }
    }

    /** The delay of a far-future task, in every unit: positive, and no more than nanoTime can express. */
    private static void assertFarFutureDelay(ScheduledFuture<?> f, String what) {
        for (TimeUnit unit : TimeUnit.values()) {
            assertTrue(f.getDelay(unit) > 0, what + ": getDelay(" + unit + ") = " + f.getDelay(unit));
        }
        long days = f.getDelay(DAYS);
        assertTrue(days >= JDK_CLAMP_DAYS - 1 && days <= LONG_MAX_NANOS_DAYS,
                what + ": getDelay(DAYS) = " + days);
    }

    @BothImpls
    void longMaxDelay_inEveryUnit_isAcceptedPendingAndNeverRuns(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (TimeUnit unit : TimeUnit.values()) {
            ScheduledFuture<?> f = e.schedule(counting(runs), Long.MAX_VALUE, unit);
            futures.add(f);
            assertFarFutureDelay(f, unit.toString());
        }
        flush(e, 1, MILLISECONDS);
        assertEquals(0, runs.get());
        assertEquals(TimeUnit.values().length, e.getQueue().size());
        for (ScheduledFuture<?> f : futures) {
            assertFalse(f.isDone());
            assertTrue(e.getQueue().contains(f));
        }
    }

    @BothImpls
    void longMaxInitialDelay_periodic_inEveryUnit_isPendingAndNeverRuns(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        for (TimeUnit unit : TimeUnit.values()) {
            assertFarFutureDelay(e.scheduleAtFixedRate(counting(runs), Long.MAX_VALUE, 1, unit), unit + " rate");
            assertFarFutureDelay(e.scheduleWithFixedDelay(counting(runs), Long.MAX_VALUE, 1, unit),
                    unit + " delay");
        }
        flush(e, 1, MILLISECONDS);
        assertEquals(0, runs.get());
    }

    @BothImpls
    void longMaxDelays_doNotHoldBackShorterTasks(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.schedule(NOOP, Long.MAX_VALUE, DAYS);
        e.schedule(NOOP, Long.MAX_VALUE, NANOSECONDS);
        e.schedule(NOOP, Long.MAX_VALUE / 2, NANOSECONDS);
        e.schedule(NOOP, Long.MAX_VALUE / 2 + 1, NANOSECONDS);
        ScheduledFuture<String> soon = e.schedule(HELLO, 2, MILLISECONDS);
        assertEquals("hello", get(soon));
        assertEquals(4, e.getQueue().size());
    }

    @BothImpls
    void getDelay_startsAtTheRequestedDelay(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        long requested = SECONDS.toNanos(10);
        long before = System.nanoTime();
        ScheduledFuture<?> f = e.schedule(NOOP, 10, SECONDS);
        long delay = f.getDelay(NANOSECONDS);
        long after = System.nanoTime();
        // trigger = (nanoTime inside schedule) + 10 s, read back at some instant in [before, after].
        assertTrue(delay <= requested, "getDelay " + delay + " > requested " + requested);
        assertTrue(delay >= requested - (after - before), "getDelay " + delay + " too small");
    }

    @BothImpls
    void getDelay_isMonotonicNonIncreasing(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        // Initial delays no test outlives: a periodic task's delay jumps up again after each run.
        for (ScheduledFuture<?> f : List.of(e.schedule(NOOP, 1, HOURS), e.scheduleAtFixedRate(NOOP, 1, 1, HOURS),
                e.scheduleWithFixedDelay(NOOP, 2, 1, HOURS))) {
            long previous = Long.MAX_VALUE;
            for (int i = 0; i < 2_000; i++) {
                long d = f.getDelay(NANOSECONDS);
                assertTrue(d <= previous, "getDelay went up from " + previous + " to " + d);
                previous = d;
            }
        }
    }

    @BothImpls
    void getDelay_ofACompletedOneShot_isNonPositive(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> f = e.schedule(NOOP, 1, MILLISECONDS);
        get(f);
        assertTrue(f.getDelay(NANOSECONDS) <= 0);
    }

    @BothImpls
    void execute_runsTheCommand(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate ran = new Gate();
        e.execute(ran::open);
        ran.await();
    }

    @BothImpls
    void scheduleRunnable_returnsFutureWithNullResult(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.schedule(counting(runs), 1, MILLISECONDS);
        assertNull(get(f));
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
        assertEquals(1, runs.get());
    }

    @BothImpls
    void scheduleCallable_returnsItsValue(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<String> f = e.schedule(HELLO, 1, MILLISECONDS);
        assertEquals("hello", get(f));
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
    }

    @BothImpls
    void submit_returnsNullTheGivenResultOrTheCallablesValue(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        assertNull(get(e.submit(counting(runs))));
        assertEquals("given", get(e.submit(counting(runs), "given")));
        assertEquals("hello", get(e.submit(HELLO)));
        assertEquals(2, runs.get());
    }

    @BothImpls
    void everyMethod_returnsARunnableScheduledFuture(Impl impl) {
        // STPE returns the (decorated) queued task itself from every method, submit included.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        List<Future<?>> futures = List.of(
                e.schedule(NOOP, 1, HOURS), e.schedule(HELLO, 1, HOURS),
                e.scheduleAtFixedRate(NOOP, 1, 1, HOURS), e.scheduleWithFixedDelay(NOOP, 1, 1, HOURS),
                e.submit(NOOP), e.submit(NOOP, "x"), e.submit(HELLO));
        for (Future<?> f : futures) {
            assertInstanceOf(RunnableScheduledFuture.class, f);
        }
    }

    @BothImpls
    void isPeriodic_onlyForFixedRateAndFixedDelay(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Function<Future<?>, Boolean> periodic = f -> ((RunnableScheduledFuture<?>) f).isPeriodic();
        assertFalse(periodic.apply(e.schedule(NOOP, 1, HOURS)));
        assertFalse(periodic.apply(e.schedule(HELLO, 1, HOURS)));
        assertFalse(periodic.apply(e.submit(NOOP)));
        assertFalse(periodic.apply(e.submit(NOOP, "x")));
        assertFalse(periodic.apply(e.submit(HELLO)));
        assertTrue(periodic.apply(e.scheduleAtFixedRate(NOOP, 1, 1, HOURS)));
        assertTrue(periodic.apply(e.scheduleWithFixedDelay(NOOP, 1, 1, HOURS)));
    }

    @BothImpls
    void throwingCallable_getThrowsExecutionExceptionWithThatCause(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        IllegalStateException boom = new IllegalStateException("boom");
        Error error = new AssertionError("error");
        ScheduledFuture<Object> f1 = e.schedule(() -> { throw boom; }, 1, MILLISECONDS);
        ScheduledFuture<?> f2 = e.schedule(() -> { throw error; }, 1, MILLISECONDS);
        ExecutionException x1 = assertThrows(ExecutionException.class, () -> f1.get(WAIT_SECONDS, SECONDS));
        ExecutionException x2 = assertThrows(ExecutionException.class, () -> f2.get(WAIT_SECONDS, SECONDS));
        assertSame(boom, x1.getCause());
        assertSame(error, x2.getCause());
        assertTrue(f1.isDone());
        assertFalse(f1.isCancelled());
    }

    @BothImpls
    void throwingTaskFromExecute_isSwallowed_workerSurvives(Impl impl) throws Exception {
        // execute() goes through schedule(), so the exception is captured by the task's future: it reaches
        // neither the worker's uncaught-exception handler nor afterExecute, and the worker thread survives.
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        AtomicReference<Thread> first = new AtomicReference<>();
        e.execute(() -> {
            first.set(Thread.currentThread());
            throw new IllegalStateException("from execute");
        });
        AtomicReference<Thread> second = new AtomicReference<>();
        get(e.submit(() -> second.set(Thread.currentThread())));
        assertSame(first.get(), second.get());
        assertEquals(1, factory.calls.get());
        assertTrue(factory.uncaught.isEmpty());
    }

    @BothImpls
    void compareTo_ordersByDelay(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> sooner = e.schedule(NOOP, 1, HOURS);
        ScheduledFuture<?> later = e.schedule(NOOP, 2, HOURS);
        assertTrue(sooner.compareTo(later) < 0);
        assertTrue(later.compareTo(sooner) > 0);
        assertEquals(0, sooner.compareTo(sooner));
    }

    @BothImpls
    void manyTasks_eachRunsExactlyOnce(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        int n = 2_000;
        AtomicInteger[] runs = new AtomicInteger[n];
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AtomicInteger counter = runs[i] = new AtomicInteger();
            futures.add(i % 2 == 0 ? e.submit(counter::incrementAndGet)
                    : e.schedule(counter::incrementAndGet, i % 3, MILLISECONDS));
        }
        for (Future<?> f : futures) {
            get(f);
        }
        for (AtomicInteger counter : runs) {
            assertEquals(1, counter.get());
        }
    }

    @BothImpls
    void invokeAll_returnsDoneFuturesInTaskOrder(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int value = i;
            tasks.add(() -> value * value);
        }
        List<Future<Integer>> results = e.invokeAll(tasks);
        assertEquals(10, results.size());
        for (int i = 0; i < 10; i++) {
            assertTrue(results.get(i).isDone());
            assertEquals(i * i, results.get(i).get());
        }
    }

    @BothImpls
    void invokeAny_returnsTheResultOfACompletedTask(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        Gate never = gate();
        List<Callable<String>> tasks = List.of(() -> {
            never.await();
            return "blocked";
        }, () -> "quick");
        assertEquals("quick", e.invokeAny(tasks));
    }

    @BothImpls
    void invokeAll_withTimeout_cancelsTheUnfinished(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        Gate never = gate();
        List<Callable<String>> tasks = List.of(() -> "quick", () -> {
            never.await();
            return "blocked";
        });
        List<Future<String>> results = e.invokeAll(tasks, 200, MILLISECONDS);
        assertTrue(results.get(0).isDone());
        assertTrue(results.get(1).isCancelled());
    }

    @BothImpls
    void futureToString_tellsTheState(Impl impl) throws Exception {
        // FutureTask.toString: "[Not completed...", "[Completed normally]", "[Completed exceptionally: ...]".
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> pending = e.schedule(NOOP, 1, HOURS);
        assertTrue(pending.toString().contains("[Not completed"), pending.toString());
        ScheduledFuture<String> ok = e.schedule(HELLO, 0, SECONDS);
        get(ok);
        assertTrue(ok.toString().endsWith("[Completed normally]"), ok.toString());
        ScheduledFuture<?> failed = e.schedule(() -> { throw new IllegalStateException("x"); }, 0, SECONDS);
        assertThrows(ExecutionException.class, () -> failed.get(WAIT_SECONDS, SECONDS));
        assertTrue(failed.toString().contains("[Completed exceptionally: java.lang.IllegalStateException: x]"),
                failed.toString());
    }

    @BothImpls
    void futureState_followsTheLifecycle_onJava19Plus(Impl impl) throws Exception {
        assumeTrue(javaFeature() >= 19, "Future.state() is Java 19+");
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> pending = e.schedule(NOOP, 1, HOURS);
        assertEquals("RUNNING", state(pending));
        ScheduledFuture<String> ok = e.schedule(HELLO, 0, SECONDS);
        get(ok);
        assertEquals("SUCCESS", state(ok));
        ScheduledFuture<?> failed = e.schedule(() -> { throw new IllegalStateException(); }, 0, SECONDS);
        assertThrows(ExecutionException.class, () -> failed.get(WAIT_SECONDS, SECONDS));
        assertEquals("FAILED", state(failed));
        pending.cancel(false);
        assertEquals("CANCELLED", state(pending));
    }

    /** Runnable and Callable at once: which method runs depends only on the overload it was handed to. */
    private static class RunnableAndCallable implements Runnable, Callable<String> {
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void run() {
            runs.incrementAndGet();
        }

        @Override
        public String call() {
            calls.incrementAndGet();
            return "called";
        }
    }

    @BothImpls
    void taskThatIsBothRunnableAndCallable_runsTheMethodOfTheOverloadUsed(Impl impl) throws Exception {
        // STPE wraps a Runnable with Executors.callable (FutureTask(Runnable, V)): run() runs, the result is
        // null (or the given result), whatever else the object implements. Found by the soak suite.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        RunnableAndCallable task = new RunnableAndCallable();
        assertNull(get(e.schedule((Runnable) task, 0, SECONDS)));
        assertNull(get(e.submit((Runnable) task)));
        assertEquals("result", get(e.submit(task, "result")));
        e.execute(task);
        flush(e, 0, SECONDS);
        assertEquals(4, task.runs.get());
        assertEquals(0, task.calls.get());
        assertEquals("called", get(e.schedule((Callable<String>) task, 0, SECONDS)));
        assertEquals("called", get(e.submit((Callable<String>) task)));
        assertEquals(2, task.calls.get());
        CountDownLatch periodicRuns = new CountDownLatch(2);
        RunnableAndCallable periodic = new RunnableAndCallable() {
            @Override
            public void run() {
                super.run();
                periodicRuns.countDown();
            }
        };
        ScheduledFuture<?> rate = e.scheduleAtFixedRate(periodic, 0, 1, MILLISECONDS);
        ScheduledFuture<?> delay = e.scheduleWithFixedDelay(periodic, 0, 1, MILLISECONDS);
        assertTrue(periodicRuns.await(WAIT_SECONDS, SECONDS));
        rate.cancel(false);
        delay.cancel(false);
        assertEquals(0, periodic.calls.get());
    }
}
