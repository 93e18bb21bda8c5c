package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.timewheel.tck.soak.RunsAfterCancel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Races that count outcomes. Producer threads schedule tasks with random delays of 0 to 3 ms through every
 * entry point and cancel some at random (half the time one of their 8 newest, which are often due or
 * running), while a controller thread shuts the executor down (shutdown or shutdownNow) at a random point.
 * Half the rounds use a subclass whose beforeExecute cancels one task in 20 just before its first run;
 * then, after termination, every task is accounted for: it ran exactly once, or it was cancelled (and never
 * ran, unless the cancel came while it ran), or shutdownNow returned it (never ran, not done), or it was
 * rejected (the handler saw it, it never ran). No task ran twice or before its deadline; no periodic run
 * overlapped another or started before its instant; no body started after a cancel of its future returned
 * true, but for FutureTask's race (the run was committed to before the cancel: counted, see
 * {@link RunsAfterCancel} for when a start after the cancel cannot be that race).
 *
 * <p>Deadlines are recorded as System.nanoTime() + delay just before the scheduling call, so they are never
 * later than the executor's own trigger times: a start before them is a real early start. Seeds are fixed
 * per test and printed, with the volume, so a failure can be replayed.
 */
class StressTest extends TckTest {
    private static final int PRODUCERS = 3;
    private static final long MAX_DELAY_MICROS = 3_000;

    private enum Kind { SCHEDULE_RUNNABLE, SCHEDULE_CALLABLE, SUBMIT, EXECUTE, FIXED_RATE, FIXED_DELAY }

    /** Configuration of one test: rounds of fresh executors. */
    private static final class Config {
        final String name;
        final long seed;
        final int rounds;
        final int tasksPerProducer;
        final boolean periodic;
        /** null: alternate shutdown and shutdownNow by round. */
        final Boolean shutdownNow;

        Config(String name, long seed, int rounds, int tasksPerProducer, boolean periodic, Boolean shutdownNow) {
            this.name = name;
            this.seed = seed;
            this.rounds = rounds;
            this.tasksPerProducer = tasksPerProducer;
            this.periodic = periodic;
            this.shutdownNow = shutdownNow;
        }
    }

    /** One task: what the test knows of it, and what its body saw. */
    private static final class Task {
        final Kind kind;
        final long deadline;
        final long periodNanos;
        final AtomicInteger runs = new AtomicInteger();
        final AtomicBoolean running = new AtomicBoolean();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger early = new AtomicInteger();
        final RunsAfterCancel afterCancel = new RunsAfterCancel();
        volatile long lastEnd;
        volatile Future<?> future;
        volatile boolean cancelReturnedTrue;
        volatile boolean rejected;
        final StringBuffer cancels = new StringBuffer(); // diagnostics: every cancel call and its result
        /** On a subclass: beforeExecute cancels the task just before its first run (drawn when it is made). */
        boolean cancelInBeforeExecute;
        boolean cancelInterrupts;
        long scheduleStart; // nanoTime around the scheduling call, written by the producer
        long scheduleEnd;

        Task(Kind kind, long deadline, long periodNanos) {
            this.kind = kind;
            this.deadline = deadline;
            this.periodNanos = periodNanos;
        }

        boolean isPeriodic() {
            return kind == Kind.FIXED_RATE || kind == Kind.FIXED_DELAY;
        }

        void body() {
            long ticket = RunsAfterCancel.ticket(); // first: orders this start against a cancel's return
            long start = System.nanoTime();
            if (!running.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            int k = runs.getAndIncrement();
            long earliest;
            if (kind == Kind.FIXED_RATE) {
                earliest = deadline + k * periodNanos;
            } else if (kind == Kind.FIXED_DELAY && k > 0) {
                earliest = lastEnd + periodNanos;
            } else {
                earliest = deadline;
            }
            afterCancel.started(ticket, earliest, 0);
            if (start - earliest < 0) {
                early.incrementAndGet();
            }
            lastEnd = System.nanoTime();
            running.set(false);
        }

        /** Cancels the task's future, recording the result. */
        void cancel(boolean mayInterrupt, String who) {
            boolean cancelled = future.cancel(mayInterrupt);
            if (cancelled) {
                afterCancel.cancelReturnedTrue(mayInterrupt); // first: later starts are after it
            }
            cancels.append(who).append(":cancel(").append(mayInterrupt).append(")=").append(cancelled).append(' ');
            if (cancelled) {
                cancelReturnedTrue = true;
            }
        }
    }

