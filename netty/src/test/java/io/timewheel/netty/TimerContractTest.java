package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.ImmediateExecutor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HashedWheelTimer's contract as its users rely on it (the cases of Netty's HashedWheelTimerTest, and more),
 * each test run on HashedWheelTimer and on WheelTimer with the same expected outcome. Where HashedWheelTimer
 * does something a tick later (a cancel releases its slot, a count drops), the test waits for it, bounded.
 */
class TimerContractTest extends TimerTest {

    private static final TimerTask NOOP = timeout -> { };

    /** Runs {@code task} through a latch: the latch opens once the task has run. */
    private static TimerTask counting(CountDownLatch latch) {
        return timeout -> latch.countDown();
    }

    /**
     * Schedules a marker due after {@code delayMillis} and waits for it: both timers run their tasks in deadline
     * order (for HashedWheelTimer, deadlines a tick or more apart), so every task due well before it has run.
     */
    private static void awaitMarker(Timer timer, long delayMillis) throws InterruptedException {
        CountDownLatch marker = new CountDownLatch(1);
        timer.newTimeout(counting(marker), delayMillis, MILLISECONDS);
        awaitLatch(marker);
    }

    // ---------------------------------------------------------------------------------------------
    // newTimeout's arguments and the timeout's accessors

    @BothTimers
    void newTimeout_nullTask_throwsNpeNamingIt(TimerKind kind) {
        Timer timer = timer(kind);
        NullPointerException e = assertThrows(NullPointerException.class, () -> timer.newTimeout(null, 1, SECONDS));
        assertEquals("task", e.getMessage());
    }

    @BothTimers
    void newTimeout_nullUnit_throwsNpeNamingIt(TimerKind kind) {
        Timer timer = timer(kind);
        NullPointerException e = assertThrows(NullPointerException.class, () -> timer.newTimeout(NOOP, 1, null));
        assertEquals("unit", e.getMessage());
    }

    @BothTimers
    void timeout_returnsItsTaskAndItsTimer(TimerKind kind) {
        Timer timer = timer(kind);
        Timeout timeout = timer.newTimeout(NOOP, 1, HOURS);
        assertSame(NOOP, timeout.task());
        assertSame(timer, timeout.timer());
        assertFalse(timeout.isExpired());
        assertFalse(timeout.isCancelled());
    }

    @BothTimers
    void nullThreadFactoryOrTaskExecutor_throwsNpeNamingIt(TimerKind kind) {
        NullPointerException e = assertThrows(NullPointerException.class, () -> kind.create(null, -1, ImmediateExecutor.INSTANCE));
        assertEquals("threadFactory", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> kind.create(new TestThreads("unused"), -1, null));
        assertEquals("taskExecutor", e.getMessage());
    }

    // ---------------------------------------------------------------------------------------------
    // Running

    @BothTimers
    void timeout_runsAfterItsDelay_thenIsExpired(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch ran = new CountDownLatch(1);
        Timeout timeout = timer.newTimeout(counting(ran), 20, MILLISECONDS);
        awaitLatch(ran);
        assertTrue(timeout.isExpired());
        assertFalse(timeout.isCancelled());
        assertFalse(timeout.cancel(), "an expired timeout cannot be cancelled");
        assertFalse(timeout.isCancelled());
    }

    @BothTimers
    void timeout_isExpiredWhileItsTaskRuns_andCannotBeCancelledThen(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch ran = new CountDownLatch(1);
        List<Boolean> seen = new CopyOnWriteArrayList<>();
        timer.newTimeout(timeout -> {
            seen.add(timeout.isExpired());
            seen.add(timeout.isCancelled());
            seen.add(timeout.cancel());
            ran.countDown();
        }, 1, MILLISECONDS);
        awaitLatch(ran);
        assertEquals(List.of(true, false, false), seen);
    }

    @BothTimers
    void negativeDelay_runsAsSoonAsPossible(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(counting(ran), -5, SECONDS);
        awaitLatch(ran);
    }

    @BothTimers
    void taskSchedulingItselfAgain_keepsRunning(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch threeRuns = new CountDownLatch(3);
        timer.newTimeout(new TimerTask() {
            @Override
            public void run(Timeout timeout) {
                timeout.timer().newTimeout(this, 10, MILLISECONDS);
                threeRuns.countDown();
            }
        }, 10, MILLISECONDS);
        awaitLatch(threeRuns);
        assertFalse(timer.stop().isEmpty(), "the task's last timeout is still pending");
    }

