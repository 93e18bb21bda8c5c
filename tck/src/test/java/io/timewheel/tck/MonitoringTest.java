package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * getQueue as a live view of every not-yet-started task, remove, purge, the counters, and toString in
 * ThreadPoolExecutor's format.
 */
class MonitoringTest extends TckTest {

    private static String identity(Object o) {
        return o.getClass().getName() + "@" + Integer.toHexString(o.hashCode());
    }

    /** Schedules far-future tasks through every method; returns them in order. */
    private static List<Future<?>> pendingFromEveryMethod(ScheduledThreadPoolExecutor e) {
        return List.of(e.schedule(() -> { }, 1, HOURS), e.schedule(() -> "c", 2, HOURS),
                e.scheduleAtFixedRate(() -> { }, 3, 1, HOURS), e.scheduleWithFixedDelay(() -> { }, 4, 1, HOURS));
    }

    @BothImpls
    void getQueue_isALiveView(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        BlockingQueue<Runnable> q = e.getQueue();
        assertTrue(q.isEmpty());
        Gate release = blockWorker(e);
        ScheduledFuture<?> f = e.schedule(() -> { }, 0, MILLISECONDS);
        assertEquals(1, q.size());
        assertFalse(q.isEmpty());
        assertTrue(q.contains(f));
        release.open();
        get(f);
        assertTrue(q.isEmpty());
        assertTrue(q.isEmpty());
        assertFalse(q.contains(f));
    }

    @BothImpls
    void getQueue_holdsEveryNotYetStartedTask_dueOrDelayed_butNotTheRunningOne(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        assertTrue(e.getQueue().isEmpty());
        List<Future<?>> pending = new ArrayList<>(pendingFromEveryMethod(e));
        pending.add(e.submit(() -> { }));
        pending.add(e.submit(() -> { }, "r"));
        pending.add(e.submit(() -> "c"));
        assertEquals(pending.size(), e.getQueue().size());
        for (Future<?> f : pending) {
            assertTrue(e.getQueue().contains(f));
        }
        release.open();
    }

    @BothImpls
    void getQueue_iteratorYieldsEveryPendingTaskOnce(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        List<Future<?>> pending = pendingFromEveryMethod(e);
        List<Runnable> seen = new ArrayList<>();
        Iterator<Runnable> it = e.getQueue().iterator();
        while (it.hasNext()) {
            seen.add(it.next());
        }
        assertThrows(NoSuchElementException.class, it::next);
        assertSameElements(pending, seen);
    }

    @BothImpls
    void getQueue_toArray_inBothForms(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        List<Future<?>> pending = pendingFromEveryMethod(e);
        Object[] plain = e.getQueue().toArray();
        assertSameElements(pending, Arrays.asList(plain));
        Runnable[] typed = e.getQueue().toArray(new Runnable[0]);
        assertSame(Runnable[].class, typed.getClass());
        assertSameElements(pending, Arrays.asList(typed));
        Object[] roomy = new Object[pending.size() + 2];
        Arrays.fill(roomy, "filler");
        assertSame(roomy, e.getQueue().toArray(roomy));
        assertSameElements(pending, Arrays.asList(roomy).subList(0, pending.size()));
        assertNull(roomy[pending.size()]);
        for (Object o : plain) {
            assertInstanceOf(RunnableScheduledFuture.class, o);
        }
    }

    @BothImpls
    void getQueue_remove_takesTheTaskOut_itNeverRunsAndIsNotCompleted(Impl impl) throws Exception {
        // Removing from the queue neither runs nor cancels the task: its future stays not done.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        Gate release = blockWorker(e);
        ScheduledFuture<?> f = e.schedule(counting(runs), 0, MILLISECONDS);
        ScheduledFuture<?> other = e.schedule(() -> { }, 1, HOURS);
        assertTrue(e.getQueue().remove(f));
        assertFalse(e.getQueue().remove(f));
        assertFalse(e.getQueue().contains(f));
        assertEquals(1, e.getQueue().size());
        assertTrue(e.getQueue().contains(other));
        release.open();
        flush(e, 0, MILLISECONDS);
        assertEquals(0, runs.get());
        assertFalse(f.isDone());
        assertFalse(f.isCancelled());
    }

