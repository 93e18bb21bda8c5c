package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
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
import java.util.concurrent.CancellationException;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The protected hooks: beforeExecute, afterExecute and terminated are called when STPE calls them; both
 * decorateTask overloads are called on every path, and the task they return (even of a foreign class) is
 * what is returned, queued, run, handed to the hooks, drained and rejected.
 */
class HooksTest extends TckTest {

    /** One call of a hook, as seen from inside it. */
    private static final class Seen {
        final String hook;
        final Runnable task;
        final Thread thread;
        final Throwable thrown;

        Seen(String hook, Runnable task, Throwable thrown) {
            this.hook = hook;
            this.task = task;
            this.thread = Thread.currentThread();
            this.thrown = thrown;
        }
    }

    /** Records beforeExecute and afterExecute. */
    private static class Recorder implements Hooks {
        final List<Seen> seen = new CopyOnWriteArrayList<>();

        @Override
        public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
            assertSame(Thread.currentThread(), t);
            seen.add(new Seen("before", r, null));
        }

        @Override
        public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
            seen.add(new Seen("after", r, t));
        }

        List<Seen> of(Object task) {
            List<Seen> mine = new ArrayList<>();
            for (Seen s : seen) {
                if (s.task == task) {
                    mine.add(s);
                }
            }
            return mine;
        }
    }

    /** Records every decorateTask call and optionally wraps the task in a ForeignTask. */
    private static final class Decorator implements Hooks {
        final List<Object> sources = new CopyOnWriteArrayList<>();
        final List<RunnableScheduledFuture<?>> originals = new CopyOnWriteArrayList<>();
        final List<RunnableScheduledFuture<?>> returned = new CopyOnWriteArrayList<>();
        final AtomicInteger runnableCalls = new AtomicInteger();
        final AtomicInteger callableCalls = new AtomicInteger();
        final boolean wrap;

        Decorator(boolean wrap) {
            this.wrap = wrap;
        }

        private <V> RunnableScheduledFuture<V> record(Object source, RunnableScheduledFuture<V> task) {
            sources.add(source);
            originals.add(task);
            RunnableScheduledFuture<V> result = wrap ? new ForeignTask<>(task) : task;
            returned.add(result);
            return result;
        }

        @Override
        public <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
            runnableCalls.incrementAndGet();
            return record(runnable, task);
        }

        @Override
        public <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) {
            callableCalls.incrementAndGet();
            return record(callable, task);
        }
    }

    @BothImpls
    void beforeExecute_getsTheWorkerThreadAndTheQueuedTask(Impl impl) throws Exception {
        Recorder hooks = new Recorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        ScheduledFuture<?> f = e.schedule(() -> ranOn.set(Thread.currentThread()), 1, MILLISECONDS);
        get(f);
        awaitUntil("after hook", () -> hooks.of(f).size() == 2);
        Seen before = hooks.of(f).get(0);
        assertEquals("before", before.hook);
        assertSame(ranOn.get(), before.thread);
    }

    @BothImpls
    void afterExecute_getsTheTaskAndNull_withTheTaskAlreadyDone(Impl impl) throws Exception {
        AtomicBoolean doneInAfter = new AtomicBoolean();
        Recorder hooks = new Recorder() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                doneInAfter.set(((Future<?>) r).isDone());
                super.afterExecute(self, r, t);
            }
        };
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Future<String> f = e.submit(() -> "value");
        get(f);
        awaitUntil("after hook", () -> hooks.of(f).size() == 2);
        Seen after = hooks.of(f).get(1);
        assertEquals("after", after.hook);
        assertNull(after.thrown);
        assertSame(hooks.of(f).get(0).thread, after.thread);
        assertTrue(doneInAfter.get());
    }

    @BothImpls
    void afterExecute_throwableIsNullEvenWhenTheTaskThrows_theFutureHoldsIt(Impl impl) throws Exception {
        // The exception is captured by the task's future (FutureTask.run), so it never reaches runWorker:
        // afterExecute gets null, and the javadoc's idiom of calling get() on the Future finds the cause.
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicReference<Throwable> fromFuture = new AtomicReference<>();
        Recorder hooks = new Recorder() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                try {
                    ((Future<?>) r).get();
                } catch (ExecutionException x) {
                    fromFuture.set(x.getCause());
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
                super.afterExecute(self, r, t);
            }
        };
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Future<?> f = e.submit(() -> {
            throw boom;
        });
        assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        awaitUntil("after hook", () -> hooks.of(f).size() == 2);
        assertNull(hooks.of(f).get(1).thrown);
        assertSame(boom, fromFuture.get());
    }

    @BothImpls
    void beforeAndAfter_bracketEveryRunOfAPeriodicTask(Impl impl) throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicReference<Object> periodic = new AtomicReference<>();
        Hooks hooks = new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                if (r == periodic.get()) {
                    events.add("before");
                }
            }

            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                if (r == periodic.get()) {
                    events.add("after:" + t);
                }
            }
        };
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Gate release = blockWorker(e); // so that no run starts before periodic is set
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            events.add("run");
            if (runs.incrementAndGet() == 3) {
                throw new IllegalStateException("stop");
            }
        }, 0, 1, MILLISECONDS);
        periodic.set(f);
        release.open();
        assertThrows(ExecutionException.class, () -> f.get(WAIT_SECONDS, SECONDS));
        awaitUntil("last after hook", () -> events.size() == 9);
        assertEquals(List.of("before", "run", "after:null", "before", "run", "after:null", "before", "run",
                "after:null"), events);
    }

    @BothImpls
    void beforeExecuteThrowing_theTaskNeverRuns_theWorkerIsReplaced(Impl impl) throws Exception {
        // runWorker (JDK 25 ThreadPoolExecutor.java:1088): an exception from beforeExecute skips task.run() and kills
        // the worker
        // (processWorkerExit adds a replacement); the task was already taken from the queue and is lost:
        // its future never completes.
        IllegalStateException boom = new IllegalStateException("before fails");
        AtomicBoolean failNext = new AtomicBoolean();
        Hooks hooks = new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                if (failNext.getAndSet(false)) {
                    throw boom;
                }
            }
        };
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        Gate release = blockWorker(e); // queue both tasks before the worker dies, so no schedule call races it
        AtomicInteger runs = new AtomicInteger();
        Future<?> lost = e.submit(counting(runs));
        Future<Thread> next = e.submit(Thread::currentThread);
        failNext.set(true);
        release.open();
        Thread replacement = get(next);
        awaitUntil("uncaught exception reported", () -> factory.uncaught.size() == 1);
        assertSame(boom, factory.uncaught.get(0));
        assertEquals(0, runs.get());
        assertFalse(lost.isDone());
        assertFalse(e.getQueue().contains(lost));
        assertEquals(2, factory.calls.get());
        assertSame(factory.threads.get(1), replacement);
    }

    @BothImpls
    void cancelInsideBeforeExecute_theBodyNeverRuns_theFutureIsCancelled_afterExecuteStillCalled(Impl impl)
            throws Exception {
        // The task was taken by the worker, then cancelled before its run: on STPE, FutureTask.run sees
        // state != NEW and returns without calling the body. A cancel that returned true must keep a body from
        // starting, whether it wins against the tick thread, the ready queue or a worker that already took it.
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicReference<Object> target = new AtomicReference<>();
        AtomicBoolean cancelled = new AtomicBoolean();
        Hooks hooks = new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                if (r == target.get()) {
                    cancelled.set(((Future<?>) r).cancel(false));
                    events.add("before");
                }
            }

            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                if (r == target.get()) {
                    events.add("after:" + t);
                }
            }
        };
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Gate release = blockWorker(e); // so that no run starts before target is set
        ScheduledFuture<?> oneShot = e.schedule(() -> events.add("run"), 1, MILLISECONDS);
        target.set(oneShot);
        Future<?> marker = e.submit(() -> { }); // runs after the target on the one worker
        release.open();
        get(marker);
        awaitUntil("after hook of the one-shot", () -> events.size() == 2);
        assertEquals(List.of("before", "after:null"), events);
        assertTrue(cancelled.get());
        assertTrue(oneShot.isCancelled());
        assertThrows(CancellationException.class, oneShot::get);

        events.clear();
        cancelled.set(false);
        Gate releaseAgain = blockWorker(e); // so that no run starts before target is set
        ScheduledFuture<?> periodic = e.scheduleAtFixedRate(() -> events.add("run"), 0, 1, MILLISECONDS);
        target.set(periodic);
        releaseAgain.open();
        awaitUntil("after hook of the periodic task's first run", () -> events.size() >= 2);
        get(e.submit(() -> { })); // a later run could only have been queued before this marker
        assertEquals(List.of("before", "after:null"), events);
        assertTrue(cancelled.get());
        assertTrue(periodic.isCancelled());
    }

    @BothImpls
    void afterExecuteThrowing_theTaskIsComplete_theWorkerIsReplaced(Impl impl) throws Exception {
        IllegalStateException boom = new IllegalStateException("after fails");
        AtomicBoolean failNext = new AtomicBoolean(true);
        Hooks hooks = new Hooks() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                if (failNext.getAndSet(false)) {
                    throw boom;
                }
            }
        };
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, factory, hooks);
        Future<Thread> first = e.submit(Thread::currentThread);
        Thread firstThread = get(first);
        awaitUntil("uncaught exception reported", () -> factory.uncaught.size() == 1);
        assertSame(boom, factory.uncaught.get(0));
        Thread secondThread = get(e.submit(Thread::currentThread));
        assertNotSame(firstThread, secondThread);
        assertEquals(2, factory.calls.get());
    }

    @BothImpls
    void terminated_isCalledExactlyOnce_inTheTerminatingState_beforeAwaitTerminationReturns(Impl impl)
            throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<Boolean> state = new CopyOnWriteArrayList<>();
        AtomicBoolean finished = new AtomicBoolean();
        Hooks hooks = new Hooks() {
            @Override
            public void terminated(ScheduledThreadPoolExecutor self) {
                calls.incrementAndGet();
                state.add(self.isShutdown());
                state.add(self.isTerminating());
                state.add(self.isTerminated());
                finished.set(true);
            }
        };
        ScheduledThreadPoolExecutor e = subclass(impl, 2, hooks);
        Gate release = blockWorker(e);
        e.schedule(() -> { }, 1, MILLISECONDS);
        e.shutdown();
        e.shutdown();
        assertEquals(0, calls.get());
        release.open();
        awaitTerminated(e);
        assertTrue(finished.get());
        e.shutdownNow();
        e.shutdown();
        assertEquals(1, calls.get());
        assertEquals(List.of(true, true, false), state);
    }

    @BothImpls
    void terminated_ofAnUnusedExecutor_runsInTheThreadCallingShutdown(Impl impl) {
        AtomicReference<Thread> thread = new AtomicReference<>();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public void terminated(ScheduledThreadPoolExecutor self) {
                thread.set(Thread.currentThread());
            }
        });
        e.shutdown();
        assertSame(Thread.currentThread(), thread.get());
        assertTrue(e.isTerminated());
    }

    @BothImpls
    void terminatedThrowing_reachesTheShutdownCaller_yetTheExecutorIsTerminated(Impl impl) throws Exception {
        // ThreadPoolExecutor.tryTerminate (JDK 25 lines 701-703) calls terminated() in a try whose finally sets
        // TERMINATED.
        IllegalStateException boom = new IllegalStateException("terminated fails");
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public void terminated(ScheduledThreadPoolExecutor self) {
                throw boom;
            }
        });
        assertSame(boom, assertThrows(IllegalStateException.class, e::shutdown));
        assertTrue(e.isTerminated());
        assertTrue(e.awaitTermination(0, SECONDS));
    }

    @BothImpls
    void decorateTaskRunnable_getsTheCallersRunnable_fromSchedulePeriodicExecuteAndSubmit(Impl impl)
            throws Exception {
        Decorator hooks = new Decorator(false);
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Gate release = blockWorker(e);
        int base = hooks.sources.size(); // the blocker went through decorateTask too
        Runnable r1 = () -> { };
        Runnable r2 = () -> { };
        Runnable r3 = () -> { };
        Runnable r4 = () -> { };
        Runnable r5 = () -> { };
        Object f1 = e.schedule(r1, 1, HOURS);
        Object f2 = e.scheduleAtFixedRate(r2, 1, 1, HOURS);
        Object f3 = e.scheduleWithFixedDelay(r3, 1, 1, HOURS);
        e.execute(r4);
        Object f5 = e.submit(r5);
        assertEquals(base + 5, hooks.runnableCalls.get());
        assertEquals(0, hooks.callableCalls.get());
        assertEquals(List.of(r1, r2, r3, r4, r5), hooks.sources.subList(base, base + 5));
        List<RunnableScheduledFuture<?>> tasks = hooks.originals.subList(base, base + 5);
        assertSame(f1, tasks.get(0));
        assertSame(f2, tasks.get(1));
        assertSame(f3, tasks.get(2));
        assertSame(f5, tasks.get(4));
        assertEquals(List.of(false, true, true, false, false),
                List.of(tasks.get(0).isPeriodic(), tasks.get(1).isPeriodic(), tasks.get(2).isPeriodic(),
                        tasks.get(3).isPeriodic(), tasks.get(4).isPeriodic()));
        for (RunnableScheduledFuture<?> t : tasks) {
            assertFalse(t.isDone());
        }
        release.open();
    }

    @BothImpls
    void decorateTaskCallable_getsTheCallersCallable_fromScheduleAndSubmit(Impl impl) {
        Decorator hooks = new Decorator(false);
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Callable<String> c1 = () -> "1";
        Callable<String> c2 = () -> "2";
        Object f1 = e.schedule(c1, 1, HOURS);
        Object f2 = e.submit(c2);
        assertEquals(2, hooks.callableCalls.get());
        assertEquals(0, hooks.runnableCalls.get());
        assertEquals(List.of(c1, c2), hooks.sources);
        assertSame(f1, hooks.originals.get(0));
        assertSame(f2, hooks.originals.get(1));
    }

    @SuppressWarnings("unchecked")
    @BothImpls
    void submitRunnableWithResult_goesToTheCallableOverload_withAnAdapterOfTheRunnable(Impl impl) throws Exception {
        // STPE.submit(Runnable, T) schedules Executors.callable(task, result) (JDK 25
        // ScheduledThreadPoolExecutor.java:710).
        Decorator hooks = new Decorator(false);
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Gate release = blockWorker(e);
        int runnableBase = hooks.runnableCalls.get();
        AtomicInteger runs = new AtomicInteger();
        Runnable r = counting(runs);
        Future<String> f = e.submit(r, "result");
        assertEquals(runnableBase, hooks.runnableCalls.get());
        assertEquals(1, hooks.callableCalls.get());
        Object source = hooks.sources.get(hooks.sources.size() - 1);
        assertNotSame(r, source);
        Callable<String> adapter = assertInstanceOf(Callable.class, source);
        assertEquals("result", adapter.call());
        assertEquals(1, runs.get());
        release.open();
        assertEquals("result", get(f));
    }

    @BothImpls
    void decorateTask_isNotCalledForRejectedArguments(Impl impl) {
        Decorator hooks = new Decorator(false);
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        assertThrows(NullPointerException.class, () -> e.schedule((Runnable) null, 1, SECONDS));
        assertThrows(NullPointerException.class, () -> e.execute(null));
        assertThrows(IllegalArgumentException.class, () -> e.scheduleAtFixedRate(() -> { }, 1, 0, SECONDS));
        assertEquals(0, hooks.sources.size());
    }

    @BothImpls
    void decoratedForeignTask_isReturnedQueuedRunAndSeenByTheHooks(Impl impl) throws Exception {
        Decorator decorator = new Decorator(true);
        Recorder recorder = new Recorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                recorder.beforeExecute(self, t, r);
            }

            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                recorder.afterExecute(self, r, t);
            }

            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Callable<V> c, RunnableScheduledFuture<V> task) {
                return decorator.decorateTask(c, task);
            }

            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                return decorator.decorateTask(r, task);
            }
        });
        Gate release = blockWorker(e);
        ScheduledFuture<String> f = e.schedule(() -> "value", 0, SECONDS);
        ForeignTask<?> wrapper = assertInstanceOf(ForeignTask.class, f);
        assertSame(decorator.returned.get(decorator.returned.size() - 1), wrapper);
        assertTrue(e.getQueue().contains(wrapper));
        assertFalse(e.getQueue().contains(wrapper.inner));
        release.open();
        assertEquals("value", get(f));
        assertEquals(1, wrapper.runs.get());
        awaitUntil("after hook", () -> recorder.of(wrapper).size() == 2);
        assertEquals("before", recorder.of(wrapper).get(0).hook);
        assertEquals("after", recorder.of(wrapper).get(1).hook);
        assertTrue(recorder.of(wrapper.inner).isEmpty());
    }

    @BothImpls
    void decoratedForeignPeriodicTask_isRequeuedAndRerunAsTheWrapper(Impl impl) throws Exception {
        // STPE sets the periodic task's outerTask to what decorateTask returned and re-queues that.
        Decorator decorator = new Decorator(true);
        List<Runnable> before = new CopyOnWriteArrayList<>();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                before.add(r);
            }

            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                return decorator.decorateTask(r, task);
            }
        });
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(counting(runs), 0, 1, MILLISECONDS);
        ForeignTask<?> wrapper = assertInstanceOf(ForeignTask.class, f);
        awaitUntil("three runs", () -> runs.get() >= 3);
        assertTrue(f.cancel(false));
        assertTrue(wrapper.runs.get() >= 3);
        assertTrue(before.size() >= 3);
        for (Runnable r : before) {
            assertSame(wrapper, r);
        }
    }

    @BothImpls
    void decoratedForeignTask_cancelledThroughTheWrapper_neverRuns_andPurgeDropsIt(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Decorator(true));
        Gate release = blockWorker(e);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> f = e.schedule(counting(runs), 0, SECONDS);
        ScheduledFuture<?> later = e.schedule(counting(runs), 1, HOURS);
        assertTrue(f.cancel(false));
        assertTrue(later.cancel(true));
        assertTrue(f.isCancelled());
        e.purge();
        assertFalse(e.getQueue().contains(f));
        assertFalse(e.getQueue().contains(later));
        release.open();
        flush(e, 1, MILLISECONDS);
        assertEquals(0, runs.get());
    }

    @BothImpls
    void decoratedForeignTask_isWhatShutdownNowReturns(Impl impl) {
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Decorator(true));
        ScheduledFuture<?> f1 = e.schedule(() -> { }, 1, HOURS);
        ScheduledFuture<?> f2 = e.scheduleWithFixedDelay(() -> { }, 1, 1, HOURS);
        assertInstanceOf(ForeignTask.class, f1);
        assertSameElements(List.of(f1, f2), e.shutdownNow());
    }

    @BothImpls
    void decoratedTask_isWhatTheRejectionHandlerGets(Impl impl) {
        Decorator decorator = new Decorator(true);
        RecordingHandler handler = RecordingHandler.discarding();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, handler, decorator);
        e.shutdown();
        Runnable command = () -> { };
        e.execute(command);
        assertEquals(1, decorator.runnableCalls.get());
        assertSame(command, decorator.sources.get(0));
        assertSame(decorator.returned.get(0), handler.calls.get(0).task);
        assertInstanceOf(ForeignTask.class, handler.calls.get(0).task);
    }

    @BothImpls
    void decoratedTask_itsOwnGetDelayDecidesWhenItIsDue(Impl impl) throws Exception {
        // The queue orders and releases tasks by the decorated task's getDelay / compareTo; STPE never
        // consults the delay it was given once decorateTask has returned.
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Callable<V> c, RunnableScheduledFuture<V> task) {
                return new ForeignTask<V>(task) {
                    @Override
                    public long getDelay(TimeUnit unit) {
                        return 0; // always due, whatever the schedule call said
                    }
                };
            }
        });
        ScheduledFuture<String> f = e.schedule(() -> "ran", 1, HOURS);
        assertEquals(0, f.getDelay(NANOSECONDS));
        assertEquals("ran", get(f));
    }

    @BothImpls
    void decorateTaskReturningNull_scheduleThrowsNPE_andNothingIsQueued(Impl impl) {
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                return null;
            }
        });
        assertThrows(NullPointerException.class, () -> e.schedule(() -> { }, 1, SECONDS));
        assertThrows(NullPointerException.class, () -> e.scheduleAtFixedRate(() -> { }, 1, 1, SECONDS));
        assertTrue(e.getQueue().isEmpty());
        assertEquals(0, e.getPoolSize());
    }

    @BothImpls
    void removeOnCancelTrue_aCancelledTaskNeverReachesTheHooks(Impl impl) throws Exception {
        Recorder hooks = new Recorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        e.setRemoveOnCancelPolicy(true);
        Gate release = blockWorker(e);
        ScheduledFuture<?> f = e.schedule(() -> { }, 0, SECONDS);
        assertTrue(f.cancel(false));
        release.open();
        flush(e, 1, MILLISECONDS);
        assertTrue(hooks.of(f).isEmpty());
    }
}
