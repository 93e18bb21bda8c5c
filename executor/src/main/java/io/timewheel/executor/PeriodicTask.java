package io.timewheel.executor;

import java.util.concurrent.RunnableScheduledFuture;

/**
 * A periodic task: fixed rate ({@code period > 0}) or fixed delay ({@code period < 0}), as in STPE. Any thread.
 */
final class PeriodicTask<V> extends ScheduledTask<V> {
    /*
     * Implementation notes
     *
     * A run is one claim (IDLE, QUEUED, FILED or TAKEN to RUNNING), one call of the body and, if it
     * completed normally and nobody cancelled meanwhile, a re-arm: the next time is computed (fixed rate:
     * previous time + period, so there is no drift; fixed delay: now + delay, measured from the end of the
     * run), then RUNNING to QUEUED (IDLE when a decorator's holder is queued instead) and back into the queue
     * (WheelScheduledExecutorService.reExecutePeriodic). Runs never overlap because only one thread can
     * hold RUNNING, and each run happens-before the next through the queue hand-off.
     *
     * time: the current scheduled time. Written by the thread that re-arms (while the task is out of the
     * wheel and the ready heap, before the hand-off that publishes it), read by getDelay from any thread;
     * the deadline the wheel and the ready heap order by is copied from it (refreshDeadline) by whoever
     * places the task, so it never changes while the task sits in either.
     * outerTask: what decorateTask returned for this task; that object is what is re-queued.
     */

    /** Fixed rate if positive, fixed delay if negative (nanoseconds). Immutable. */
    private final long period;
    /** Current scheduled time. See the notes. */
    private long time;
    /** The decorated task re-queued after each run. Written once, before the first publication. */
    RunnableScheduledFuture<V> outerTask = this;

    PeriodicTask(TaskQueue queue, Runnable command, long time, long period) {
        super(queue, command, time, Sequencer.nextForAnyDeadline(queue.sequenceCounters));
        this.time = time;
        this.period = period;
    }

    @Override
    long nextDeadline() {
        return time;
    }

    @Override
    public boolean isPeriodic() {
        return true;
    }

    @Override
    public void run() {
        if (!executor().canRunInCurrentRunState(this)) {
            cancel(false);
            return;
        }
        int claimedFrom = claimForRun();
        if (claimedFrom < 0) {
            return;
        }
        if (runAndReset()) {
            time = period > 0 ? time + period : executor().triggerTime(-period);
            executor().reExecutePeriodic(this, claimedFrom == TAKEN);
        }
    }
}