    @BothTimers
    void tasksRunOnAThreadFromTheTimersFactory(TimerKind kind) throws InterruptedException {
        TestThreads threads = new TestThreads("named-by-factory");
        Timer timer = timer(kind, threads);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(timeout -> {
            ranOn.set(Thread.currentThread());
            ran.countDown();
        }, 1, MILLISECONDS);
        awaitLatch(ran);
        assertTrue(threads.made(ranOn.get()), "ran on " + ranOn.get());
        assertTrue(ranOn.get().getName().startsWith("named-by-factory-"));
    }

    // ---------------------------------------------------------------------------------------------
    // Cancel

    @BothTimers
    void cancel_returnsTrueOnce_thenFalse(TimerKind kind) {
        Timer timer = timer(kind);
        Timeout timeout = timer.newTimeout(NOOP, 1, HOURS);
        assertTrue(timeout.cancel());
        assertTrue(timeout.isCancelled());
        assertFalse(timeout.isExpired());
        assertFalse(timeout.cancel());
        assertTrue(timeout.isCancelled());
    }

    @BothTimers
    void cancelBeforeDeadline_neverRuns(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        AtomicBoolean ran = new AtomicBoolean();
        Timeout timeout = timer.newTimeout(t -> ran.set(true), 20, MILLISECONDS);
        assertTrue(timeout.cancel());
        awaitMarker(timer, 80);
        assertFalse(ran.get());
        assertFalse(timeout.isExpired());
    }

