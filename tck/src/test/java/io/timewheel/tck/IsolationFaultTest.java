package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.timewheel.executor.WheelScheduledExecutorService;
import io.timewheel.tck.FaultyThreadFactory.Fault;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * One executor's faults never delay or lose another executor's tasks. Wheel executors built with the
 * constructors share one tick thread; while faulty executors (hooks that throw, a thread factory that returns
 * null or throws, a rejection handler that throws, tasks that throw Errors or overflow the stack, decorated
 * tasks whose run() throws) are driven through the same tick thread, a healthy executor's 1000 tasks with
 * small delays each run exactly once and never early, its periodic task keeps its cadence, and the tick
 * thread is the same live thread afterwards. The same scenario runs on JDK executors for symmetry (they share
 * nothing, so there it shows only that the scenario itself is sound).
 */
class IsolationFaultTest extends TckTest {

    static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom(String message) {
            super(message + " (expected by the test)");
        }
    }

    static final class BoomError extends Error {
        private static final long serialVersionUID = 1L;

        BoomError(String message) {
            super(message + " (expected by the test)");
        }
    }

    /** A decorated task whose own run() throws after the executor's task ran. */
    private static final class ThrowingForeignTask<V> extends ForeignTask<V> {
        ThrowingForeignTask(RunnableScheduledFuture<V> inner) {
            super(inner);
        }

        @Override
        public void run() {
            super.run();
            throw new BoomError("decorated run");
        }
    }

    /** Every hook throws, every other time for decorateTask (so some tasks get in, through a throwing run()). */
    private static final class ThrowingHooks implements Hooks {
        final AtomicInteger decorations = new AtomicInteger();

        @Override
        public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
            if (ThreadLocalHolder.flip()) {
                throw new Boom("beforeExecute");
            }
        }

        @Override
        public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
            throw new BoomError("afterExecute");
        }

        @Override
        public void terminated(ScheduledThreadPoolExecutor self) {
            throw new Boom("terminated");
        }

        @Override
        public <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
            int k = decorations.incrementAndGet();
            if (k % 3 == 0) {
                throw new Boom("decorateTask");
            }
            return k % 3 == 1 ? new ThrowingForeignTask<>(task) : task;
        }

        @Override
        public <V> RunnableScheduledFuture<V> decorateTask(Callable<V> c, RunnableScheduledFuture<V> task) {
            throw new BoomError("decorateTask(Callable)");
        }
    }

    /** Alternates per thread, so beforeExecute fails every other task a worker takes. */
    private static final class ThreadLocalHolder {
        private static final ThreadLocal<int[]> COUNT = ThreadLocal.withInitial(() -> new int[1]);

        static boolean flip() {
            return (COUNT.get()[0]++ & 1) == 0;
        }
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    /** The faults that fault() expects and swallows, counted, so that the test can check they happened. */
    private static final class Caught {
        int rounds;
        int decorateTask;          // decorateTask(Runnable) threw
        int decorateTaskCallable;  // decorateTask(Callable) threw
        int factory;               // the thread factory threw
        int handler;               // the rejection handler threw
    }

    /** One round of faults on the faulty executors; every expected exception is swallowed here, and counted. */
    private static void fault(int round, ScheduledThreadPoolExecutor hooked, ScheduledThreadPoolExecutor badFactory,
                              ScheduledThreadPoolExecutor rejecting, List<Future<?>> faultyFutures, Caught caught) {
        caught.rounds++;
        long delay = round % 7;
        Runnable error = () -> {
            throw new BoomError("task");
        };
        Runnable overflow = () -> {
            recurse(0);
        };
        try {
            faultyFutures.add(hooked.schedule(round % 2 == 0 ? error : overflow, delay, MILLISECONDS));
        } catch (Boom expected) {
            caught.decorateTask++;
        }
        try {
            hooked.schedule(() -> "x", delay, MILLISECONDS);
        } catch (BoomError expected) {
            caught.decorateTaskCallable++;
        }
        try {
            faultyFutures.add(badFactory.schedule(() -> { }, delay, MILLISECONDS));
        } catch (FaultyThreadFactory.FactoryFailure expected) {
            caught.factory++; // the task is queued
        }
        try {
            rejecting.schedule(() -> { }, delay, MILLISECONDS);
        } catch (Boom expected) {
            caught.handler++;
        }
        if (round % 50 == 0) {
            try {
                faultyFutures.add(hooked.scheduleAtFixedRate(error, delay, 1, MILLISECONDS));
            } catch (Boom expected) {
                caught.decorateTask++;
            }
        }
    }

    private void assertHealthyExecutorUnaffected(Impl impl) throws Exception {
        FaultyThreadFactory hookedThreads = new FaultyThreadFactory();
        ThrowingHooks hooks = new ThrowingHooks();
        ScheduledThreadPoolExecutor hooked = subclass(impl, 2, hookedThreads, hooks);
        Caught caught = new Caught();
        FaultyThreadFactory badThreads = new FaultyThreadFactory();
        badThreads.fallback = Fault.RETURN_NULL;
        // every third call throws, the others return null; the executor never gets a thread
        for (int i = 0; i < 10_000; i++) {
            badThreads.script.add(i % 3 == 0 ? Fault.THROW : Fault.RETURN_NULL);
        }
        ScheduledThreadPoolExecutor badFactory = executor(impl, 2, badThreads);
        RejectedExecutionHandler throwing = (r, executor) -> {
            throw new Boom("handler");
        };
        ScheduledThreadPoolExecutor rejecting = executor(impl, 1, throwing);
        rejecting.schedule(() -> { }, 1, java.util.concurrent.TimeUnit.HOURS);
        rejecting.shutdown();

        FaultyThreadFactory healthyThreads = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor healthy = executor(impl, 2, healthyThreads);
        int n = 1000;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger early = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        List<Future<?>> faultyFutures = new ArrayList<>();
        long periodNanos = MILLISECONDS.toNanos(1);
        AtomicInteger periodicRuns = new AtomicInteger();
        AtomicInteger periodicEarly = new AtomicInteger();
        long periodicFirst = System.nanoTime();
        ScheduledFuture<?> periodic = healthy.scheduleAtFixedRate(() -> {
            int k = periodicRuns.getAndIncrement();
            if (System.nanoTime() - (periodicFirst + k * periodNanos) < 0) {
                periodicEarly.incrementAndGet();
            }
        }, 0, periodNanos, NANOSECONDS);
        for (int i = 0; i < n; i++) {
            int id = i;
            long delayNanos = MILLISECONDS.toNanos(i % 10) + (i % 7) * 10_000L;
            long notBefore = System.nanoTime() + delayNanos;
            futures.add(healthy.schedule(() -> {
                if (System.nanoTime() - notBefore < 0) {
                    early.incrementAndGet();
                }
                runs.incrementAndGet(id);
            }, delayNanos, NANOSECONDS));
            if (i % 5 == 0) {
                fault(i, hooked, badFactory, rejecting, faultyFutures, caught);
            }
        }
        for (Future<?> f : futures) {
            get(f);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), "task " + i);
        }
        assertEquals(0, early.get());
        awaitUntil("the periodic task goes on", () -> periodicRuns.get() >= 20);
        assertEquals(0, periodicEarly.get());
        assertTrue(periodic.cancel(false));
        assertEquals(List.of(), healthyThreads.uncaught);
        assertEquals(2, healthyThreads.calls.get());
        // the faults fault() swallowed did happen: decorateTask(Callable) and the handler throw on every call,
        // decorateTask(Runnable) on every third (only fault() schedules Runnables on hooked), the factory on
        // every third call, and each of its calls that reaches the caller comes from a schedule in fault()
        assertEquals(n / 5, caught.rounds);
        assertEquals(caught.rounds, caught.decorateTaskCallable, "decorateTask(Callable) failures");
        assertEquals(caught.rounds, caught.handler, "rejection handler failures");
        assertTrue(caught.decorateTask > 0, "no decorateTask(Runnable) failure");
        assertEquals(hooks.decorations.get() / 3, caught.decorateTask, "decorateTask(Runnable) failures");
        assertTrue(caught.factory > 0 && caught.factory <= (badThreads.calls.get() + 2) / 3,
                () -> caught.factory + " factory failures reached the caller, " + badThreads.calls.get() + " calls");
        // the faulty executors did fail, on their own threads
        assertTrue(hookedThreads.uncaught.size() > 0);
        assertEquals(0, badFactory.getPoolSize());
        assertTrue(badFactory.getQueue().size() > 0, "queued, waiting for a thread that never comes");
    }

    @BothImpls
    void faultyExecutors_neverDelayNorLoseAHealthyExecutorsTasks(Impl impl) throws Exception {
        Thread tickBefore = impl.isWheel() ? sharedTickThread() : null;
        assertHealthyExecutorUnaffected(impl);
        if (impl.isWheel()) {
            Thread tickAfter = sharedTickThread();
            assertSame(tickBefore, tickAfter);
            assertTrue(tickAfter.isAlive());
        }
    }

    /** The shared tick thread, started by a throwaway executor if need be. */
    private Thread sharedTickThread() throws Exception {
        ScheduledThreadPoolExecutor starter = track(new WheelScheduledExecutorService(1));
        get(starter.schedule(() -> { }, 1, MILLISECONDS));
        Thread found = null;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("timewheel-tick")) {
                found = t;
            }
        }
        assertTrue(found != null && found.isAlive(), "the shared tick thread is alive");
        return found;
    }
}
