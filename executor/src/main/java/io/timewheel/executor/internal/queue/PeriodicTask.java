package io.timewheel.executor.internal.queue;

import io.timewheel.executor.PeriodicPolicy;

import java.util.concurrent.RunnableScheduledFuture;

/**
 * A periodic task: fixed rate ({@code period > 0}) or fixed delay ({@code period < 0}), as in STPE. Any thread.
 */
public final class PeriodicTask<V> extends ScheduledTask<V> {
    /*
     * Implementation notes
     *
     * A run is one claim (IDLE, QUEUED, FILED or TAKEN to RUNNING), one call of the body and, if it
     * completed normally and nobody cancelled meanwhile, a re-arm: the next time is computed (fixed rate:
     * previous time + period, so there is no drift; fixed delay: now + delay, measured from the end of the
     * run), then, if the run state lets it run again (else it is cancelled), RUNNING to QUEUED (IDLE when a
     * decorator's holder is queued instead) and back into the queue (TaskQueue.reExecutePeriodic, which the
     * executor answers as STPE's reExecutePeriodic). Runs never overlap because only one thread can
     * hold RUNNING, and each run happens-before the next through the queue hand-off.
     *
     * time: the current scheduled time, what nextDeadline() returns. Written (after construction) only by
     * the thread running the task, before the re-arm CAS that publishes it; read from any thread (getDelay,
     * compareTo, TaskQueue, ReadyQueue's check of its head). The deadline the wheel and the ready queue order
     * by is a copy of it (deadline(), refreshed by whoever places the task), so time can change while a copy
     * under the old time waits in either. After a worker's run (claimed from TAKEN) the worker had popped it
     * from the ready queue, and it goes back through TaskQueue.dispatch. After a direct run (someone called
     * run() while it was queued, or after removing it) it may still be filed in the wheel, or have a stale
     * copy in the ready queue: the tick thread takes it out of the wheel before filing it again
     * (QueueWheel.refile), and the ready queue drops a head whose nextDeadline() is not the deadline it
     * copied (ReadyQueue's notes), so the stale copy never runs it early.
     * outerTask: what decorateTask returned for this task; that object is what is re-queued.
     *
     * Policies (PeriodicPolicy, its class notes say what each does). policy is null under STPE's behaviour
     * (the default), and then run() is exactly the path above: no clock read or write beyond STPE's. Otherwise,
     * for a fixed-rate task, the thread running the task reads the clock once at the start of the run
     * (SKIP: is it a period or more late? then the body is not called) and once at its end (RUN_ONCE and
     * SKIP: the next time, time + period, moved forward by whole periods to the first grid point not
     * before that reading: skipAhead). A run that throws asks continueAfter: it counts the failure in the
     * queue (TaskQueue.periodicRunFailed, which the executor keeps in a LongAdder: a shared write per
     * failure, never per run) and, under REPORT_AND_CONTINUE, calls the handler on this thread and goes on
     * to the re-arm as if the run had completed.
     * command: the Runnable as submitted (what the failure handler is given); null when policy is null.
     */

    /** Fixed rate if positive, fixed delay if negative (nanoseconds). Immutable. */
    private final long period;
    /**
     * Current scheduled time. Written by the thread running the task, published by the re-arm CAS; read by
     * any thread (see the notes).
     */
    private long time;
    /** The decorated task re-queued after each run. Written once, before the first publication. */
    private RunnableScheduledFuture<V> outerTask = this;
    /** The task's policies, or null for STPE's behaviour. Immutable. */
    private final PeriodicPolicy policy;
    /** The command as submitted, for the failure handler; null when policy is null. Immutable. */
    private final Runnable command;

    /**
     * A task under {@code policy} (null or STPE's: none); {@code body} is what runs, {@code command} what was
     * submitted.
     */
    public PeriodicTask(TaskQueue queue, Runnable body, long time, long period, PeriodicPolicy policy,
                        Runnable command) {
        super(queue, body, time, Sequencer.nextForAnyDeadline(queue.sequenceCounters));
        this.time = time;
        this.period = period;
        this.policy = policy;
        this.command = policy == null ? null : command;
    }

    /** What decorateTask returned for this task: the object re-queued after each run. Any thread. */
    public RunnableScheduledFuture<V> outerTask() {
        return outerTask;
    }

    /** Sets what decorateTask returned, before the task is first published. */
    public void decoratedAs(RunnableScheduledFuture<V> outer) {
        this.outerTask = outer;
    }

    @Override
    public long nextDeadline() {
        return time;
    }

    @Override
    public long fixedRatePeriod() {
        return period > 0 ? period : 0L;
    }

    @Override
    public boolean isPeriodic() {
        return true;
    }

    @Override
    public void run() {
        int claimedFrom = beginRun();
        if (claimedFrom < 0) {
            return;
        }
        PeriodicPolicy p = policy;
        if (p == null || period < 0 || p.missedRuns() == PeriodicPolicy.MissedRuns.CATCH_UP) {
            if (runAndReset(false)) {
                time = period > 0 ? time + period : queue.triggerTime(-period);
                queue.reExecutePeriodic(this, claimedFrom == TAKEN);
            }
            return;
        }
        // fixed rate, RUN_ONCE or SKIP
        boolean skip = p.missedRuns() == PeriodicPolicy.MissedRuns.SKIP
                && queue.clock.nanoTime() - time >= period; // started a period or more late: a missed run
        if (runAndReset(skip)) {
            time = skipAhead(time + period, queue.clock.nanoTime(), period);
            queue.reExecutePeriodic(this, claimedFrom == TAKEN);
        }
    }

    /** The first of {@code next + k * period} (k >= 0) that is not before {@code now}. */
    static long skipAhead(long next, long now, long period) {
        long behind = now - next;
        if (behind <= 0) {
            return next;
        }
        long periods = behind / period + (behind % period == 0 ? 0 : 1);
        return next + periods * period;
    }

    @Override
    boolean continueAfter(Throwable ex) {
        queue.periodicRunFailed();
        PeriodicPolicy p = policy;
        if (p == null || p.failures() != PeriodicPolicy.Failures.REPORT_AND_CONTINUE) {
            return super.continueAfter(ex);
        }
        try {
            p.failureHandler().accept(command, ex);
        } catch (Throwable handlerFailure) {
            if (handlerFailure != ex) {
                handlerFailure.addSuppressed(ex);
            }
            return super.continueAfter(handlerFailure);
        }
        return true;
    }
}
