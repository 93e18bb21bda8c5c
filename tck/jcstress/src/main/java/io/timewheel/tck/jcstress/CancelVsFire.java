package io.timewheel.tck.jcstress;

import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@code cancel(true)} racing the executor firing the task (its deadline passes as the actor cancels), with
 * removeOnCancel=true, so the cancel also unlinks the task from wherever it waits. Results: (cancel returned
 * true ? 1 : 0, how many times the task ran, 1 if its body started after the cancel had returned true and its
 * thread was not interrupted). A cancel that returned false must mean the task ran, exactly once; a cancel that
 * returned true means it never ran, or that it was already being run.
 *
 * <p>"Already being run" includes a body that starts after the cancel returned: FutureTask checks its state,
 * then calls the body, and a cancel between the two returns true (both STPE and we allow it; a
 * {@code cancel(false)} version of this test sees it on both). That race is told apart from a defect (a cancel
 * that returned true, then a body started that no runner had claimed) with {@code cancel(true)}: in the race the
 * runner had claimed the task, so the cancel interrupted it before returning, and the body starts interrupted.
 * The order is read from one counter: the body takes a ticket as it starts, then reads its interrupt status;
 * the actor takes one right after its cancel returned true.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=CancelVsFire
 * </pre>
 */
public final class CancelVsFire {
    /** Short enough that the deadline often passes while the actor runs, given when jcstress builds states. */
    static final long DELAY_NANOS = 20_000;

    /** One single-worker executor per implementation per forked VM, shared by all the states. */
    static final ScheduledThreadPoolExecutor JDK = removeOnCancel(Impls.jdk(1));
    static final ScheduledThreadPoolExecutor WHEEL = removeOnCancel(Impls.wheel(1));

    private CancelVsFire() {}

    private static ScheduledThreadPoolExecutor removeOnCancel(ScheduledThreadPoolExecutor e) {
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    /** One race: a task due in 20 us, then a marker with the same delay that runs after it on the one worker. */
    abstract static class Race {
        private final AtomicInteger runs = new AtomicInteger();
        private final AtomicInteger tickets = new AtomicInteger();
        private volatile int startTicket;
        private volatile boolean startedInterrupted;
        private volatile int cancelTicket;
        private final ScheduledFuture<?> target;
        private final ScheduledFuture<?> marker;

        Race(ScheduledThreadPoolExecutor executor) {
            target = executor.schedule(() -> {
                startTicket = tickets.incrementAndGet();
                startedInterrupted = Thread.currentThread().isInterrupted(); // read after the ticket: see the class notes
                runs.incrementAndGet();
            }, DELAY_NANOS, NANOSECONDS);
            marker = executor.schedule(() -> { }, DELAY_NANOS, NANOSECONDS);
        }

        final int cancelTarget() {
            if (target.cancel(true)) {
                cancelTicket = tickets.incrementAndGet();
                return 1;
            }
            return 0;
        }

        /** Waits until the worker is past the target (the marker ran), then reads the run count; -1 if stuck. */
        final int settledRuns() {
            try {
                marker.get(10, SECONDS);
                return runs.get();
            } catch (Exception e) {
                return -1;
            }
        }

        /**
         * After settledRuns: 1 if the body started after a cancel that returned true had returned, with its
         * thread not interrupted (so not the race FutureTask allows: see the class notes).
         */
        final int startedAfterCancel() {
            int cancelled = cancelTicket;
            return cancelled != 0 && startTicket > cancelled && !startedInterrupted ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("JDK ScheduledThreadPoolExecutor: cancel(true) racing the task's firing.")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "cancelled before it fired: never ran")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "fired first: ran once, cancel returned false")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "cancel returned true while the task was being run")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "cancel returned true, then an unclaimed body started")
    @State
    public static class Jdk extends Race {
        public Jdk() {
            super(JDK);
        }

        @Actor
        public void cancel(III_Result r) {
            r.r1 = cancelTarget();
        }

        @Arbiter
        public void settle(III_Result r) {
            r.r2 = settledRuns();
            r.r3 = startedAfterCancel();
        }
    }

    @JCStressTest
    @Description("WheelScheduledExecutorService: cancel(true) racing the task's firing.")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "cancelled before it fired: never ran")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "fired first: ran once, cancel returned false")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "cancel returned true while the task was being run")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "cancel returned true, then an unclaimed body started")
    @State
    public static class Wheel extends Race {
        public Wheel() {
            super(WHEEL);
        }

        @Actor
        public void cancel(III_Result r) {
            r.r1 = cancelTarget();
        }

        @Arbiter
        public void settle(III_Result r) {
            r.r2 = settledRuns();
            r.r3 = startedAfterCancel();
        }
    }
}
