package io.timewheel.tck.jcstress;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@code schedule} racing {@code shutdown} on a fresh executor. Results: (accepted ? 1 : 0, runs, future
 * cancelled ? 1 : 0, terminated within 10 s ? 1 : 0). Whatever the interleaving, the task is rejected, or
 * runs once, or is cancelled, and the executor terminates: never a task left pending in a terminated pool or
 * a pool that cannot terminate.
 *
 * <p>The JDK shows one surprising outcome: STPE.delayedExecute checks isShutdown(), queues the task, and then
 * re-checks; if the pool went all the way to TERMINATED in between (it had no task and its workers left), the
 * re-check fails even for a due task under executeExistingDelayedTasksAfterShutdownPolicy=true, and the task
 * is taken back and cancelled: schedule returns a cancelled future instead of throwing.
 *
 * <p>And one it can reach but these runs have not shown (its window is a few instructions wide): shutdown's
 * tryTerminate finds the queue empty, the producer queues its due task, canRunInCurrentRunState still sees
 * SHUTDOWN, and tryTerminate's CAS to TIDYING beats ensurePrestart's addWorker: the task stays queued in a
 * terminated pool, never run and never cancelled (1, 0, 0, 1). Listed as interesting for the JDK; forbidden
 * for the wheel, which cancels such a task (WheelScheduledExecutorService.cancelIfStranded). The tck's
 * ShutdownTest and the executor's TerminationRaceTest put a producer in that state deterministically.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=ScheduleVsShutdown
 * </pre>
 */
public final class ScheduleVsShutdown {
    private ScheduleVsShutdown() {}

    /** One race on its own executor. */
    abstract static class Race {
        private final ScheduledThreadPoolExecutor executor;
        private final AtomicInteger runs = new AtomicInteger();
        private volatile Future<?> future;

        Race(ScheduledThreadPoolExecutor executor) {
            this.executor = executor;
        }

        final int schedule(long delay, TimeUnit unit) {
            try {
                future = executor.schedule(() -> {
                    runs.incrementAndGet();
                }, delay, unit);
                return 1;
            } catch (RejectedExecutionException e) {
                return 0;
            }
        }

        final void shutdown() {
            executor.shutdown();
        }

        final void settle(IIII_Result r) {
            boolean terminated;
            try {
                terminated = executor.awaitTermination(10, SECONDS);
            } catch (InterruptedException e) {
                terminated = false;
            }
            if (!terminated) {
                executor.shutdownNow();
            }
            Future<?> f = future;
            r.r2 = runs.get();
            r.r3 = f != null && f.isCancelled() ? 1 : 0;
            r.r4 = terminated ? 1 : 0;
        }
    }

    private static ScheduledThreadPoolExecutor dropDelayed(ScheduledThreadPoolExecutor e) {
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return e;
    }

    @JCStressTest
    @Description("JDK: schedule(task, 0) racing shutdown(), default policies.")
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "rejected: shutdown came first")
    @Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "accepted and ran")
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "accepted, but the pool had terminated before the task was queued: cancelled")
    @Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "accepted, queued after tryTerminate saw an empty queue, addWorker lost to TIDYING: stranded")
    @State
    public static class Jdk extends Race {
        public Jdk() {
            super(Impls.jdk(1));
        }

        @Actor
        public void schedule(IIII_Result r) {
            r.r1 = schedule(0, NANOSECONDS);
        }

        @Actor
        public void shutdownActor() {
            shutdown();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            settle(r);
        }
    }

    @JCStressTest
    @Description("Wheel: schedule(task, 0) racing shutdown(), default policies.")
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "rejected: shutdown came first")
    @Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "accepted and ran")
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "accepted, but the pool had terminated before the task was queued: cancelled")
    @Outcome(id = "1, 0, 0, 1", expect = FORBIDDEN, desc = "stranded: accepted, never run, never cancelled")
    @State
    public static class Wheel extends Race {
        public Wheel() {
            super(Impls.wheel(1));
        }

        @Actor
        public void schedule(IIII_Result r) {
            r.r1 = schedule(0, NANOSECONDS);
        }

        @Actor
        public void shutdownActor() {
            shutdown();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            settle(r);
        }
    }

    @JCStressTest
    @Description("JDK: schedule(task, 1 h) racing shutdown(), executeExistingDelayedTasksAfterShutdown=false.")
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "rejected: shutdown came first")
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "accepted, then cancelled by the shutdown")
    @State
    public static class JdkDelayed extends Race {
        public JdkDelayed() {
            super(dropDelayed(Impls.jdk(1)));
        }

        @Actor
        public void schedule(IIII_Result r) {
            r.r1 = schedule(1, HOURS);
        }

        @Actor
        public void shutdownActor() {
            shutdown();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            settle(r);
        }
    }

    @JCStressTest
    @Description("Wheel: schedule(task, 1 h) racing shutdown(), executeExistingDelayedTasksAfterShutdown=false.")
    @Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "rejected: shutdown came first")
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "accepted, then cancelled by the shutdown")
    @State
    public static class WheelDelayed extends Race {
        public WheelDelayed() {
            super(dropDelayed(Impls.wheel(1)));
        }

        @Actor
        public void schedule(IIII_Result r) {
            r.r1 = schedule(1, HOURS);
        }

        @Actor
        public void shutdownActor() {
            shutdown();
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            settle(r);
        }
    }
}
