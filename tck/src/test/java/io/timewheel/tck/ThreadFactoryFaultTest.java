package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.timewheel.tck.FaultyThreadFactory.Fault;
import io.timewheel.tck.FaultyThreadFactory.FactoryError;
import io.timewheel.tck.FaultyThreadFactory.FactoryFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories that fail: return null, throw an exception or an Error, hand out a thread that dies at
 * once, a thread that is already running, or one whose start() fails; and a factory failing when the pool
 * replaces a dead worker. Each scenario runs on the JDK's STPE and on ours; no task is ever lost or run twice
 * where the JDK keeps it, and the counters agree.
 *
 * <p>What the JDK does (ThreadPoolExecutor.addWorker, JDK 25 lines 860-910): it counts the worker first
 * (ctl), then asks the factory; a null thread or an exception backs the count out (addWorkerFailed) and the
 * exception propagates to whoever called addWorker: schedule/execute/submit (STPE.delayedExecute has queued
 * the task before ensurePrestart, so the task stays queued), prestart*, or a dying worker's processWorkerExit.
 * A thread that is not NEW is refused with IllegalThreadStateException. A worker whose thread never calls
 * the Worker's run() stays in the pool for ever: it counts in getPoolSize, looks active (its lock state is
 * still -1, which isLocked() reads as held) and the pool can never terminate.
 */
class ThreadFactoryFaultTest extends TckTest {

    /** Waits until a thread the factory handed out has ended. */
    private static void awaitDead(Thread t) throws InterruptedException {
        t.join(SECONDS.toMillis(WAIT_SECONDS));
        assertFalse(t.isAlive(), "thread still alive: " + t);
    }

