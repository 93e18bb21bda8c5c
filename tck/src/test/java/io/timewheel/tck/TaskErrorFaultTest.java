package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tasks that throw Errors, StackOverflowError included. STPE's tasks are FutureTasks: the Error is caught
 * (FutureTask.run catches Throwable) and kept in the future, afterExecute gets null, nothing reaches the
 * worker thread's uncaught exception handler and the worker lives on; a periodic task that throws is
 * suppressed (no further run, its future completes with the Error). Only a decorated task of another class,
 * whose run() itself throws, kills the worker (ThreadPoolExecutor.runWorker rethrows after afterExecute), and
 * the pool replaces it.
 */
class TaskErrorFaultTest extends TckTest {

    static final class TaskError extends Error {
        private static final long serialVersionUID = 1L;

        TaskError(String message) {
            super(message + " (expected by the test)");
        }
    }

    /** Records what afterExecute receives. */
    private static final class AfterRecorder implements Hooks {
        final List<Throwable> thrown = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
            if (t != null) {
                thrown.add(t);
            }
            calls.incrementAndGet();
        }
    }

    /** Recurses until the stack overflows; never returns normally. */
    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    private static Throwable causeOf(Future<?> f) {
        ExecutionException ee = assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        return ee.getCause();
    }

    @BothImpls
    void oneShotTasksThrowingErrors_theFutureHoldsTheError_theWorkerLivesOn_nothingIsUncaught(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        AfterRecorder hooks = new AfterRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        TaskError error = new TaskError("task error");
        Runnable throwingRunnable = () -> {
            throw error;
        };
        Callable<String> throwingCallable = () -> {
            throw error;
        };
        List<Future<?>> futures = new ArrayList<>();
        futures.add(e.schedule(throwingRunnable, 0, SECONDS));
        futures.add(e.schedule(throwingRunnable, 1, MILLISECONDS));
        futures.add(e.schedule(throwingCallable, 0, SECONDS));
        futures.add(e.schedule(throwingCallable, 1, MILLISECONDS));
        futures.add(e.submit(throwingRunnable));
        futures.add(e.submit(throwingRunnable, "result"));
        futures.add(e.submit(throwingCallable));
        for (Future<?> f : futures) {
            assertSame(error, causeOf(f));
            assertTrue(f.isDone());
            assertFalse(f.isCancelled());
        }
        for (int i = 0; i < 10; i++) {
            e.execute(throwingRunnable);
        }
        Thread worker = get(e.submit(Thread::currentThread));
        assertSame(factory.threads.get(0), worker);
        awaitUntil("every afterExecute", () -> hooks.calls.get() == futures.size() + 11);
        assertEquals(List.of(), hooks.thrown, "afterExecute gets null: the Error is inside the future");
        assertEquals(List.of(), factory.uncaught);
        assertEquals(1, factory.calls.get());
        assertEquals(1, e.getPoolSize());
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == futures.size() + 11);
        assertEquals(futures.size() + 11, e.getTaskCount());
    }

    @BothImpls
    void stackOverflowError_isCaughtInTheFuture_theWorkerLivesOn(Impl impl) throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        Future<Integer> overflow = e.submit(() -> recurse(0));
        Future<?> overflowRunnable = e.schedule(() -> {
            recurse(0);
        }, 1, MILLISECONDS);
        assertInstanceOf(StackOverflowError.class, causeOf(overflow));
        assertInstanceOf(StackOverflowError.class, causeOf(overflowRunnable));
        // the same worker goes on, with a usable stack
        assertEquals(55, get(e.submit(() -> fib(10))));
        assertSame(factory.threads.get(0), get(e.submit(Thread::currentThread)));
        assertEquals(1, factory.calls.get());
        assertEquals(List.of(), factory.uncaught);
    }

    private static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    private void assertPeriodicSuppressedByError(Impl impl, boolean fixedRate, boolean stackOverflow)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        AfterRecorder hooks = new AfterRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        TaskError error = new TaskError("periodic error");
        AtomicInteger runs = new AtomicInteger();
        Runnable body = () -> {
            if (runs.incrementAndGet() == 3) {
                if (stackOverflow) {
                    recurse(0);
                }
                throw error;
            }
        };
        ScheduledFuture<?> f = fixedRate
                ? e.scheduleAtFixedRate(body, 0, 1, MILLISECONDS)
                : e.scheduleWithFixedDelay(body, 0, 1, MILLISECONDS);
        Throwable cause = causeOf(f);
        if (stackOverflow) {
            assertInstanceOf(StackOverflowError.class, cause);
        } else {
            assertSame(error, cause);
        }
        assertTrue(f.isDone());
        assertFalse(f.isCancelled());
        assertFalse(e.getQueue().contains(f));
        // Had it been re-queued, its next run (1 ms after the failed one) would come before this task, which is
        // due later on the single worker.
        flush(e, 20, MILLISECONDS);
        assertEquals(3, runs.get());
        assertTrue(e.getQueue().isEmpty());
        awaitUntil("every afterExecute", () -> hooks.calls.get() == 4);
        assertEquals(List.of(), hooks.thrown);
        assertEquals(List.of(), factory.uncaught);
        assertEquals(1, factory.calls.get());
        assertEquals(1, e.getPoolSize());
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == 4);
    }

    @BothImpls
    void fixedRateThrowingAnError_isSuppressed_itsFutureHoldsTheError_theWorkerLivesOn(Impl impl) throws Exception {
        assertPeriodicSuppressedByError(impl, true, false);
    }

    @BothImpls
    void fixedDelayThrowingAnError_isSuppressed_itsFutureHoldsTheError_theWorkerLivesOn(Impl impl) throws Exception {
        assertPeriodicSuppressedByError(impl, false, false);
    }

    @BothImpls
    void fixedRateOverflowingTheStack_isSuppressed_theWorkerLivesOn(Impl impl) throws Exception {
        assertPeriodicSuppressedByError(impl, true, true);
    }

    @BothImpls
    void fixedDelayOverflowingTheStack_isSuppressed_theWorkerLivesOn(Impl impl) throws Exception {
        assertPeriodicSuppressedByError(impl, false, true);
    }

    /** A decorated task whose own run() throws after running the executor's task (when {@code fail} says so). */
    private static final class ThrowingForeignTask<V> extends ForeignTask<V> {
        final TaskError error;

        ThrowingForeignTask(RunnableScheduledFuture<V> inner, TaskError error) {
            super(inner);
            this.error = error;
        }

        @Override
        public void run() {
            super.run();
            throw error;
        }
    }

    @BothImpls
    void decoratedTaskWhoseRunThrowsAnError_killsTheWorker_afterExecuteAndTheUncaughtHandlerGetIt_andItIsReplaced(
            Impl impl) throws Exception {
        TaskError error = new TaskError("decorated run error");
        AtomicBoolean decorate = new AtomicBoolean(true);
        List<Throwable> afterThrown = new CopyOnWriteArrayList<>();
        Hooks hooks = new Hooks() {
            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                return decorate.get() ? new ThrowingForeignTask<>(task, error) : task;
            }

            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                if (t != null) {
                    afterThrown.add(t);
                }
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        AtomicInteger runs = new AtomicInteger();
        Future<?> f = e.schedule(counting(runs), 0, SECONDS);
        assertNull(get(f), "the executor's own task inside completed normally");
        awaitUntil("the worker's death is reported", () -> factory.uncaught.size() == 1);
        assertSame(error, factory.uncaught.get(0));
        assertEquals(List.of(error), afterThrown);
        assertEquals(1, runs.get());
        decorate.set(false);
        Thread replacement = get(e.submit(Thread::currentThread));
        assertEquals(2, factory.calls.get());
        assertSame(factory.threads.get(1), replacement);
        assertNotSame(factory.threads.get(0), replacement);
        assertEquals(1, e.getPoolSize());
        // runWorker counts the task as completed in its finally block, even though the worker died
        awaitUntil("completed count", () -> e.getCompletedTaskCount() == 2);
    }

    @BothImpls
    void decoratedPeriodicTaskWhoseRunThrows_isRequeuedFirst_soItKeepsRunning_eachRunOnAFreshWorker(Impl impl)
            throws Exception {
        // The executor's own periodic task re-queues itself (reExecutePeriodic) inside the decorated run(), before
        // the decorated run() throws: the task goes on, and every run kills the worker that ran it.
        TaskError error = new TaskError("decorated periodic error");
        Hooks hooks = new Hooks() {
            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                return new ThrowingForeignTask<>(task, error);
            }
        };
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        AtomicInteger runs = new AtomicInteger();
        List<Thread> runners = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> f = e.scheduleWithFixedDelay(() -> {
            runners.add(Thread.currentThread());
            runs.incrementAndGet();
        }, 0, 1, MILLISECONDS);
        ThrowingForeignTask<?> decorated = assertInstanceOf(ThrowingForeignTask.class, f);
        awaitUntil("five runs", () -> runs.get() >= 5);
        assertTrue(f.cancel(false));
        assertTrue(f.isCancelled());
        // Cancelled while queued, the decorated task stays queued (removeOnCancel is false, and neither executor
        // can see a foreign task's cancellation) and is still run, doing nothing inside, at its trigger time:
        // every decorated run() throws, whether or not the body ran.
        awaitUntil("the queue empties", () -> e.getQueue().isEmpty());
        awaitUntil("every death reported and replaced", () -> factory.uncaught.size() == decorated.runs.get()
                && factory.calls.get() == decorated.runs.get() + 1
                && e.getCompletedTaskCount() == decorated.runs.get());
        for (Throwable t : factory.uncaught) {
            assertSame(error, t);
        }
        assertTrue(decorated.runs.get() - runs.get() <= 1);
        assertEquals(runs.get(), identitySet(runners).size(), "each run on a fresh worker");
        awaitUntil("the last replacement is in the pool", () -> e.getPoolSize() == 1);
    }
}