    /** Outcome counts, summed over rounds. */
    private static final class Tally {
        long tasks;
        long periodicTasks;
        long ops;
        long ran;
        long periodicRuns;
        long cancelledByCaller;
        long cancelledWhileRunning;
        long startedAfterCancel;
        long cancelledByExecutor;
        long drained;
        long rejected;
        long executeNotRun;

        @Override
        public String toString() {
            return String.format("tasks=%d (periodic %d) ops=%d | ran=%d periodicRuns=%d cancelledByCaller=%d "
                    + "cancelledWhileRunning=%d (startedAfterCancel %d) cancelledByExecutor=%d "
                    + "drainedByShutdownNow=%d rejected=%d executedNotRun=%d", tasks, periodicTasks, ops, ran,
                    periodicRuns, cancelledByCaller, cancelledWhileRunning, startedAfterCancel, cancelledByExecutor,
                    drained, rejected, executeNotRun);
        }
    }

    @BothImpls
    void oneShotsRacingShutdown_everyTaskAccountedFor(Impl impl) throws Exception {
        run(impl, new Config("one-shots vs shutdown", 0x5EED_0001L, 80, 1_500, false, false));
    }

    @BothImpls
    void oneShotsRacingShutdownNow_everyTaskAccountedFor(Impl impl) throws Exception {
        run(impl, new Config("one-shots vs shutdownNow", 0x5EED_0002L, 80, 1_500, false, true));
    }

    @BothImpls
    void periodicAndOneShotsRacingShutdownOrShutdownNow_everyTaskAccountedFor(Impl impl) throws Exception {
        run(impl, new Config("periodic + one-shots vs shutdown/shutdownNow", 0x5EED_0003L, 80, 1_500, true, null));
    }

    @BothImpls
    void scheduleRacingShutdownOnFreshExecutors_taskSettledAndExecutorTerminates(Impl impl) throws Exception {
        // The jcstress ScheduleVsShutdown race, many times over (up to 3000 rounds or 4 s): a fresh executor per
        // round, one helper thread scheduling (due now, or in an hour with delayed tasks dropped at shutdown)
        // while another shuts down. Afterwards the task is rejected, ran once, or is cancelled, and the
        // executor has terminated.
        int maxRounds = 3_000;
        long budget = SECONDS.toNanos(4);
        SplittableRandom random = new SplittableRandom(0x5EED_0004L);
        ExecutorService helpers = track(Executors.newFixedThreadPool(2));
        long rejected = 0;
        long ran = 0;
        long cancelled = 0;
        long began = System.nanoTime();
        int round = 0;
        for (; round < maxRounds && System.nanoTime() - began < budget; round++) {
            boolean delayed = random.nextBoolean();
            ScheduledThreadPoolExecutor e = impl.create(1);
            e.setExecuteExistingDelayedTasksAfterShutdownPolicy(!delayed);
            AtomicInteger runs = new AtomicInteger();
            // Both helpers start together: the second to arrive releases the first, which spins meanwhile.
            AtomicInteger arrived = new AtomicInteger();
            Runnable startTogether = () -> {
                if (arrived.incrementAndGet() < 2) {
                    while (arrived.get() < 2) {
                        Thread.onSpinWait();
                    }
                }
            };
            Future<Future<?>> scheduled = helpers.submit(() -> {
                startTogether.run();
                try {
                    return e.schedule(counting(runs), delayed ? 3_600_000_000_000L : 0, NANOSECONDS);
                } catch (RejectedExecutionException x) {
                    return null;
                }
            });
            int skew = random.nextInt(3_000); // spin a little before shutting down: spreads the interleavings
            Future<?> shutdown = helpers.submit(() -> {
                startTogether.run();
                for (int i = 0; i < skew; i++) {
                    Thread.onSpinWait();
                }
                e.shutdown();
                return null;
            });
            Future<?> f = scheduled.get(WAIT_SECONDS, SECONDS);
            shutdown.get(WAIT_SECONDS, SECONDS);
            boolean terminated = e.awaitTermination(WAIT_SECONDS, SECONDS);
            if (!terminated) {
                e.shutdownNow();
            }
            String what = "round " + round + (delayed ? " (delayed task, dropped at shutdown)" : " (due task)")
                    + ": accepted=" + (f != null) + " runs=" + runs.get()
                    + " cancelled=" + (f != null && f.isCancelled());
            assertTrue(terminated, what + ": executor did not terminate");
            if (f == null) {
                rejected++;
                assertEquals(0, runs.get(), what);
            } else if (f.isCancelled()) {
                cancelled++;
                assertEquals(0, runs.get(), what);
            } else {
                ran++;
                assertFalse(delayed, what + ": a delayed task survived a shutdown that drops delayed tasks");
                assertEquals(1, runs.get(), what);
                assertTrue(f.isDone(), what);
            }
        }
        System.out.printf("[stress %s] schedule vs shutdown on fresh executors: rounds=%d rejected=%d ran=%d "
                + "cancelled=%d in %d ms%n", impl, round, rejected, ran, cancelled,
                (System.nanoTime() - began) / 1_000_000);
    }

