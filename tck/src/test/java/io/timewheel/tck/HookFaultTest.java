package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.timewheel.tck.FaultyThreadFactory.Fault;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.function.Executable;

/**
 * Hooks that throw: decorateTask, beforeExecute, afterExecute, terminated, and the RejectedExecutionHandler.
 * HooksTest has the first cases (one throw each); here every entry point, Errors as well as exceptions,
 * periodic tasks, hooks that always throw, and what the counters and the run state say afterwards.
 *
 * <p>What the JDK does: decorateTask runs in schedule* before delayedExecute, so its exception leaves nothing
 * queued and starts no thread. ThreadPoolExecutor.runWorker (JDK 25 lines 1119-1140) calls beforeExecute,
 * then the task, then afterExecute, and counts the task as completed in a finally block; an exception from
 * a hook ends the worker (processWorkerExit with completedAbruptly, which adds a replacement) and reaches the
 * thread's uncaught exception handler. tryTerminate sets TERMINATED in a finally block around terminated(),
 * so the hook's exception reaches whoever caused the termination (the shutdown caller, or the last worker's
 * uncaught handler) and the executor is terminated all the same. The rejection handler runs on the calling
 * thread, in delayedExecute, before anything is queued.
 */
class HookFaultTest extends TckTest {

    static final class HookFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HookFailure(String message) {
            super(message + " (expected by the test)");
        }
    }

    static final class HookError extends Error {
        private static final long serialVersionUID = 1L;

        HookError(String message) {
            super(message + " (expected by the test)");
        }
    }

    /** Every public way in, each one call; the Runnable/Callable overload of decorateTask each reaches. */
    private static List<Executable> everyEntryPoint(ScheduledThreadPoolExecutor e, boolean callable) {
        Runnable r = () -> { };
        Callable<String> c = () -> "x";
        if (callable) {
            return List.of(
                    () -> e.schedule(c, 0, SECONDS),
                    () -> e.schedule(c, 1, HOURS),
                    () -> e.submit(c),
                    () -> e.submit(r, "result")); // an adapter Callable (HooksTest)
        }
        return List.of(
                () -> e.schedule(r, 0, SECONDS),
                () -> e.schedule(r, 1, HOURS),
                () -> e.scheduleAtFixedRate(r, 0, 1, SECONDS),
                () -> e.scheduleWithFixedDelay(r, 1, 1, HOURS),
                () -> e.execute(r),
                () -> e.submit(r));
    }

    private void assertDecorateTaskThrowing(Impl impl, Throwable thrown) throws Exception {
        AtomicBoolean fail = new AtomicBoolean(true);
        AtomicInteger calls = new AtomicInteger();
        Hooks hooks = new Hooks() {
            private <V> RunnableScheduledFuture<V> maybeThrow(RunnableScheduledFuture<V> task) {
                calls.incrementAndGet();
                if (fail.get()) {
                    if (thrown instanceof Error) {
                        throw (Error) thrown;
                    }
                    throw (RuntimeException) thrown;
                }
                return task;
            }

            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                return maybeThrow(task);
            }

            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Callable<V> c, RunnableScheduledFuture<V> task) {
                return maybeThrow(task);
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 2, factory, hooks);
        List<Executable> calls10 = new ArrayList<>(everyEntryPoint(e, false));
        calls10.addAll(everyEntryPoint(e, true));
        for (Executable call : calls10) {
            assertSame(thrown, assertThrows(Throwable.class, call));
        }
        assertEquals(calls10.size(), calls.get());
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, e.getTaskCount());
        assertEquals(0, e.getPoolSize());
        assertEquals(0, factory.calls.get(), "no thread is started for a task that was never queued");
        fail.set(false);
        assertEquals("x", get(e.submit(() -> "x")));
        assertEquals(1, factory.calls.get());
        e.shutdown();
        awaitTerminated(e);
    }

    @BothImpls
    void decorateTaskThrowingAnException_propagatesFromEveryEntryPoint_nothingQueuedNoThreadStarted(Impl impl)
            throws Exception {
        assertDecorateTaskThrowing(impl, new HookFailure("decorateTask fails"));
    }

    @BothImpls
    void decorateTaskThrowingAnError_propagatesFromEveryEntryPoint_nothingQueuedNoThreadStarted(Impl impl)
            throws Exception {
        assertDecorateTaskThrowing(impl, new HookError("decorateTask error"));
    }

    @BothImpls
    void beforeExecuteThrowingForAPeriodicTask_theTaskIsLostForGood_yetCountedCompleted_andTheExecutorTerminates(
            Impl impl) throws Exception {
        // The worker had taken the periodic task off the queue; beforeExecute throws before task.run(), so the
        // task never re-queues itself and its future never completes, not even when the executor terminates.
        HookError error = new HookError("beforeExecute error");
        AtomicBoolean failNext = new AtomicBoolean(true);
        Hooks hooks = new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                if (failNext.getAndSet(false)) {
                    throw error;
                }
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 1, MILLISECONDS);
        awaitUntil("the worker's death is reported", () -> factory.uncaught.size() == 1);
        assertSame(error, factory.uncaught.get(0));
        flush(e, 20, MILLISECONDS); // on the replacement worker: a re-queued run (1 ms) would have come first
        assertEquals(0, runs.get());
        assertFalse(f.isDone());
        assertFalse(e.getQueue().contains(f));
        assertEquals(2, factory.calls.get());
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == 2);
        assertEquals(2, e.getTaskCount());
        e.shutdown();
        awaitTerminated(e);
        assertFalse(f.isDone(), "nobody holds the lost task any more: it is never cancelled");
        assertEquals(0, runs.get());
    }

    @BothImpls
    void beforeExecuteAlwaysThrowing_everyTaskIsLost_everyWorkerDies_oneReplacementEach(Impl impl) throws Exception {
        HookFailure failure = new HookFailure("beforeExecute always fails");
        AtomicBoolean fail = new AtomicBoolean();
        AtomicInteger beforeCalls = new AtomicInteger();
        Hooks hooks = new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                if (fail.get()) {
                    beforeCalls.incrementAndGet();
                    throw failure;
                }
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        // Every task is queued while the one worker is busy, so no schedule call races a dying worker (both
        // would add a thread: the schedule a core one, processWorkerExit a replacement, on either executor).
        Gate release = blockWorker(e);
        int n = 50;
        AtomicInteger runs = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            futures.add(i % 2 == 0 ? e.submit(counting(runs)) : e.schedule(counting(runs), 1, MILLISECONDS));
        }
        fail.set(true);
        release.open();
        awaitUntil("every task taken", () -> beforeCalls.get() == n && factory.uncaught.size() == n);
        awaitUntil("every worker replaced", () -> factory.calls.get() == n + 1 && e.getPoolSize() == 1);
        for (Throwable t : factory.uncaught) {
            assertSame(failure, t);
        }
        for (Future<?> f : futures) {
            assertFalse(f.isDone());
        }
        assertEquals(0, runs.get());
        assertTrue(e.getQueue().isEmpty());
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == n + 1);
        e.shutdown();
        awaitTerminated(e);
        assertEquals(0, runs.get());
    }

    @BothImpls
    void afterExecuteThrowingForAPeriodicTask_itHasReQueuedItself_soItKeepsRunning_oneWorkerDiesPerRun(Impl impl)
            throws Exception {
        // afterExecute runs after task.run(), which re-queued the periodic task: every run kills its worker, the
        // pool replaces it, and the task goes on until its own body stops it (the fifth run throws).
        HookFailure failure = new HookFailure("afterExecute fails");
        Hooks hooks = new Hooks() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                throw failure;
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        IllegalStateException stop = new IllegalStateException("the body stops the task (expected by the test)");
        AtomicInteger runs = new AtomicInteger();
        List<Thread> runners = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> f = e.scheduleWithFixedDelay(() -> {
            runners.add(Thread.currentThread());
            if (runs.incrementAndGet() == 5) {
                throw stop;
            }
        }, 0, 1, MILLISECONDS);
        ExecutionException ee = assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        assertSame(stop, ee.getCause());
        awaitUntil("five deaths, five replacements",
                () -> factory.uncaught.size() == 5 && factory.calls.get() == 6 && e.getPoolSize() == 1);
        for (Throwable t : factory.uncaught) {
            assertSame(failure, t);
        }
        assertEquals(5, runs.get());
        assertEquals(5, identitySet(runners).size());
        assertTrue(e.getQueue().isEmpty());
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == 5);
    }

    @BothImpls
    void terminatedThrowingOnTheLastWorker_reachesItsUncaughtHandler_theExecutorIsTerminated(Impl impl)
            throws Exception {
        HookError error = new HookError("terminated error");
        AtomicInteger terminatedCalls = new AtomicInteger();
        Hooks hooks = new Hooks() {
            @Override
            public void terminated(ScheduledThreadPoolExecutor self) {
                terminatedCalls.incrementAndGet();
                throw error;
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        Gate release = blockWorker(e);
        AtomicInteger runs = new AtomicInteger();
        e.schedule(counting(runs), 1, MILLISECONDS);
        e.shutdown(); // returns normally: the worker is still there
        assertFalse(e.isTerminated());
        release.open();
        awaitTerminated(e);
        awaitUntil("the worker's uncaught handler got it", () -> factory.uncaught.size() == 1);
        assertSame(error, factory.uncaught.get(0));
        assertEquals(1, runs.get(), "the delayed task still ran after shutdown (default policy)");
        assertEquals(1, terminatedCalls.get());
        assertTrue(e.isTerminated());
        assertFalse(e.isTerminating());
        assertEquals(0, e.getPoolSize());
        assertEquals(1, factory.calls.get(), "a worker exiting at termination is not replaced");
        e.shutdownNow();
        e.shutdown();
        assertEquals(1, terminatedCalls.get());
    }

    @BothImpls
    void terminatedThrowingInShutdownNow_propagatesFromIt_theDrainedTasksAreLostToTheCaller_yetTerminated(
            Impl impl) throws Exception {
        // No worker exists (the factory returns null), so shutdownNow's own tryTerminate calls terminated(): its
        // exception leaves shutdownNow before it returns the list it drained; those tasks are neither returned,
        // nor run, nor cancelled.
        HookFailure failure = new HookFailure("terminated fails");
        Hooks hooks = new Hooks() {
            @Override
            public void terminated(ScheduledThreadPoolExecutor self) {
                throw failure;
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        factory.fallback = Fault.RETURN_NULL;
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> now = e.schedule(counting(runs), 0, SECONDS);
        ScheduledFuture<?> later = e.schedule(counting(runs), 1, HOURS);
        assertEquals(0, e.getPoolSize());
        assertEquals(2, e.getQueue().size());
        assertSame(failure, assertThrows(HookFailure.class, e::shutdownNow));
        assertTrue(e.isTerminated());
        assertTrue(e.awaitTermination(0, SECONDS));
        assertTrue(e.getQueue().isEmpty());
        assertFalse(now.isDone());
        assertFalse(later.isDone());
        assertEquals(0, runs.get());
        assertEquals(List.of(), e.shutdownNow(), "already terminated: terminated() is not called again");
    }

    @BothImpls
    void rejectionHandlerThrowing_fromEveryEntryPoint_nothingQueued_existingTasksStillRun_andTheExecutorTerminates(
            Impl impl) throws Exception {
        HookFailure failure = new HookFailure("handler fails");
        HookError error = new HookError("handler error");
        AtomicBoolean throwError = new AtomicBoolean();
        List<Runnable> rejected = new CopyOnWriteArrayList<>();
        RejectedExecutionHandler handler = (r, executor) -> {
            rejected.add(r);
            if (throwError.get()) {
                throw error;
            }
            throw failure;
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory, handler);
        Gate release = blockWorker(e);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> existing = e.schedule(counting(runs), 1, MILLISECONDS);
        e.shutdown();
        long taskCount = e.getTaskCount();
        List<Executable> calls = new ArrayList<>(everyEntryPoint(e, false));
        calls.addAll(everyEntryPoint(e, true));
        for (Executable call : calls) {
            throwError.set(false);
            assertSame(failure, assertThrows(HookFailure.class, call));
            throwError.set(true);
            assertSame(error, assertThrows(HookError.class, call));
        }
        assertEquals(2 * calls.size(), rejected.size());
        for (Runnable r : rejected) {
            assertFalse(((Future<?>) r).isDone(), "a rejected task is neither run nor cancelled");
        }
        assertEquals(1, e.getQueue().size());
        assertEquals(taskCount, e.getTaskCount());
        assertEquals(1, factory.calls.get());
        release.open();
        get(existing);
        awaitTerminated(e);
        assertEquals(1, runs.get());
        assertEquals(List.of(), factory.uncaught);
    }
}