    @BothTimers
    void cancelAfterItIsDueButBeforeItRuns_neverRuns(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch blocking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        timer.newTimeout(t -> {
            blocking.countDown();
            release.await(); // holds the timer's thread while the others come due
        }, 20, MILLISECONDS);
        AtomicInteger ran = new AtomicInteger();
        List<Timeout> due = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            due.add(timer.newTimeout(t -> ran.incrementAndGet(), 20, MILLISECONDS));
        }
        awaitLatch(blocking);
        for (Timeout t : due) {
            assertTrue(t.cancel());
        }
        release.countDown();
        awaitMarker(timer, 30);
        assertEquals(0, ran.get());
        if (kind == TimerKind.WHEEL) { // HashedWheelTimer before 4.1.120 never counts these ten out of pendingTimeouts()
            assertEquals(0, kind.pendingTimeouts(timer));
        }
    }

    @BothTimers
    void cancel_releasesTheTask(TimerKind kind) {
        Timer timer = timer(kind);
        java.lang.ref.WeakReference<TimerTask> task = scheduleAndCancel(timer);
        await().until(() -> {
            System.gc();
            return task.get() == null;
        });
    }

    /** In a method of its own so that no local of the test's frame keeps the task. */
    private static java.lang.ref.WeakReference<TimerTask> scheduleAndCancel(Timer timer) {
        TimerTask task = new TimerTask() { // a new object (a lambda that captures nothing is one shared instance)
            @Override
            public void run(Timeout timeout) {
            }
        };
        Timeout timeout = timer.newTimeout(task, 1, HOURS);
        assertTrue(timeout.cancel());
        return new java.lang.ref.WeakReference<>(task);
    }

    /** Netty 4.2's TimerTask.cancelled(Timeout); skipped on 4.1, which has no such callback. */
    @BothTimers
    void cancel_callsTheTasksCancelledCallbackOnce_onTheTimersThread(TimerKind kind) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(hasCancelledCallback(), "Netty 4.1 has no TimerTask.cancelled");
        TestThreads threads = new TestThreads("callbacks");
        Timer timer = timer(kind, threads);
        List<String> calls = new CopyOnWriteArrayList<>();
        CountDownLatch called = new CountDownLatch(1);
        List<Thread> callbackThreads = new CopyOnWriteArrayList<>();
        TimerTask cancelled = new CallbackTask("cancelled", calls, callbackThreads, called);
        TimerTask expired = new CallbackTask("expired", calls, callbackThreads, null);
        Timeout toCancel = timer.newTimeout(cancelled, 1, HOURS);
        timer.newTimeout(expired, 1, MILLISECONDS);
        assertTrue(toCancel.cancel());
        assertFalse(toCancel.cancel());
        awaitLatch(called);
        awaitMarker(timer, 30);
        assertEquals(2, calls.size(), calls.toString());
        assertEquals(Set.of("run expired", "cancelled cancelled"), new HashSet<>(calls));
        assertEquals(1, callbackThreads.size());
        assertTrue(threads.made(callbackThreads.get(0)), "called on " + callbackThreads.get(0));
    }

    static boolean hasCancelledCallback() {
        try {
            TimerTask.class.getMethod("cancelled", Timeout.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** A task with Netty 4.2's cancellation callback (a plain method on 4.1, where nothing calls it). */
    private static final class CallbackTask implements TimerTask {
        private final String name;
        private final List<String> calls;
        private final List<Thread> threads;
        private final CountDownLatch called;

        CallbackTask(String name, List<String> calls, List<Thread> threads, CountDownLatch called) {
            this.name = name;
            this.calls = calls;
            this.threads = threads;
            this.called = called;
        }

        @Override
        public void run(Timeout timeout) {
            calls.add("run " + name);
        }

        public void cancelled(Timeout timeout) {
            threads.add(Thread.currentThread());
            calls.add("cancelled " + name);
            if (called != null) {
                called.countDown();
            }
        }
    }

    @BothTimers
    void hugeDelay_neverOverflows_andCanBeCancelled(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        AtomicBoolean ran = new AtomicBoolean();
        Timeout timeout = timer.newTimeout(t -> ran.set(true), Long.MAX_VALUE, MILLISECONDS);
        awaitMarker(timer, 30);
        assertFalse(ran.get());
        assertTrue(timeout.cancel());
    }

    // ---------------------------------------------------------------------------------------------
    // Order and serial execution

    @BothTimers
    void sameDelay_runsInSubmissionOrder(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        int n = 200;
        List<Integer> order = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            int id = i;
            timer.newTimeout(t -> {
                order.add(id);
                all.countDown();
            }, 30, MILLISECONDS);
        }
        awaitLatch(all);
        for (int i = 0; i < n; i++) {
            assertEquals(i, order.get(i));
        }
    }

    @BothTimers
    void delaysTicksApart_runInDeadlineOrder(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        List<Integer> order = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(5);
        for (int delay = 120; delay >= 40; delay -= 20) {
            int d = delay;
            timer.newTimeout(t -> {
                order.add(d);
                all.countDown();
            }, delay, MILLISECONDS);
        }
        awaitLatch(all);
        assertEquals(List.of(40, 60, 80, 100, 120), order);
    }

    @BothTimers
    void tasksOfOneTimer_neverRunAtTheSameTime(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        int n = 300;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(n);
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            timer.newTimeout(t -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                long until = System.nanoTime() + 20_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                running.decrementAndGet();
                all.countDown();
            }, random.nextInt(30), MILLISECONDS);
        }
        awaitLatch(all);
        assertEquals(1, most.get());
    }

    // ---------------------------------------------------------------------------------------------
    // Exceptions and the task executor

    @BothTimers
    void taskThatThrows_isLoggedAsNettyLogsIt_andTheTimerGoesOn(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        RuntimeException boom = new RuntimeException("boom from a TimerTask");
        timer.newTimeout(t -> {
            throw boom;
        }, 1, MILLISECONDS);
        awaitMarker(timer, 30);
        await().until(() -> !CapturedLogs.about(boom).isEmpty());
        List<CapturedLogs.Entry> logged = CapturedLogs.about(boom);
        assertEquals(1, logged.size(), logged.toString());
        CapturedLogs.Entry e = logged.get(0);
        assertEquals("warn", e.level);
        assertEquals("An exception was thrown by TimerTask.", e.message);
        assertEquals(timer.getClass().getName(), e.logger);
    }

    @BothTimers
    void taskExecutor_runsEveryExpiredTask(TimerKind kind) throws InterruptedException {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            AtomicInteger handed = new AtomicInteger();
            Executor taskExecutor = command -> {
                handed.incrementAndGet();
                pool.execute(command);
            };
            Timer timer = timer(kind, new TestThreads("with-task-executor"), -1, taskExecutor);
            CountDownLatch ran = new CountDownLatch(2);
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            Thread poolThread = pool.submit(Thread::currentThread).get();
            for (int i = 0; i < 2; i++) {
                timer.newTimeout(t -> {
                    ranOn.set(Thread.currentThread());
                    ran.countDown();
                }, 10, MILLISECONDS);
            }
            awaitLatch(ran);
            assertEquals(2, handed.get());
            assertSame(poolThread, ranOn.get());
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
    }

    @BothTimers
    void taskExecutorThatRejects_isLogged_andTheTimerGoesOn(TimerKind kind) throws InterruptedException {
        RejectedExecutionException refusal = new RejectedExecutionException("no room for a TimerTask");
        AtomicBoolean refusedOnce = new AtomicBoolean();
        Executor taskExecutor = command -> {
            if (refusedOnce.compareAndSet(false, true)) {
                throw refusal;
            }
            command.run();
        };
        Timer timer = timer(kind, new TestThreads("rejecting"), -1, taskExecutor);
        AtomicBoolean refusedTaskRan = new AtomicBoolean();
        timer.newTimeout(t -> refusedTaskRan.set(true), 1, MILLISECONDS);
        awaitMarker(timer, 30);
        assertFalse(refusedTaskRan.get());
        List<CapturedLogs.Entry> logged = CapturedLogs.about(refusal);
        assertEquals(1, logged.size(), logged.toString());
        assertEquals("warn", logged.get(0).level);
        assertEquals("An exception was thrown while submit TimerTask for execution.", logged.get(0).message);
    }

    // ---------------------------------------------------------------------------------------------
    // The pending-timeout limit and count

    @BothTimers
    void maxPending_rejectsTheTimeoutBeyondTheLimit_withNettysMessage(TimerKind kind) {
        Timer timer = timer(kind, new TestThreads("limited"), 2, ImmediateExecutor.INSTANCE);
        timer.newTimeout(NOOP, 1, HOURS);
        timer.newTimeout(NOOP, 1, HOURS);
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                () -> timer.newTimeout(NOOP, 1, MILLISECONDS));
        assertEquals("Number of pending timeouts (3) is greater than or equal to maximum allowed pending timeouts (2)",
                e.getMessage());
        assertEquals(2, kind.pendingTimeouts(timer));
    }

    @BothTimers
    void maxPending_acceptsAgainOnceATimeoutIsCancelled(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind, new TestThreads("limited"), 2, ImmediateExecutor.INSTANCE);
        timer.newTimeout(NOOP, 1, HOURS);
        Timeout toCancel = timer.newTimeout(NOOP, 1, HOURS);
        assertTrue(toCancel.cancel());
        CountDownLatch ran = new CountDownLatch(1);
        await().ignoreExceptionsInstanceOf(RejectedExecutionException.class) // HashedWheelTimer: at its next tick
                .until(() -> timer.newTimeout(counting(ran), 10, MILLISECONDS) != null);
        awaitLatch(ran);
    }

    @BothTimers
    void maxPending_acceptsAgainOnceATimeoutHasRun(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind, new TestThreads("limited"), 2, ImmediateExecutor.INSTANCE);
        CountDownLatch first = new CountDownLatch(1);
        timer.newTimeout(NOOP, 1, HOURS);
        timer.newTimeout(counting(first), 10, MILLISECONDS);
        awaitLatch(first);
        CountDownLatch second = new CountDownLatch(1);
        await().ignoreExceptionsInstanceOf(RejectedExecutionException.class)
                .until(() -> timer.newTimeout(counting(second), 10, MILLISECONDS) != null);
        awaitLatch(second);
    }

    @BothTimers
    void pendingTimeouts_countsTimeoutsNeitherExpiredNorCancelled(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch ran = new CountDownLatch(1);
        Timeout t1 = timer.newTimeout(NOOP, 100, java.util.concurrent.TimeUnit.MINUTES);
        Timeout t2 = timer.newTimeout(NOOP, 100, java.util.concurrent.TimeUnit.MINUTES);
        timer.newTimeout(counting(ran), 20, MILLISECONDS);
        assertEquals(3, kind.pendingTimeouts(timer));
        t1.cancel();
        t2.cancel();
        awaitLatch(ran);
        await().until(() -> kind.pendingTimeouts(timer) == 0);
    }

    // ---------------------------------------------------------------------------------------------
    // start and stop

    @BothTimers
    void start_isRepeatable_whileRunning(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        kind.start(timer);
        kind.start(timer);
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(counting(ran), 1, MILLISECONDS);
        awaitLatch(ran);
    }

    @BothTimers
    void startAfterStop_throwsIllegalState(TimerKind kind) {
        Timer timer = timer(kind);
        timer.newTimeout(NOOP, 1, MILLISECONDS);
        timer.stop();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> kind.start(timer));
        assertEquals("cannot be started once stopped", e.getMessage());
    }

    @BothTimers
    void newTimeoutAfterStop_throwsIllegalState(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch ran = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            timer.newTimeout(counting(ran), 1, MILLISECONDS);
        }
        awaitLatch(ran);
        timer.stop();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> timer.newTimeout(NOOP, 1, MILLISECONDS));
        assertEquals("cannot be started once stopped", e.getMessage());
    }

    @BothTimers
    void stop_returnsThePendingTimeouts_eachCancelled(TimerKind kind) {
        Timer timer = timer(kind);
        Set<Timeout> scheduled = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            scheduled.add(timer.newTimeout(NOOP, 5, SECONDS));
        }
        Set<Timeout> returned = timer.stop();
        assertEquals(scheduled, returned);
        for (Timeout t : returned) {
            assertTrue(t.isCancelled());
            assertFalse(t.isExpired());
            assertFalse(t.cancel());
        }
    }

    @BothTimers
    void stop_leavesOutExpiredAndCancelledTimeouts(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch ran = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            timer.newTimeout(counting(ran), 1, MILLISECONDS);
        }
        Set<Timeout> pending = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            pending.add(timer.newTimeout(NOOP, 1, HOURS));
        }
        for (int i = 0; i < 2; i++) {
            assertTrue(timer.newTimeout(NOOP, 1, HOURS).cancel());
        }
        awaitLatch(ran);
        assertEquals(pending, timer.stop());
    }

    @BothTimers
    void stopWithNothingScheduled_returnsAnEmptySet(TimerKind kind) {
        assertEquals(Collections.emptySet(), timer(kind).stop());
    }

    @BothTimers
    void secondStop_returnsAnEmptySet(TimerKind kind) {
        Timer timer = timer(kind);
        timer.newTimeout(NOOP, 1, HOURS);
        assertEquals(1, timer.stop().size());
        assertEquals(Collections.emptySet(), timer.stop());
    }

    @BothTimers
    void stopFromATask_throwsIllegalState_andTheTimerGoesOn(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> {
            try {
                t.timer().stop();
            } catch (Throwable e) {
                thrown.set(e);
            }
            ran.countDown();
        }, 1, MILLISECONDS);
        awaitLatch(ran);
        assertNotNull(thrown.get());
        assertSame(IllegalStateException.class, thrown.get().getClass());
        assertEquals(timer.getClass().getSimpleName() + ".stop() cannot be called from TimerTask", thrown.get().getMessage());
        CountDownLatch after = new CountDownLatch(1);
        timer.newTimeout(counting(after), 1, MILLISECONDS);
        awaitLatch(after);
    }

    @BothTimers
    void stop_interruptsTheRunningTask_andReturnsOnceItEnded(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean ended = new AtomicBoolean();
        timer.newTimeout(t -> {
            running.countDown();
            try {
                Thread.sleep(HOURS.toMillis(1));
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            ended.set(true);
        }, 1, MILLISECONDS);
        awaitLatch(running);
        timer.stop();
        assertTrue(interrupted.get());
        assertTrue(ended.get());
    }

    @BothTimers
    void stop_waitsForATaskThatIgnoresInterrupts(TimerKind kind) throws InterruptedException {
        Timer timer = timer(kind);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger step = new AtomicInteger();
        AtomicInteger taskEndedAt = new AtomicInteger();
        timer.newTimeout(t -> {
            running.countDown();
            boolean done = false;
            while (!done) {
                try {
                    done = release.await(WAIT_SECONDS, SECONDS);
                } catch (InterruptedException ignored) {
                    // keeps waiting, as a task that ignores interrupts does
                }
            }
            taskEndedAt.set(step.incrementAndGet());
        }, 1, MILLISECONDS);
        awaitLatch(running);
        AtomicInteger stopReturnedAt = new AtomicInteger();
        Thread stopper = new Thread(() -> {
            timer.stop();
            stopReturnedAt.set(step.incrementAndGet());
        });
        stopper.start();
        await().until(() -> stopper.getState() == Thread.State.TIMED_WAITING || stopper.getState() == Thread.State.WAITING);
        assertEquals(0, stopReturnedAt.get(), "stop() returned while the task ran");
        release.countDown();
        stopper.join(SECONDS.toMillis(WAIT_SECONDS));
        assertEquals(1, taskEndedAt.get());
        assertEquals(2, stopReturnedAt.get());
    }
}