    private void run(Impl impl, Config config) throws Exception {
        SplittableRandom seeds = new SplittableRandom(config.seed);
        Tally tally = new Tally();
        long began = System.nanoTime();
        for (int round = 0; round < config.rounds; round++) {
            boolean now = config.shutdownNow != null ? config.shutdownNow : round % 2 == 1;
            runRound(impl, config, now, seeds.split(), tally);
        }
        long millis = (System.nanoTime() - began) / 1_000_000;
        System.out.printf("[stress %s] %s: seed=%#x rounds=%d %s in %d ms%n", impl, config.name, config.seed,
                config.rounds, tally, millis);
        assertTrue(tally.ran > 0, "nothing ran");
    }

    private void runRound(Impl impl, Config config, boolean shutdownNow, SplittableRandom random, Tally tally)
            throws Exception {
        RecordingHandler handler = RecordingHandler.aborting();
        Map<Object, Task> byFuture = new ConcurrentHashMap<>(); // futures hash by identity
        ScheduledThreadPoolExecutor e = random.nextBoolean() ? executor(impl, 2, handler)
                : subclass(impl, 2, handler, cancellingBeforeExecute(byFuture));
        boolean keepDelayed = random.nextBoolean();
        boolean removeOnCancel = random.nextBoolean();
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(keepDelayed);
        e.setRemoveOnCancelPolicy(removeOnCancel);

        int total = PRODUCERS * config.tasksPerProducer;
        int shutdownAt = total / 5 + random.nextInt(total * 3 / 5);
        AtomicInteger submitted = new AtomicInteger();
        AtomicLong ops = new AtomicLong();
        CountDownLatch shutdownPoint = new CountDownLatch(1);
        long[] shutdownCall = new long[2]; // nanoTime before and after the shutdown call
        AtomicReference<List<Runnable>> drained = new AtomicReference<>(List.of());
        List<List<Task>> perProducer = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();

        Thread controller = new Thread(() -> {
            try {
                shutdownPoint.await();
                shutdownCall[0] = System.nanoTime();
                if (shutdownNow) {
                    drained.set(e.shutdownNow());
                } else {
                    e.shutdown();
                }
                shutdownCall[1] = System.nanoTime();
            } catch (Throwable t) {
                failures.add(t);
            }
        }, "stress-controller");
        threads.add(controller);
        for (int p = 0; p < PRODUCERS; p++) {
            List<Task> mine = new ArrayList<>();
            perProducer.add(mine);
            SplittableRandom r = random.split();
            threads.add(new Thread(() -> {
                try {
                    produce(e, config, r, mine, byFuture, submitted, shutdownAt, shutdownPoint, ops);
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "stress-producer-" + p));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(SECONDS.toMillis(WAIT_SECONDS));
            assertFalse(t.isAlive(), t.getName() + " stuck");
        }
        assertTrue(failures.isEmpty(), () -> "unexpected failure: " + failures);
        awaitTerminated(e);

        account(perProducer, identitySet(drained.get()), handler, shutdownNow, keepDelayed, shutdownCall, tally);
        tally.ops += ops.get();
    }

    /** beforeExecute of a subclass: cancels the tasks planned for it, then tells RunsAfterCancel it returns. */
    private static Hooks cancellingBeforeExecute(Map<Object, Task> byFuture) {
        return new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                Task task = byFuture.get(r); // null for execute()d commands and tasks not yet registered
                if (task != null && task.cancelInBeforeExecute && task.runs.get() == 0) {
                    task.cancel(task.cancelInterrupts, "beforeExecute");
                }
                RunsAfterCancel.beforeExecuteReturning(); // last
            }
        };
    }

