package io.timewheel.executor;

import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * What a periodic task of a {@link WheelScheduledExecutorService} does when it misses runs (fixed rate only)
 * and when a run throws. {@link #STPE} (the default) is exactly {@code ScheduledThreadPoolExecutor}'s
 * behaviour: every missed fixed-rate run is run back to back, and the first exception stops the task. Given
 * per task ({@link WheelScheduledExecutorService#scheduleAtFixedRate(Runnable, long, long,
 * java.util.concurrent.TimeUnit, PeriodicPolicy)} and the fixed-delay overload) or as the executor's default
 * for the plain methods ({@link WheelScheduledExecutorService.Builder#periodicPolicy}). Immutable; any thread.
 *
 * <p>The fixed-rate grid of a task is its first deadline plus whole periods: {@code first + k * period}.
 * A run is <i>missed</i> when it starts a period or more after its deadline (the next period has begun). The
 * policies only ever move the next run to a later point of the same grid, so cadence never drifts:
 * <ul>
 *   <li>{@link MissedRuns#CATCH_UP}: the next run is at the previous deadline plus the period, even if that is
 *       already past (STPE: after a pause of n periods, about n runs back to back);
 *   <li>{@link MissedRuns#RUN_ONCE}: the late run runs; then the next run is the first grid point not before
 *       the end of that run (one run, however many periods were missed; also after a run that overran);
 *   <li>{@link MissedRuns#SKIP}: a missed run does not run its body; the next run is the first grid point not
 *       before now. A run late by less than a period runs, and after it the next run is chosen as under
 *       RUN_ONCE. A skipped run still counts as a run for the executor: it was taken by a worker, its hooks
 *       ({@code beforeExecute}/{@code afterExecute}) are called and it counts in {@code tasksRun} and
 *       {@code missedRuns} of the {@linkplain WheelScheduledExecutorService#statistics() statistics}.
 * </ul>
 * Fixed-delay tasks have no grid and never miss a run: the per-task fixed-delay overload rejects any missed-run
 * policy but CATCH_UP with IllegalArgumentException, and a builder default's missed-run policy applies to
 * fixed-rate tasks only (its failure policy applies to both).
 *
 * <p>Failures: under {@link Failures#STOP} a run that throws completes the task's future exceptionally
 * ({@code get()} throws ExecutionException with that cause) and it never runs again. Under
 * {@link Failures#REPORT_AND_CONTINUE} the handler is called with the command as submitted and the throwable,
 * <b>on the thread that ran the task</b> (a worker of the executor), before the task is re-armed; then the
 * task goes on as if the run had completed normally. If the handler itself throws, the task stops as under
 * STOP, its future failing with the handler's throwable (the run's added as suppressed). A cancel during the
 * run still stops it. Every periodic run that throws counts in the statistics' {@code periodicFailures},
 * whatever the policy.
 */
public final class PeriodicPolicy {

    /** Fixed-rate runs missed because the task started a period or more late. See the class notes. */
    public enum MissedRuns {
        /** Run every missed run, back to back (STPE's behaviour, the default). */
        CATCH_UP,
        /** Run once, then continue at the first deadline of the grid that has not passed. */
        RUN_ONCE,
        /** Run none of the missed runs; continue at the first deadline of the grid that has not passed. */
        SKIP
    }

    /** What a run that throws does to its task. See the class notes. */
    public enum Failures {
        /** The task stops, its future failing with the throwable (STPE's behaviour, the default). */
        STOP,
        /** The handler is told, on the worker thread, and the task goes on. */
        REPORT_AND_CONTINUE
    }

    /** STPE's behaviour: CATCH_UP and STOP. */
    public static final PeriodicPolicy STPE = new PeriodicPolicy(MissedRuns.CATCH_UP, Failures.STOP, null);

    // Every field is immutable: each "with" method returns a new policy
    private final MissedRuns missedRuns;
    private final Failures failures;
    /** The REPORT_AND_CONTINUE handler (command as submitted, throwable); null under STOP. */
    private final BiConsumer<Runnable, Throwable> failureHandler;

    private PeriodicPolicy(MissedRuns missedRuns, Failures failures, BiConsumer<Runnable, Throwable> failureHandler) {
        this.missedRuns = missedRuns;
        this.failures = failures;
        this.failureHandler = failureHandler;
    }

    /**
     * This policy with the given missed-run policy.
     *
     * @param policy what a fixed-rate task does with missed runs
     * @return a policy with {@code policy} and this policy's failure policy
     * @throws NullPointerException if {@code policy} is null
     */
    public PeriodicPolicy missedRuns(MissedRuns policy) {
        return new PeriodicPolicy(Objects.requireNonNull(policy, "policy"), failures, failureHandler);
    }

    /**
     * This policy with REPORT_AND_CONTINUE: a run that throws calls {@code handler} (the command as submitted,
     * the throwable) on the worker thread that ran it, and the task goes on.
     *
     * @param handler told of each run that throws: the command as submitted, and the throwable
     * @return a policy with REPORT_AND_CONTINUE and this policy's missed-run policy
     * @throws NullPointerException if {@code handler} is null
     */
    public PeriodicPolicy reportAndContinue(BiConsumer<Runnable, Throwable> handler) {
        return new PeriodicPolicy(missedRuns, Failures.REPORT_AND_CONTINUE, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * This policy with STOP (a run that throws stops the task).
     *
     * @return a policy with STOP and this policy's missed-run policy
     */
    public PeriodicPolicy stopOnFailure() {
        return new PeriodicPolicy(missedRuns, Failures.STOP, null);
    }

    /** {@return what a fixed-rate task under this policy does with missed runs} */
    public MissedRuns missedRuns() {
        return missedRuns;
    }

    /** {@return what a run that throws does to a task under this policy} */
    public Failures failures() {
        return failures;
    }

    /** {@return the REPORT_AND_CONTINUE handler, or null under STOP} */
    public BiConsumer<Runnable, Throwable> failureHandler() {
        return failureHandler;
    }

    /** Whether this is STPE's behaviour (so a task under it needs nothing of this class). */
    boolean isStpe() {
        return missedRuns == MissedRuns.CATCH_UP && failures == Failures.STOP;
    }

    /** This policy as it applies to a fixed-delay task: the failure part only. */
    PeriodicPolicy forFixedDelay() {
        return missedRuns == MissedRuns.CATCH_UP ? this : new PeriodicPolicy(MissedRuns.CATCH_UP, failures, failureHandler);
    }

    @Override
    public String toString() {
        return "PeriodicPolicy[" + missedRuns + ", " + failures + "]";
    }
}
