package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * New tasks after shutdown go to the RejectedExecutionHandler, and only then: the queue is unbounded.
 *
 * <p>STPE.delayedExecute rejects the task it built (the decorated RunnableScheduledFuture), not the caller's
 * Runnable or Callable: the handler sees that future, schedule() returns it if the handler returns, and it is
 * never run. The JDK's CallerRuns and DiscardOldest policies do nothing once the executor is shut down.
 */
class RejectionTest extends TckTest {

    /** Each entry point, returning what it returned (null for execute). */
    private static List<Function<ScheduledThreadPoolExecutor, Object>> entryPoints(Runnable r, Callable<?> c) {
        return List.of(
                e -> e.schedule(r, 0, SECONDS),
                e -> e.schedule(c, 1, HOURS),
                e -> e.scheduleAtFixedRate(r, 0, 1, SECONDS),
                e -> e.scheduleWithFixedDelay(r, 1, 1, SECONDS),
                e -> {
                    e.execute(r);
                    return null;
                },
                e -> e.submit(r),
                e -> e.submit(r, "result"),
                e -> e.submit(c));
    }

    @BothImpls
    void abortPolicy_afterShutdown_everyMethodThrowsREE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        e.shutdown();
        for (Function<ScheduledThreadPoolExecutor, Object> call : entryPoints(counting(runs), () -> "c")) {
            assertThrows(RejectedExecutionException.class, () -> call.apply(e));
        }
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, runs.get());
        assertEquals(0, e.getPoolSize());
    }

    @BothImpls
    void abortPolicy_whileTerminatingAndAfterShutdownNow_throwsREE(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        e.shutdown();
        assertTrue(e.isTerminating());
        assertThrows(RejectedExecutionException.class, () -> e.schedule(() -> { }, 0, SECONDS));
        e.shutdownNow();
        assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
        release.open();
        awaitTerminated(e);
        assertThrows(RejectedExecutionException.class, () -> e.submit(() -> "c"));
    }

    @BothImpls
    void abortPolicy_messageNamesTaskAndExecutor(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.shutdown();
        RejectedExecutionException x = assertThrows(RejectedExecutionException.class,
                () -> e.schedule(() -> { }, 0, SECONDS));
        String executorIdentity = e.getClass().getName() + "@" + Integer.toHexString(e.hashCode());
        assertTrue(x.getMessage().startsWith("Task "), x.getMessage());
        assertTrue(x.getMessage().contains(" rejected from " + executorIdentity + "["), x.getMessage());
        assertTrue(x.getMessage().endsWith("[Terminated, pool size = 0, active threads = 0, queued tasks = 0, "
                + "completed tasks = 0]"), x.getMessage());
    }

    @BothImpls
    void handler_receivesTheReturnedFutureAndTheExecutor_onTheCallingThread(Impl impl) {
        RecordingHandler handler = RecordingHandler.discarding();
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        e.shutdown();
        List<Function<ScheduledThreadPoolExecutor, Object>> calls = entryPoints(() -> { }, () -> "c");
        for (Function<ScheduledThreadPoolExecutor, Object> call : calls) {
            int before = handler.calls.size();
            Object returned = call.apply(e);
            assertEquals(before + 1, handler.calls.size());
            RecordingHandler.Call seen = handler.calls.get(before);
            assertSame(e, seen.executor);
            assertSame(Thread.currentThread(), seen.thread);
            assertTrue(seen.executorWasShutdown);
            assertInstanceOf(RunnableScheduledFuture.class, seen.task);
            if (returned != null) {
                assertSame(returned, seen.task);
            }
        }
    }

    @BothImpls
    void handler_forExecute_getsARunnableScheduledFuture_notTheCommand(Impl impl) {
        RecordingHandler handler = RecordingHandler.discarding();
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        e.shutdown();
        Runnable command = () -> { };
        e.execute(command);
        Runnable seen = handler.calls.get(0).task;
        assertNotSame(command, seen);
        RunnableScheduledFuture<?> task = assertInstanceOf(RunnableScheduledFuture.class, seen);
        assertFalse(task.isPeriodic());
        assertTrue(task.getDelay(NANOSECONDS) <= 0);
        assertFalse(task.isDone());
    }

    @BothImpls
    void handler_forPeriodic_getsAPeriodicFutureWithItsDelay(Impl impl) {
        RecordingHandler handler = RecordingHandler.discarding();
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        e.shutdown();
        e.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        RunnableScheduledFuture<?> task = assertInstanceOf(RunnableScheduledFuture.class, handler.calls.get(0).task);
        assertTrue(task.isPeriodic());
        long delay = task.getDelay(NANOSECONDS);
        assertTrue(delay > 0 && delay <= HOURS.toNanos(1), "delay " + delay);
    }

    @BothImpls
    void handlerReturningNormally_scheduleReturnsAFutureThatNeverCompletes(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1, new ThreadPoolExecutor.DiscardPolicy());
        e.shutdown();
        AtomicInteger runs = new AtomicInteger();
        Future<?> f = e.schedule(counting(runs), 0, SECONDS);
        assertNotNull(f);
        assertFalse(f.isDone());
        assertFalse(f.isCancelled());
        assertThrows(TimeoutException.class, () -> f.get(10, MILLISECONDS));
        assertEquals(0, runs.get());
        assertTrue(e.getQueue().isEmpty());
    }

    @BothImpls
    void discardPolicy_afterShutdown_dropsSilently_everyMethod(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1, new ThreadPoolExecutor.DiscardPolicy());
        e.shutdown();
        AtomicInteger runs = new AtomicInteger();
        for (Function<ScheduledThreadPoolExecutor, Object> call : entryPoints(counting(runs), runs::incrementAndGet)) {
            call.apply(e);
        }
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, runs.get());
        assertTrue(e.isTerminated());
    }

    @BothImpls
    void callerRunsPolicy_afterShutdown_doesNotRunTheTask(Impl impl) {
        // CallerRunsPolicy runs the task only "if (!e.isShutdown())" (ThreadPoolExecutor.java:2003), and STPE rejects
        // only after shutdown (ScheduledThreadPoolExecutor.java:344-345).
        ScheduledThreadPoolExecutor e = executor(impl, 1, new ThreadPoolExecutor.CallerRunsPolicy());
        e.shutdown();
        AtomicInteger runs = new AtomicInteger();
        Future<?> f = e.submit(counting(runs));
        e.execute(counting(runs));
        e.schedule(counting(runs), 0, SECONDS);
        assertEquals(0, runs.get());
        assertFalse(f.isDone());
    }

    @BothImpls
    void discardOldestPolicy_afterShutdown_leavesTheQueueAlone(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1, new ThreadPoolExecutor.DiscardOldestPolicy());
        Future<?> kept = e.schedule(() -> { }, 1, HOURS);
        e.shutdown();
        AtomicInteger runs = new AtomicInteger();
        Future<?> rejected = e.submit(counting(runs));
        assertEquals(1, e.getQueue().size());
        assertTrue(e.getQueue().contains(kept));
        assertFalse(e.getQueue().contains(rejected));
        assertFalse(kept.isDone());
        assertEquals(0, runs.get());
    }

    @BothImpls
    void handlerThrowing_itsExceptionPropagatesFromSchedule(Impl impl) {
        IllegalStateException mine = new IllegalStateException("my handler");
        RejectedExecutionHandler handler = (r, executor) -> { throw mine; };
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        e.shutdown();
        assertSame(mine, assertThrows(IllegalStateException.class, () -> e.schedule(() -> { }, 1, SECONDS)));
        assertSame(mine, assertThrows(IllegalStateException.class, () -> e.execute(() -> { })));
    }

    @BothImpls
    void setRejectedExecutionHandler_isUsedForLaterRejections(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.shutdown();
        assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
        RecordingHandler handler = RecordingHandler.discarding();
        e.setRejectedExecutionHandler(handler);
        e.execute(() -> { });
        assertEquals(1, handler.calls.size());
    }

    @BothImpls
    void runningExecutor_neverRejects_evenWithManyPendingTasks(Impl impl) {
        RecordingHandler handler = RecordingHandler.aborting();
        ScheduledThreadPoolExecutor e = executor(impl, 1, handler);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            futures.add(i % 2 == 0 ? e.schedule(() -> { }, 1 + i, SECONDS)
                    : e.scheduleAtFixedRate(() -> { }, 1, 1 + i, HOURS));
        }
        assertEquals(0, handler.calls.size());
        assertEquals(20_000, e.getQueue().size());
        assertEquals(1, e.getPoolSize());
        // A worker that has not started running yet counts as active, and so as one more task.
        awaitUntil("worker idle", () -> e.getActiveCount() == 0);
        assertEquals(20_000, e.getTaskCount());
    }

    @BothImpls
    void rejectedTasks_areNotCounted_andStartNoThread(Impl impl) {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 2, factory, new ThreadPoolExecutor.DiscardPolicy());
        e.shutdown();
        for (int i = 0; i < 10; i++) {
            e.schedule(() -> { }, 0, SECONDS);
        }
        assertEquals(0, e.getTaskCount());
        assertEquals(0, e.getCompletedTaskCount());
        assertEquals(0, factory.calls.get());
        assertEquals(0, e.getPoolSize());
    }
}
