package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Interrupts from outside: of idle workers, of a worker running a task, of a worker between the runs of a
 * periodic task, and (wheel only: the JDK's STPE has no such thread) of the tick thread.
 *
 * <p>What the JDK does (ThreadPoolExecutor): an idle worker blocked in getTask (DelayedWorkQueue.take) gets
 * InterruptedException, which getTask swallows before it looks again; before each task runWorker clears the
 * interrupt status unless the pool is stopping, so an interrupt never leaks into the next task; the worker
 * never exits because of an interrupt while the pool is running.
 */
class InterruptFaultTest extends TckTest {

    /** Records, per run, whether the running thread saw an interrupt, and the runner. */
    private static final class Probe implements Runnable {
        final List<Boolean> interrupted = new CopyOnWriteArrayList<>();
        final List<Thread> runners = new CopyOnWriteArrayList<>();

        @Override
        public void run() {
            runners.add(Thread.currentThread());
            interrupted.add(Thread.currentThread().isInterrupted());
        }
    }

    @BothImpls
    void idleWorkersInterruptedManyTimes_stayInThePool_andLaterTasksRunOnce_neverEarly_neverInterrupted(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 2, factory);
        assertEquals(2, e.prestartAllCoreThreads());
        for (int i = 0; i < 200; i++) {
            for (Thread t : factory.threads) {
                t.interrupt();
            }
        }
        int n = 100;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger early = new AtomicInteger();
        AtomicInteger sawInterrupt = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            long delayNanos = MILLISECONDS.toNanos(i % 5);
            long notBefore = System.nanoTime() + delayNanos;
            futures.add(e.schedule(() -> {
                if (System.nanoTime() - notBefore < 0) {
                    early.incrementAndGet();
                }
                if (Thread.currentThread().isInterrupted()) {
                    sawInterrupt.incrementAndGet();
                }
                runs.incrementAndGet(id);
            }, delayNanos, java.util.concurrent.TimeUnit.NANOSECONDS));
        }
        for (Future<?> f : futures) {
            get(f);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), "task " + i);
        }
        assertEquals(0, early.get());
        assertEquals(0, sawInterrupt.get());
        assertEquals(2, factory.calls.get());
        assertEquals(2, e.getPoolSize());
        assertEquals(List.of(), factory.uncaught);
    }

    @BothImpls
    void workerInterruptedWhileRunningATask_thatTaskSeesIt_theNextTaskOnTheSameThreadDoesNot(Impl impl)
            throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        Gate started = new Gate();
        Gate release = gate();
        Future<Boolean> first = e.submit(() -> {
            started.open();
            // The interrupt may be seen while waiting (awaitUninterruptibly then restores it) or only after the
            // gate opened (an await that wakes up to a count of zero returns normally): either way it is set now.
            release.awaitUninterruptibly();
            return Thread.currentThread().isInterrupted();
        });
        Probe next = new Probe();
        Future<?> second = e.submit(next);
        started.await();
        factory.threads.get(0).interrupt();
        release.open();
        assertTrue(get(first));
        get(second);
        assertEquals(List.of(false), next.interrupted);
        assertSame(factory.threads.get(0), next.runners.get(0));
        assertEquals(1, factory.calls.get());
        assertEquals(1, e.getPoolSize());
    }

    @BothImpls
    void workerInterruptedWhileATaskWaitsInterruptibly_theFutureHoldsTheInterruptedException_theWorkerLivesOn(
            Impl impl) throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        Gate started = new Gate();
        Gate never = gate();
        Future<?> waiting = e.submit(() -> {
            started.open();
            never.await();
            return null;
        });
        started.await();
        factory.threads.get(0).interrupt();
        ExecutionException ee = assertThrows(ExecutionException.class, () -> waiting.get(WAIT_SECONDS, SECONDS));
        assertInstanceOf(InterruptedException.class, ee.getCause());
        Probe next = new Probe();
        get(e.submit(next));
        assertEquals(List.of(false), next.interrupted);
        assertSame(factory.threads.get(0), next.runners.get(0));
        assertEquals(1, factory.calls.get());
        assertEquals(List.of(), factory.uncaught);
    }

    @BothImpls
    void taskInterruptingItsOwnThread_theNextTaskRunsUninterrupted_onTheSameWorker(Impl impl) throws Exception {
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        Probe probe = new Probe();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            futures.add(e.submit(() -> Thread.currentThread().interrupt()));
            futures.add(i % 2 == 0 ? e.submit(probe) : e.schedule(probe, 1, MILLISECONDS));
        }
        for (Future<?> f : futures) {
            get(f);
        }
        assertEquals(20, probe.interrupted.size());
        assertFalse(probe.interrupted.contains(true));
        assertEquals(1, identitySet(probe.runners).size());
        assertEquals(1, factory.calls.get());
    }

    @BothImpls
    void workerInterruptedBetweenPeriodicRuns_theTaskKeepsItsCadence_neverEarly_noWorkerIsLost(Impl impl)
            throws Exception {
        // After each run, another thread interrupts the worker, which is then finishing the run or waiting for
        // the next one: the task goes on; no run starts before its fixed-rate instant.
        FaultyThreadFactory factory = new FaultyThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 1, factory);
        int wanted = 50;
        long periodNanos = MILLISECONDS.toNanos(1);
        Semaphore ran = new Semaphore(0);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger early = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        long first = System.nanoTime();
        ScheduledFuture<?> f = e.scheduleAtFixedRate(() -> {
            int k = runs.getAndIncrement();
            if (System.nanoTime() - (first + k * periodNanos) < 0) {
                early.incrementAndGet();
            }
            ran.release();
        }, 0, periodNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        Thread interrupter = new Thread(() -> {
            try {
                while (!stop.get()) {
                    if (ran.tryAcquire(WAIT_SECONDS, SECONDS)) {
                        factory.threads.get(0).interrupt();
                    }
                }
            } catch (InterruptedException done) {
                // the test ends it
            }
        }, "interrupter");
        interrupter.start();
        try {
            awaitUntil(wanted + " runs", () -> runs.get() >= wanted);
        } finally {
            stop.set(true);
            interrupter.interrupt();
            interrupter.join();
        }
        assertFalse(f.isDone());
        assertEquals(0, early.get());
        assertEquals(1, factory.calls.get());
        assertEquals(1, e.getPoolSize());
        assertEquals(List.of(), factory.uncaught);
        assertTrue(f.cancel(false));
    }

    // ---------------------------------------------------------------------------------------------
    // The tick thread: wheel only (the JDK's STPE has none)

    private static Thread tickThreadNamed(String name) {
        Thread found = null;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                assertTrue(found == null, "two threads named " + name);
                found = t;
            }
        }
        assertNotNull(found, "no thread named " + name);
        return found;
    }

    private void assertTickThreadSurvivesInterrupts(ScheduledThreadPoolExecutor e, String tickName)
            throws Exception {
        track(e);
        // the tick thread exists once the executor has filed a delayed task
        get(e.schedule(() -> { }, 1, MILLISECONDS));
        Thread tick = tickThreadNamed(tickName);
        int batch = 100;
        int batches = 3;
        int n = batch * batches;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger early = new AtomicInteger();
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> futures = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            for (int i = 0; i < 50; i++) {
                tick.interrupt();
            }
            // within a batch, scheduled one after the other with growing delays: strictly increasing deadlines
            for (int i = 0; i < batch; i++) {
                int id = b * batch + i;
                long delayNanos = MILLISECONDS.toNanos(2) + i * 50_000L; // 2 ms, then 50 us apart
                long notBefore = System.nanoTime() + delayNanos;
                futures.add(e.schedule(() -> {
                    if (System.nanoTime() - notBefore < 0) {
                        early.incrementAndGet();
                    }
                    runs.incrementAndGet(id);
                    order.add(id);
                }, delayNanos, java.util.concurrent.TimeUnit.NANOSECONDS));
                if (i % 10 == 0) {
                    tick.interrupt();
                }
            }
        }
        for (int i = 0; i < 50; i++) {
            tick.interrupt();
        }
        for (Future<?> f : futures) {
            get(f);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), "task " + i);
        }
        assertEquals(0, early.get());
        for (int b = 0; b < batches; b++) {
            List<Integer> mine = new ArrayList<>();
            for (int id : order) {
                if (id / batch == b) {
                    mine.add(id);
                }
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                expected.add(b * batch + i);
            }
            assertEquals(expected, mine, "batch " + b + " ran in deadline order (one worker)");
        }
        assertTrue(tick.isAlive());
        // and it still serves new work after the last interrupt
        tick.interrupt();
        long notBefore = System.nanoTime() + MILLISECONDS.toNanos(5);
        Future<Long> after = e.schedule(System::nanoTime, 5, MILLISECONDS);
        assertTrue(get(after) - notBefore >= 0);
        assertTrue(tick.isAlive());
        assertSame(tick, tickThreadNamed(tickName));
    }

    @Test
    void wheelOnly_sharedTickThreadInterruptedFromOutside_staysAlive_tasksRunOnceInDeadlineOrder_neverEarly()
            throws Exception {
        assertTickThreadSurvivesInterrupts(new WheelScheduledExecutorService(1), "timewheel-tick");
    }

    @Test
    void wheelOnly_dedicatedTickThreadInterruptedFromOutside_staysAlive_tasksRunOnceInDeadlineOrder_neverEarly()
            throws Exception {
        WheelScheduledExecutorService e = WheelScheduledExecutorService.builder()
                .corePoolSize(1)
                .dedicatedTickThread(true)
                .build();
        assertTickThreadSurvivesInterrupts(e, "timewheel-tick-" + Integer.toHexString(System.identityHashCode(e)));
    }
}