    @BothImpls
    void getQueue_iteratorRemove_takesTheTaskOut(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        List<Future<?>> pending = pendingFromEveryMethod(e);
        Future<?> victim = pending.get(2);
        Iterator<Runnable> it = e.getQueue().iterator();
        assertThrows(IllegalStateException.class, it::remove);
        while (it.hasNext()) {
            if (it.next() == victim) {
                it.remove();
            }
        }
        assertFalse(e.getQueue().contains(victim));
        assertEquals(pending.size() - 1, e.getQueue().size());
        assertFalse(victim.isDone());
    }

    @BothImpls
    void getQueue_forExecute_holdsATaskWrappingTheCommand_notTheCommand(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        Runnable command = () -> { };
        e.execute(command);
        assertEquals(1, e.getQueue().size());
        assertFalse(e.getQueue().contains(command));
        assertFalse(e.remove(command));
        RunnableScheduledFuture<?> task = assertInstanceOf(RunnableScheduledFuture.class,
                e.getQueue().iterator().next());
        assertFalse(task.isPeriodic());
        assertFalse(task.isDone());
        release.open();
        get(task);
    }

    @BothImpls
    void getQueue_isUnbounded(Impl impl) {
        assertEquals(Integer.MAX_VALUE, executor(impl, 1).getQueue().remainingCapacity());
    }