    private static void produce(ScheduledThreadPoolExecutor e, Config config, SplittableRandom r, List<Task> mine,
                                Map<Object, Task> byFuture,
                                AtomicInteger submitted, int shutdownAt, CountDownLatch shutdownPoint,
                                AtomicLong ops) {
        Kind[] kinds = Kind.values();
        int kindCount = config.periodic ? kinds.length : Kind.FIXED_RATE.ordinal();
        for (int i = 0; i < config.tasksPerProducer; i++) {
            Kind kind = kinds[r.nextInt(kindCount)];
            long delayMicros = kind == Kind.SUBMIT || kind == Kind.EXECUTE ? 0 : r.nextLong(MAX_DELAY_MICROS + 1);
            long periodMicros = 100 + r.nextLong(900);
            TimeUnit unit = r.nextBoolean() ? MICROSECONDS : NANOSECONDS;
            long delay = unit.convert(delayMicros, MICROSECONDS);
            long now = System.nanoTime();
            Task t = new Task(kind, now + unit.toNanos(delay), MICROSECONDS.toNanos(periodMicros));
            t.cancelInBeforeExecute = r.nextInt(20) == 0;
            t.cancelInterrupts = r.nextBoolean();
            mine.add(t);
            t.scheduleStart = now;
            try {
                switch (kind) {
                    case SCHEDULE_RUNNABLE:
                        t.future = e.schedule(t::body, delay, unit);
                        break;
                    case SCHEDULE_CALLABLE:
                        t.future = e.schedule(() -> {
                            t.body();
                            return t;
                        }, delay, unit);
                        break;
                    case SUBMIT:
                        t.future = e.submit(t::body);
                        break;
                    case EXECUTE:
                        e.execute(t::body);
                        break;
                    case FIXED_RATE:
                        t.future = e.scheduleAtFixedRate(t::body, delay, periodMicros, MICROSECONDS);
                        break;
                    default:
                        t.future = e.scheduleWithFixedDelay(t::body, delay, periodMicros, MICROSECONDS);
                        break;
                }
            } catch (RejectedExecutionException rejected) {
                t.rejected = true;
            }
            t.scheduleEnd = System.nanoTime();
            if (t.future != null) {
                byFuture.put(t.future, t);
            }
            ops.incrementAndGet();
            if (submitted.incrementAndGet() == shutdownAt) {
                shutdownPoint.countDown();
            }
            // Cancel an earlier task of this producer now and then, half the time one of its 8 newest (due
            // soon, or being taken or run: the races of cancel with a start); periodic ones more often, so
            // most of them end by a caller's cancel rather than by the shutdown.
            if (r.nextInt(100) < 30 && !mine.isEmpty()) {
                int n = mine.size();
                Task victim = mine.get(r.nextBoolean() ? n - 1 - r.nextInt(Math.min(n, 8)) : r.nextInt(n));
                if (victim.future != null) {
                    victim.cancel(r.nextBoolean(), "producer");
                    ops.incrementAndGet();
                }
            }
        }
    }

