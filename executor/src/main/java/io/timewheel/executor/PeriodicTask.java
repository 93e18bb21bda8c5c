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
     * run), then, if the run state lets it run again (else it is cancelled), RUNNING to QUEUED (IDLE when a
     * decorator's holder is queued instead) and back into the queue (TaskQueue.reExecutePeriodic, which the
     * executor answers as STPE's reExecutePeriodic). Runs never overlap because only one thread can
     * hold RUNNING, and each run happens-before the next through the queue hand-off.
     *
     * time: the current scheduled time, what nextDeadline() returns. Written (after construction) only by
     * the thread running the task, before the re-arm CAS that publishes it; read from any thread (getDelay,
     * compareTo, TaskQueue, ReadyQueue's check of its head). The deadline the wheel and the ready heap order
     * by is a copy of it (deadline(), refreshed by whoever places the task), so time can change while a copy
     * under the old time waits in either. After a worker's run (claimed from TAKEN) the worker had popped it
     * from the ready heap, and it goes back through TaskQueue.dispatch. After a direct run
     * (someone called run() while it was queued, or after removing it) it may still be filed in the wheel,
     * or have a stale copy in the ready heap: the tick thread takes it out of the wheel before filing it
     * again (QueueWheel.refile), and the ready heap drops a head whose nextDeadline() is not the
     * deadline it copied (ReadyQueue's notes), so the stale copy never runs it early.
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
    long fixedRatePeriod() {
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
        if (runAndReset()) {
            time = period > 0 ? time + period : queue.triggerTime(-period);
            queue.reExecutePeriodic(this, claimedFrom == TAKEN);
        }
    }
}