    @BothImpls
    void getQueue_isEmptyAfterShutdownNow(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        pendingFromEveryMethod(e);
        e.shutdownNow();
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, e.getQueue().size());
    }

    @BothImpls
    void remove_queuedTask_trueOnceThenFalse_itNeverRuns(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        Gate release = blockWorker(e);
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 1, MILLISECONDS);
        assertTrue(e.remove((Runnable) f));
        assertFalse(e.remove((Runnable) f));
        release.open();
        flush(e, 5, MILLISECONDS);
        assertEquals(0, runs.get());
        assertFalse(f.isDone());
    }

    @BothImpls
    void remove_ofARunningDoneUnknownOrNullTask_returnsFalse(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Future<String> done = e.submit(() -> "done");
        get(done);
        assertFalse(e.remove((Runnable) done));
        Gate started = new Gate();
        Gate release = gate();
        Future<?> running = e.submit(() -> {
            started.open();
            release.awaitUninterruptibly();
        });
        started.await();
        assertFalse(e.remove((Runnable) running));
        assertFalse(e.remove(() -> { }));
        assertFalse(e.remove(null));
        release.open();
        get(running);
    }

    @BothImpls
    void remove_ofTheLastKeptTaskAfterShutdown_letsTheExecutorTerminate(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> kept = e.schedule(() -> { }, 1, HOURS);
        e.shutdown();
        assertFalse(e.isTerminated());
        assertTrue(e.remove((Runnable) kept));
        awaitTerminated(e);
    }

    @BothImpls
    void purge_afterCancellingTheLastKeptTask_letsTheExecutorTerminate(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        ScheduledFuture<?> kept = e.schedule(() -> { }, 1, HOURS);
        e.shutdown();
        assertTrue(kept.cancel(false));
        e.purge();
        awaitTerminated(e);
        assertTrue(e.getQueue().isEmpty());
    }

    @BothImpls
    void purge_withNothingCancelled_changesNothing(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        List<Future<?>> pending = pendingFromEveryMethod(e);
        e.purge();
        assertSameElements(pending, new ArrayList<>(e.getQueue()));
    }

    @BothImpls
    void taskCount_countsCompletedRunningAndQueued(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        get(e.submit(() -> { }));
        get(e.schedule(() -> "c", 1, MILLISECONDS));
        // A worker holds its lock a moment after counting a completed task, and getTaskCount counts a
        // locked worker as one more task: so wait for the count to settle rather than read it once.
        awaitUntil("two completed", () -> e.getCompletedTaskCount() == 2 && e.getTaskCount() == 2);
        Gate release = blockWorker(e);
        e.schedule(() -> { }, 1, HOURS);
        e.scheduleAtFixedRate(() -> { }, 1, 1, HOURS);
        assertEquals(5, e.getTaskCount());
        assertEquals(2, e.getCompletedTaskCount());
        release.open();
        awaitUntil("blocker completed", () -> e.getCompletedTaskCount() == 3 && e.getTaskCount() == 5);
    }

    @BothImpls
    void completedTaskCount_includesFailedTasks(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            boolean fail = i % 2 == 0;
            futures.add(e.submit(() -> {
                if (fail) {
                    throw new IllegalStateException();
                }
            }));
        }
        for (Future<?> f : futures) {
            try {
                get(f);
            } catch (ExecutionException expected) {
                // counted all the same
            }
        }
        awaitUntil("five completed", () -> e.getCompletedTaskCount() == 5 && e.getTaskCount() == 5);
    }

    @BothImpls
    void completedTaskCount_countsEveryRunOfAPeriodicTask(Impl impl) throws Exception {
        // Each run is one task.run() by a worker, hence one completed task for ThreadPoolExecutor.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 4) {
                throw new IllegalStateException("stop after 4 runs");
            }
        }, 0, 1, MILLISECONDS);
        assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        awaitUntil("four completed", () -> e.getCompletedTaskCount() == 4 && e.getTaskCount() == 4);
    }

    @BothImpls
    void activeCount_countsTasksRunningNow(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 3);
        AtomicInteger started = new AtomicInteger();
        Gate release = gate();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            futures.add(e.submit(() -> {
                started.incrementAndGet();
                release.awaitUninterruptibly();
            }));
        }
        awaitUntil("two started", () -> started.get() == 2);
        assertEquals(2, e.getActiveCount());
        release.open();
        for (Future<?> f : futures) {
            get(f);
        }
        awaitUntil("none active", () -> e.getActiveCount() == 0);
    }

    @BothImpls
    void toString_ofAFreshExecutor(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        assertEquals(identity(e) + "[Running, pool size = 0, active threads = 0, queued tasks = 0, "
                + "completed tasks = 0]",
                e.toString());
    }

    @BothImpls
    void toString_reportsPoolActiveQueuedAndCompleted(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        for (int i = 0; i < 3; i++) {
            get(e.submit(() -> { }));
        }
        awaitUntil("three completed", () -> e.getCompletedTaskCount() == 3);
        awaitUntil("two workers", () -> e.getPoolSize() == 2);
        // Not yet started workers and workers finishing a task both count as active for a moment.
        awaitUntil("both idle", () -> e.getActiveCount() == 0);
        Gate release = blockWorker(e);
        e.schedule(() -> { }, 1, HOURS);
        e.schedule(() -> { }, 2, HOURS);
        assertEquals(identity(e) + "[Running, pool size = 2, active threads = 1, queued tasks = 2, "
                + "completed tasks = 3]",
                e.toString());
        release.open();
    }

    @BothImpls
    void toString_saysShuttingDown_thenTerminated(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        e.shutdown();
        assertEquals(identity(e) + "[Shutting down, pool size = 1, active threads = 1, queued tasks = 0, "
                + "completed tasks = 0]", e.toString());
        release.open();
        awaitTerminated(e);
        assertEquals(identity(e) + "[Terminated, pool size = 0, active threads = 0, queued tasks = 0, "
                + "completed tasks = 1]", e.toString());
    }

    @BothImpls
    void toString_afterShutdownNow_saysShuttingDownUntilTerminated(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate started = new Gate();
        Gate release = gate();
        e.execute(() -> {
            started.open();
            release.awaitUninterruptibly();
        });
        started.await();
        e.schedule(() -> { }, 1, HOURS);
        assertEquals(1, e.shutdownNow().size());
        assertTrue(e.toString().startsWith(identity(e) + "[Shutting down, pool size = 1, active threads = 1, "
                + "queued tasks = 0, completed tasks = 0]"), e.toString());
        release.open();
        awaitTerminated(e);
        assertTrue(e.toString().startsWith(identity(e) + "[Terminated"), e.toString());
    }

    @BothImpls
    void rejectedTasks_neverAppearInTheQueue(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1, new ThreadPoolExecutor.DiscardPolicy());
        ScheduledFuture<?> kept = e.schedule(() -> { }, 1, HOURS);
        e.shutdown();
        Future<?> rejected = e.submit(() -> { });
        assertFalse(e.getQueue().contains(rejected));
        assertSameElements(List.of(kept), new ArrayList<>(e.getQueue()));
    }

    @BothImpls
    void queuePoll_withTheLongestTimeout_waitsForTheNextDueTask(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        ScheduledFuture<?> soon = e.schedule(() -> { }, 20, MILLISECONDS);
        // Long.MAX_VALUE ns and a unit that saturates: the timeout must count down, not overflow a clock sum
        assertSame(soon, e.getQueue().poll(Long.MAX_VALUE, java.util.concurrent.TimeUnit.NANOSECONDS));
        ScheduledFuture<?> next = e.schedule(() -> { }, 20, MILLISECONDS);
        assertSame(next, e.getQueue().poll(Long.MAX_VALUE, java.util.concurrent.TimeUnit.DAYS));
        release.open();
    }
}