    private static void account(List<List<Task>> perProducer, Set<Object> drained, RecordingHandler handler,
                                boolean shutdownNow, boolean keepDelayed, long[] shutdownCall, Tally tally) {
        int rejected = 0;
        int matchedDrained = 0;
        int executeNotRun = 0;
        for (List<Task> tasks : perProducer) {
            for (Task t : tasks) {
                String what = t.kind + " task [runs=" + t.runs.get() + " " + t.cancels + "future=" + t.future
                        + " keepDelayed=" + keepDelayed + "]";
                // A scheduling call that overlaps the shutdown call may see the pool running, queue its task,
                // and then find the pool already terminated: STPE.delayedExecute (JDK 25 lines 348-349) takes the
                // task back and
                // cancels it (canRunInCurrentRunState is false once the pool is at least STOP, and TERMINATED
                // is), even under executeExistingDelayedTasksAfterShutdownPolicy=true.
                boolean racedShutdown = t.scheduleStart - shutdownCall[1] < 0 && t.scheduleEnd - shutdownCall[0] > 0;
                tally.tasks++;
                assertEquals(0, t.overlaps.get(), what + ": overlapping runs");
                assertEquals(0, t.early.get(), what + ": started before its deadline");
                String afterCancel = t.afterCancel.violation();
                if (afterCancel != null) {
                    fail(what + ": " + afterCancel);
                }
                if (t.afterCancel.startedAfterCancel()) {
                    tally.startedAfterCancel++; // FutureTask's race: the run was committed to before the cancel
                }
                int runs = t.runs.get();
                if (t.isPeriodic()) {
                    tally.periodicTasks++;
                    tally.periodicRuns += runs;
                } else {
                    assertTrue(runs <= 1, what + " ran " + runs + " times");
                }
                if (t.rejected) {
                    rejected++;
                    tally.rejected++;
                    assertEquals(0, runs, what + ": rejected yet ran");
                    continue;
                }
                if (t.kind == Kind.EXECUTE) {
                    // No future to look at: it ran, or shutdownNow returned it, or the executor cancelled it.
                    if (runs == 0) {
                        executeNotRun++;
                        tally.executeNotRun++;
                        assertTrue(shutdownNow || racedShutdown,
                                what + ": never ran, without shutdownNow, though not scheduled during shutdown");
                    } else {
                        tally.ran++;
                    }
                    continue;
                }
                Future<?> f = t.future;
                if (drained.contains(f)) {
                    matchedDrained++;
                    tally.drained++;
                    assertTrue(shutdownNow);
                    // Handed back untouched; a producer may still have cancelled it afterwards.
                    assertTrue(!f.isDone() || f.isCancelled() && t.cancelReturnedTrue,
                            what + ": returned by shutdownNow yet done");
                    if (!t.isPeriodic()) {
                        assertEquals(0, runs, what + ": returned by shutdownNow yet ran");
                    }
                    continue;
                }
                assertTrue(f.isDone(), what + " is in limbo: not done, not returned by shutdownNow, not rejected");
                if (f.isCancelled()) {
                    if (t.cancelReturnedTrue) {
                        if (runs == 0 || t.isPeriodic()) {
                            tally.cancelledByCaller++;
                        } else {
                            tally.cancelledWhileRunning++; // cancel returned true while the body ran
                        }
                    } else {
                        tally.cancelledByExecutor++;
                        if (!t.isPeriodic()) {
                            assertEquals(0, runs, what + ": cancelled by the executor after it ran");
                            assertTrue(shutdownNow || !keepDelayed || racedShutdown,
                                    what + ": cancelled by the executor although delayed tasks are kept");
                        }
                    }
                } else {
                    assertFalse(t.isPeriodic(), what + ": periodic task completed normally");
                    assertEquals(1, runs, what + ": done, not cancelled, yet ran " + runs + " times");
                    tally.ran++;
                }
            }
        }
        assertEquals(rejected, handler.calls.size(), "handler calls vs RejectedExecutionExceptions");
        for (RecordingHandler.Call call : handler.calls) {
            assertTrue(call.executorWasShutdown, "rejected while running");
        }
        // What shutdownNow returned: the futures matched above, plus wrappers of executed commands.
        int unmatched = drained.size() - matchedDrained;
        if (unmatched < 0 || unmatched > executeNotRun) {
            fail("shutdownNow returned " + drained.size() + " tasks, " + matchedDrained
                    + " known futures and " + unmatched + " others, but only " + executeNotRun
                    + " executed commands did not run");
        }
    }
}