    @BothImpls
    void deadOnArrival_taskWaitsForever_theDeadWorkerCountsAsActive_andTheExecutorNeverTerminates(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.DEAD_ON_ARRIVAL);
        // Not tracked: it can never terminate (the dead worker never exits), so the cleanup would fail on it.
        ScheduledThreadPoolExecutor e = impl.create(1, factory);
        try {
            AtomicInteger runs = new AtomicInteger();
            Future<?> first = e.submit(counting(runs));
            awaitDead(factory.threads.get(0));
            assertEquals(1, factory.calls.get());
            assertEquals(1, e.getPoolSize());
            assertEquals(1, e.getLargestPoolSize());
            assertEquals(1, e.getActiveCount(), "a worker whose thread never ran looks locked (state -1)");
            assertEquals(1, e.getQueue().size());
            assertTrue(e.getQueue().contains(first));
            // taskCount = completed + one per locked worker + queued: the never-started worker counts as a task
            assertEquals(2, e.getTaskCount());
            assertEquals(0, e.getCompletedTaskCount());

            Future<?> second = e.submit(counting(runs));
            assertEquals(1, factory.calls.get(), "the pool is at its core size: no new thread");
            assertFalse(e.prestartCoreThread());
            assertEquals(2, e.getQueue().size());

            e.shutdown();
            assertTrue(e.isShutdown());
            assertTrue(e.isTerminating());
            assertFalse(e.isTerminated());
            List<Runnable> drained = e.shutdownNow();
            assertSameElements(List.of(first, second), drained);
            assertTrue(e.isTerminating());
            assertFalse(e.isTerminated());
            assertFalse(e.awaitTermination(0, SECONDS));
            assertEquals(1, e.getPoolSize());
            assertEquals(0, runs.get());
            assertFalse(first.isDone());
            assertEquals(List.of(), factory.uncaught);
        } finally {
            e.shutdownNow();
        }
    }

    @BothImpls
    void deadOnArrival_thenALiveThread_theLiveWorkerRunsEveryTaskOnce_butTheDeadOneBlocksTermination(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.DEAD_ON_ARRIVAL);
        ScheduledThreadPoolExecutor e = impl.create(2, factory); // not tracked: never terminates (see above)
        try {
            AtomicInteger[] runs = new AtomicInteger[20];
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < runs.length; i++) {
                runs[i] = new AtomicInteger();
                futures.add(e.submit(counting(runs[i])));
            }
            for (Future<?> f : futures) {
                get(f);
            }
            for (AtomicInteger r : runs) {
                assertEquals(1, r.get());
            }
            assertEquals(2, factory.calls.get());
            assertEquals(2, e.getPoolSize());
            awaitUntil("completed count", () -> e.getCompletedTaskCount() == runs.length);
            e.shutdown();
            awaitUntil("the live worker exits", () -> e.getPoolSize() == 1);
            assertTrue(e.isTerminating());
            assertFalse(e.isTerminated());
            assertEquals(List.of(), e.shutdownNow());
            assertFalse(e.isTerminated());
        } finally {
            e.shutdownNow();
        }
    }

    @BothImpls
    void alreadyStartedThread_isRefusedWithIllegalThreadState_theTaskStaysQueued_andRunsOnTheNextThread(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.ALREADY_STARTED);
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        try {
            AtomicInteger runs = new AtomicInteger();
            assertThrows(IllegalThreadStateException.class, () -> e.execute(counting(runs)));
            assertEquals(1, e.getQueue().size());
            assertEquals(0, e.getPoolSize());
            assertEquals(0, e.getLargestPoolSize(), "refused before it joins the worker set");
            assertEquals(1, e.getTaskCount());
            assertTrue(e.prestartCoreThread());
            flush(e, 0, SECONDS);
            assertEquals(1, runs.get());
            assertEquals(1, e.getPoolSize());
            assertEquals(2, factory.calls.get());
            assertEquals(List.of(), factory.uncaught);
        } finally {
            factory.released.open();
        }
    }

    @BothImpls
    void startThrowing_onJdk19Plus_theJdkBypassesTheOverride_elseTheErrorPropagatesAndTheTaskStaysQueued(Impl impl)
            throws Exception {
        // A Thread subclass whose start() throws, as Thread.start does when the JVM cannot create a native thread.
        // JDK 17's ThreadPoolExecutor.addWorker calls t.start(): the error propagates from execute after the worker
        // was added and removed again (addWorkerFailed), so largestPoolSize already counted it. From JDK 19 on,
        // addWorker starts the thread through its thread container (SharedThreadContainer.start -> JLA.start),
        // which never calls the overridden public start(): the thread starts normally and runs the task. The wheel
        // executor calls t.start(), as JDK 17 does, on every JDK (a library cannot reach JLA): a known
        // difference on JDK 19+, listed in README.md. A real out-of-threads failure is thrown inside the JDK's
        // start as well, and behaves alike on both.
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.START_FAILS);
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        AtomicInteger runs = new AtomicInteger();
        boolean jdkBypassesStart = impl == Impl.JDK && javaFeature() >= 19;
        if (jdkBypassesStart) {
            e.execute(counting(runs));
            flush(e, 0, SECONDS);
            assertEquals(1, runs.get());
            assertEquals(1, factory.calls.get());
            assertEquals(1, e.getPoolSize());
            return;
        }
        assertSame(factory.startFailure, assertThrows(OutOfMemoryError.class, () -> e.execute(counting(runs))));
        assertEquals(1, e.getQueue().size());
        assertEquals(0, e.getPoolSize());
        assertEquals(1, e.getLargestPoolSize(), "added to the worker set before start() failed");
        assertTrue(e.prestartCoreThread());
        flush(e, 0, SECONDS);
        assertEquals(1, runs.get());
        assertEquals(2, factory.calls.get());
        assertEquals(1, e.getPoolSize());
    }

    @BothImpls
    void factoryThrowingAnError_propagatesFromSchedule_theTaskStaysQueued_andRunsOnceAThreadExists(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.THROW_ERROR);
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        AtomicInteger runs = new AtomicInteger();
        assertSame(factory.error, assertThrows(FactoryError.class, () -> e.schedule(counting(runs), 0, SECONDS)));
        assertEquals(1, e.getQueue().size());
        assertEquals(0, e.getPoolSize());
        assertEquals(0, e.getLargestPoolSize());
        Future<?> next = e.submit(counting(runs)); // the factory works again: this starts the worker
        get(next);
        awaitUntil("both ran", () -> runs.get() == 2);
        assertEquals(2, factory.calls.get());
        assertEquals(1, e.getPoolSize());
    }

    @BothImpls
    void factoryFailingMidPool_noQueuedTaskIsLost_theLiveWorkersRunThemAll(Impl impl) throws Exception {
        // core 3: the first thread is fine, the second call returns null, the third throws; the one live worker
        // runs everything that was queued, each task once.
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.NONE, Fault.RETURN_NULL, Fault.THROW);
        ScheduledThreadPoolExecutor e = executor(impl, 3, factory);
        Gate release = blockWorker(e);
        AtomicInteger b = new AtomicInteger();
        AtomicInteger c = new AtomicInteger();
        Future<?> fb = e.submit(counting(b));
        assertSame(factory.failure, assertThrows(FactoryFailure.class, () -> e.execute(counting(c))));
        assertEquals(3, factory.calls.get());
        assertEquals(1, e.getPoolSize());
        assertEquals(2, e.getQueue().size());
        assertFalse(fb.isDone());
        release.open();
        get(fb);
        flush(e, 0, SECONDS); // the factory works again: this starts a second worker
        awaitUntil("c ran", () -> c.get() == 1);
        assertEquals(1, b.get());
        assertEquals(1, c.get());
        assertEquals(4, factory.calls.get());
        assertEquals(2, e.getPoolSize());
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == 4);
    }

    @BothImpls
    void factoryThrowingForAReplacementWorker_theUncaughtHandlerGetsIt_queuedTasksWaitForTheNextSchedule(Impl impl)
            throws Exception {
        // The worker dies (afterExecute throws); processWorkerExit asks the factory for a replacement, and the
        // factory's exception escapes processWorkerExit, replacing the hook's exception on its way to the dying
        // thread's uncaught exception handler. The queued task waits, without a thread, until the next schedule.
        IllegalStateException boom = new IllegalStateException("afterExecute fails (expected by the test)");
        AtomicBoolean failNext = new AtomicBoolean();
        Hooks hooks = new Hooks() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                if (failNext.getAndSet(false)) {
                    throw boom;
                }
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.NONE, Fault.THROW);
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        Gate release = blockWorker(e);
        AtomicInteger runs = new AtomicInteger();
        Future<?> queued = e.submit(counting(runs));
        failNext.set(true);
        release.open();
        awaitUntil("the dying worker's exception is reported", () -> factory.uncaught.size() == 1);
        assertSame(factory.failure, factory.uncaught.get(0));
        awaitDead(factory.threads.get(0));
        assertEquals(2, factory.calls.get());
        assertEquals(0, e.getPoolSize());
        assertEquals(1, e.getQueue().size());
        assertTrue(e.getQueue().contains(queued));
        assertFalse(queued.isDone());
        assertEquals(0, runs.get());
        flush(e, 0, SECONDS);
        get(queued);
        assertEquals(1, runs.get());
        assertEquals(3, factory.calls.get());
        assertEquals(1, e.getPoolSize());
    }

    @BothImpls
    void factoryReturningNullForAReplacementWorker_queuedTasksWaitForTheNextSchedule(Impl impl) throws Exception {
        IllegalStateException boom = new IllegalStateException("afterExecute fails (expected by the test)");
        AtomicBoolean failNext = new AtomicBoolean();
        Hooks hooks = new Hooks() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                if (failNext.getAndSet(false)) {
                    throw boom;
                }
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory(Fault.NONE, Fault.RETURN_NULL);
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        Gate release = blockWorker(e);
        AtomicInteger runs = new AtomicInteger();
        Future<?> queued = e.submit(counting(runs));
        failNext.set(true);
        release.open();
        awaitUntil("the hook's exception is reported", () -> factory.uncaught.size() == 1);
        assertSame(boom, factory.uncaught.get(0));
        awaitDead(factory.threads.get(0));
        assertEquals(2, factory.calls.get());
        assertEquals(0, e.getPoolSize());
        assertTrue(e.getQueue().contains(queued));
        assertEquals(0, runs.get());
        get(e.submit(counting(runs)));
        get(queued);
        assertEquals(2, runs.get());
        assertEquals(3, factory.calls.get());
    }
}
