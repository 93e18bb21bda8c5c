package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.timewheel.tck.CountingThreadFactory.FactoryFailure;
import io.timewheel.tck.CountingThreadFactory.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Workers: started lazily one per schedule up to the core size (one when the core size is 0), prestart,
 * setCorePoolSize, core thread time-out, maximumPoolSize without effect, thread factories that fail.
 *
 * <p>STPE.delayedExecute queues the task first and then calls ThreadPoolExecutor.ensurePrestart, which adds
 * one core worker if fewer than corePoolSize exist, or one worker if none exists.
 */
class PoolSizingTest extends TckTest {

    /** Submits a task that counts its start and then waits on {@code release}. */
    private static Future<?> blocking(ScheduledThreadPoolExecutor e, AtomicInteger started, Gate release) {
        return e.submit(() -> {
            started.incrementAndGet();
            release.awaitUninterruptibly();
        });
    }

    @BothImpls
    void coreZero_aScheduledTaskStartsOneThread(Impl impl) {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 0, factory);
        e.schedule(() -> { }, 1, HOURS);
        assertEquals(1, e.getPoolSize());
        assertEquals(1, e.getLargestPoolSize());
        assertEquals(1, factory.calls.get());
    }

    @BothImpls
    void coreZero_neverUsesMoreThanOneThread(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 0, factory);
        AtomicInteger started = new AtomicInteger();
        Gate release = gate();
        Future<?> first = blocking(e, started, release);
        Future<?> second = blocking(e, started, release);
        Future<?> third = blocking(e, started, release);
        awaitUntil("first started", () -> started.get() == 1);
        assertEquals(2, e.getQueue().size());
        assertEquals(1, e.getPoolSize());
        assertEquals(1, started.get());
        release.open();
        get(first);
        get(second);
        get(third);
        assertEquals(1, e.getLargestPoolSize());
        assertEquals(1, factory.calls.get());
    }

    @BothImpls
    void coreZero_theThreadExitsOnceTheQueueIsEmpty(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 0);
        get(e.submit(() -> { }));
        awaitUntil("worker gone", () -> e.getPoolSize() == 0);
        assertTrue(e.getQueue().isEmpty());
    }

    @BothImpls
    void coreZero_keepsItsThreadWhileATaskIsQueued(Impl impl) throws Exception {
        // ThreadPoolExecutor.getTask (JDK 25 line 1007) never lets the last worker time out while the queue is not
        // empty.
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 0, factory);
        e.schedule(() -> { }, 1, HOURS);
        flush(e, 30, MILLISECONDS); // three keep-alive periods
        assertEquals(1, e.getPoolSize());
        assertEquals(1, factory.calls.get());
    }

    @BothImpls
    void eachSchedule_startsACoreThread_untilTheCoreSize(Impl impl) {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 3, factory);
        int[] expected = {1, 2, 3, 3, 3};
        for (int i = 0; i < expected.length; i++) {
            e.schedule(() -> { }, 1, HOURS);
            assertEquals(expected[i], e.getPoolSize(), "after schedule " + (i + 1));
        }
        assertEquals(3, factory.calls.get());
    }

    @BothImpls
    void everyEntryPoint_startsCoreThreads(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 10);
        e.schedule(() -> "c", 1, HOURS);
        assertEquals(1, e.getPoolSize());
        e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        assertEquals(2, e.getPoolSize());
        e.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        assertEquals(3, e.getPoolSize());
        Gate release = gate();
        e.execute(release::awaitUninterruptibly);
        assertEquals(4, e.getPoolSize());
        e.submit(release::awaitUninterruptibly);
        assertEquals(5, e.getPoolSize());
        e.submit(release::awaitUninterruptibly, "r");
        assertEquals(6, e.getPoolSize());
        e.submit(() -> {
            release.awaitUninterruptibly();
            return "c";
        });
        assertEquals(7, e.getPoolSize());
        release.open();
    }

    @BothImpls
    void prestartCoreThread_trueUntilTheCoreSize_thenFalse(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        assertTrue(e.prestartCoreThread());
        assertTrue(e.prestartCoreThread());
        assertFalse(e.prestartCoreThread());
        assertEquals(2, e.getPoolSize());
    }

    @BothImpls
    void prestartAllCoreThreads_returnsHowManyItStarted(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 3);
        assertTrue(e.prestartCoreThread());
        assertEquals(2, e.prestartAllCoreThreads());
        assertEquals(0, e.prestartAllCoreThreads());
        assertEquals(3, e.getPoolSize());
    }

    @BothImpls
    void prestart_withCoreZero_startsNothing(Impl impl) {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 0, factory);
        assertFalse(e.prestartCoreThread());
        assertEquals(0, e.prestartAllCoreThreads());
        assertEquals(0, e.getPoolSize());
        assertEquals(0, factory.calls.get());
    }

    @BothImpls
    void coreThreads_doNotTimeOutByDefault(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 2, factory);
        assertEquals(2, e.prestartAllCoreThreads());
        flush(e, 30, MILLISECONDS);
        assertEquals(2, e.getPoolSize());
        assertEquals(2, factory.calls.get());
    }

    @BothImpls
    void setCorePoolSizeUp_startsThreads_onlyAsManyAsTasksAreQueued(Impl impl) {
        // ThreadPoolExecutor.setCorePoolSize starts min(increase, queue size) workers (JDK 25 line 1518).
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.schedule(() -> { }, 1, HOURS);
        e.schedule(() -> { }, 2, HOURS);
        assertEquals(1, e.getPoolSize());
        e.setCorePoolSize(5);
        assertEquals(5, e.getCorePoolSize());
        assertEquals(3, e.getPoolSize());
    }

    @BothImpls
    void setCorePoolSizeUp_withAnEmptyQueue_startsNothing_untilTheNextSchedule(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        assertTrue(e.prestartCoreThread());
        e.setCorePoolSize(4);
        assertEquals(1, e.getPoolSize());
        e.schedule(() -> { }, 1, HOURS);
        assertEquals(2, e.getPoolSize());
    }

    @BothImpls
    void setCorePoolSizeUp_letsQueuedDueTasksRunConcurrently(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger started = new AtomicInteger();
        Gate release = gate();
        List<Future<?>> futures = List.of(blocking(e, started, release), blocking(e, started, release),
                blocking(e, started, release));
        awaitUntil("first started", () -> started.get() == 1);
        e.setCorePoolSize(3);
        awaitUntil("all three started", () -> started.get() == 3);
        assertEquals(3, e.getPoolSize());
        release.open();
        for (Future<?> f : futures) {
            get(f);
        }
    }

    @BothImpls
    void setCorePoolSizeDown_idleThreadsExit(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 4);
        assertEquals(4, e.prestartAllCoreThreads());
        e.setCorePoolSize(1);
        awaitUntil("pool shrinks to 1", () -> e.getPoolSize() == 1);
        assertEquals(4, e.getLargestPoolSize());
    }

    @BothImpls
    void setCorePoolSizeDown_busyThreadsAreNotInterrupted(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        Gate release = gate();
        AtomicInteger started = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            futures.add(e.submit(() -> {
                started.incrementAndGet();
                if (release.awaitUninterruptibly()) {
                    interrupted.set(true);
                }
            }));
        }
        awaitUntil("both started", () -> started.get() == 2);
        e.setCorePoolSize(1);
        release.open();
        for (Future<?> f : futures) {
            get(f);
        }
        assertFalse(interrupted.get());
        awaitUntil("pool shrinks to 1", () -> e.getPoolSize() == 1);
    }

    @BothImpls
    void allowCoreThreadTimeOut_idleCoreThreadsExit(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        assertEquals(2, e.prestartAllCoreThreads());
        e.allowCoreThreadTimeOut(true);
        awaitUntil("core threads timed out", () -> e.getPoolSize() == 0);
    }

    @BothImpls
    void allowCoreThreadTimeOut_withQueuedTasks_shrinksToOneThread(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 3);
        for (int i = 0; i < 3; i++) {
            e.schedule(() -> { }, 1, HOURS);
        }
        assertEquals(3, e.getPoolSize());
        e.allowCoreThreadTimeOut(true);
        awaitUntil("pool shrinks to 1", () -> e.getPoolSize() == 1);
    }

    @BothImpls
    void allowCoreThreadTimeOut_lastThreadStaysWhileATaskIsQueued(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        e.allowCoreThreadTimeOut(true);
        e.schedule(() -> { }, 1, HOURS);
        flush(e, 30, MILLISECONDS);
        assertEquals(1, e.getPoolSize());
        assertEquals(1, factory.calls.get());
    }

    @BothImpls
    void maximumPoolSize_hasNoEffect_onlyCoreThreadsRun(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 2, factory);
        e.setMaximumPoolSize(50);
        AtomicInteger started = new AtomicInteger();
        Gate release = gate();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            futures.add(blocking(e, started, release));
        }
        awaitUntil("two started", () -> started.get() == 2);
        assertEquals(3, e.getQueue().size());
        assertEquals(2, e.getPoolSize());
        assertEquals(2, e.getActiveCount());
        assertEquals(2, started.get());
        release.open();
        for (Future<?> f : futures) {
            get(f);
        }
        assertEquals(2, e.getLargestPoolSize());
        assertEquals(2, factory.calls.get());
    }

    @BothImpls
    void workers_comeFromTheFactory_andAreReused(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        for (int i = 0; i < 50; i++) {
            Thread t = e.submit(Thread::currentThread).get(WAIT_SECONDS, SECONDS);
            assertSame(factory.threads.get(0), t);
        }
        assertEquals(1, factory.calls.get());
    }

    @BothImpls
    void factoryReturningNull_scheduleSucceeds_taskStaysQueuedWithoutAThread(Impl impl) throws Exception {
        // addWorker backs out quietly when the factory returns null (ThreadPoolExecutor.java:904, addWorkerFailed).
        CountingThreadFactory factory = new CountingThreadFactory();
        factory.mode = Mode.RETURN_NULL;
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        ScheduledFuture<String> f = e.schedule(() -> "ran", 0, SECONDS);
        assertEquals(1, factory.calls.get());
        assertFalse(f.isDone());
        assertTrue(e.getQueue().contains(f));
        assertEquals(0, e.getPoolSize());
        assertFalse(e.prestartCoreThread());
        assertEquals(0, e.prestartAllCoreThreads());
        assertEquals(0, e.getPoolSize());
        factory.mode = Mode.NORMAL;
        assertTrue(e.prestartCoreThread());
        assertEquals("ran", get(f));
    }

    @BothImpls
    void factoryReturningNull_thenRecovering_nextScheduleRunsBothTasks(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        factory.mode = Mode.RETURN_NULL;
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        Future<String> first = e.submit(() -> "first");
        factory.mode = Mode.NORMAL;
        Future<String> second = e.submit(() -> "second");
        assertEquals("first", get(first));
        assertEquals("second", get(second));
        assertEquals(1, e.getPoolSize());
    }

    @BothImpls
    void factoryReturningNull_shutdownNowHandsBackTheQueuedTask(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        factory.mode = Mode.RETURN_NULL;
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        Future<?> f = e.submit(() -> { });
        assertSameElements(List.of(f), e.shutdownNow());
        assertTrue(e.isTerminated());
    }

    @BothImpls
    void factoryThrowing_scheduleThrowsThatException_yetTheTaskStaysQueued(Impl impl) throws Exception {
        // STPE.delayedExecute (JDK 25 lines 347-351) queues the task before ensurePrestart, and addWorker lets the
        // factory's
        // exception through: the caller gets the exception, and the task waits for a thread.
        CountingThreadFactory factory = new CountingThreadFactory();
        factory.mode = Mode.THROW;
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        assertSame(factory.failure, assertThrows(FactoryFailure.class, () -> e.schedule(() -> "ran", 0, SECONDS)));
        assertEquals(1, e.getQueue().size());
        assertEquals(0, e.getPoolSize());
        RunnableScheduledFuture<?> queued = assertInstanceOf(RunnableScheduledFuture.class,
                e.getQueue().iterator().next());
        assertFalse(queued.isDone());
        factory.mode = Mode.NORMAL;
        assertTrue(e.prestartCoreThread());
        assertEquals("ran", get(queued));
    }

    @BothImpls
    void factoryThrowing_executeAndSubmitThrowToo_tasksRunOnceAThreadExists(Impl impl) throws Exception {
        CountingThreadFactory factory = new CountingThreadFactory();
        factory.mode = Mode.THROW;
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        AtomicInteger runs = new AtomicInteger();
        assertSame(factory.failure, assertThrows(FactoryFailure.class, () -> e.execute(counting(runs))));
        assertSame(factory.failure, assertThrows(FactoryFailure.class, () -> e.submit(counting(runs))));
        assertEquals(2, e.getQueue().size());
        factory.mode = Mode.NORMAL;
        flush(e, 0, SECONDS);
        assertEquals(2, runs.get());
    }

    @BothImpls
    void factoryThrowing_prestartThrowsThatException(Impl impl) {
        CountingThreadFactory factory = new CountingThreadFactory();
        factory.mode = Mode.THROW;
        ScheduledThreadPoolExecutor e = executor(impl, 2, factory);
        assertSame(factory.failure, assertThrows(FactoryFailure.class, e::prestartCoreThread));
        assertSame(factory.failure, assertThrows(FactoryFailure.class, e::prestartAllCoreThreads));
        assertEquals(0, e.getPoolSize());
        factory.mode = Mode.NORMAL;
        assertEquals(2, e.prestartAllCoreThreads());
    }

    @BothImpls
    void largestPoolSize_remembersThePeak(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 3);
        assertEquals(3, e.prestartAllCoreThreads());
        e.setCorePoolSize(1);
        awaitUntil("pool shrinks to 1", () -> e.getPoolSize() == 1);
        assertEquals(3, e.getLargestPoolSize());
    }
}
