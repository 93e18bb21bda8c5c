package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One timeout of a {@link WheelTimer}: the {@link Timeout} its caller holds, and the Runnable the shared wheel
 * executor runs when it comes due. Any thread.
 */
final class WheelTimeout implements Timeout, Runnable, SharedWheel.Scheduled {
    /*
     * Implementation notes
     *
     * state (any thread, via CAS), HashedWheelTimeout's three states:
     *   INIT -> EXPIRED     on the timer's thread (or, with a task executor, the hand-off thread), just before
     *                       the task runs or is handed to the task executor: isExpired() is true while it runs
     *   INIT -> CANCELLED   cancel(); the timer's stop() collecting it; newTimeout withdrawing it
     * The one CAS out of INIT decides between running and cancelling, so a task never runs after a cancel
     * that returned true, and the thread that wins it counts the timeout out of the timer's pending count.
     *
     * Its path: the shared executor runs run() WheelTimer.LEAD_NANOS before the deadline (at the deadline with a
     * task executor), on its hand-off thread, which queues the timeout on the timer's runner
     * (WheelTimer.dueOnHandOffThread); the runner's thread waits for the deadline, expires it and runs the task
     * (WheelTimer.OnTimerThread -> expire). A cancel cancels the future too, which takes the timeout out of the
     * executor's queue at once (and out of the wheel when the tick thread reads the unlink): the timer keeps no
     * reference to a cancelled timeout, but for one cancelled in the lead before its deadline, which its
     * runner holds until that deadline.
     *
     * future: written by newTimeout before it returns this timeout, so a cancel() on a thread the caller
     * handed the timeout to sees it; a thread that got the timeout through a data race may see null: its
     * cancel() still wins the state, so the task never runs, and the executor drops the entry at its deadline.
     */

    static final int INIT = 0;
    static final int CANCELLED = 1;
    static final int EXPIRED = 2;

    /** The timer. Immutable. */
    final WheelTimer timer;
    /** The user's task. Immutable. */
    private final TimerTask task;
    /**
     * When the task may run, a System.nanoTime() value. Written by the producer's thread inside the executor's
     * schedule, before the entry is queued (SharedWheel's decorateTask: the entry's deadline plus the lead it
     * was scheduled ahead by), so every thread that gets the timeout from the executor, or from its runner,
     * reads it written; newTimeout first writes the lead there.
     */
    long deadline;
    /** The shared executor's future, for cancel(). See the notes. */
    ScheduledFuture<?> future;
    /** See the notes. Any thread, via CAS. */
    private volatile int state;

    WheelTimeout(WheelTimer timer, TimerTask task, long lead) {
        this.timer = timer;
        this.task = task;
        this.deadline = lead;
    }

    /** The executor's entry for this timeout is due at {@code entryDeadline}: the deadline is the lead later. */
    @Override
    public void scheduled(long entryDeadline) {
        deadline += entryDeadline;
    }

    @Override
    public Timer timer() {
        return timer.facade;
    }

    @Override
    public TimerTask task() {
        return task;
    }

    @Override
    public boolean isExpired() {
        return state == EXPIRED;
    }

    @Override
    public boolean isCancelled() {
        return state == CANCELLED;
    }

    /** Cancels the timeout if it has neither expired nor been cancelled; O(1), and the timer lets go of it. */
    @Override
    public boolean cancel() {
        if (!leave(CANCELLED)) {
            return false;
        }
        timer.cancelled(this);
        return true;
    }

    /** Cancels without the cancellation callback (stop() collecting it, newTimeout withdrawing it). */
    boolean withdraw() {
        return leave(CANCELLED);
    }

    /** On the timer's thread, or the hand-off thread for a task executor: INIT -> EXPIRED. */
    boolean expire() {
        return leave(EXPIRED);
    }

    /** The one CAS out of INIT; its winner counts the timeout out of the pending count and frees the entry. */
    private boolean leave(int to) {
        if (!STATE.compareAndSet(this, INIT, to)) {
            return false;
        }
        timer.leftPending();
        ScheduledFuture<?> f = future;
        if (to == CANCELLED && f != null) {
            f.cancel(false);
        }
        return true;
    }

    /** The shared executor's run, the lead before the deadline, on its hand-off thread. */
    @Override
    public void run() {
        timer.dueOnHandOffThread(this);
    }

    /** Runs the task; what it throws is logged, as HashedWheelTimer logs it, and goes no further. */
    void runTask() {
        try {
            task.run(this);
        } catch (Throwable e) {
            if (timer.logger.isWarnEnabled()) {
                timer.logger.warn("An exception was thrown by " + TimerTask.class.getSimpleName() + '.', e);
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(192).append("WheelTimeout(deadline: ");
        long remaining = deadline - System.nanoTime();
        if (remaining > 0) {
            sb.append(remaining).append(" ns later");
        } else if (remaining < 0) {
            sb.append(-remaining).append(" ns ago");
        } else {
            sb.append("now");
        }
        if (isCancelled()) {
            sb.append(", cancelled");
        }
        return sb.append(", task: ").append(task).append(')').toString();
    }

    private static final AtomicIntegerFieldUpdater<WheelTimeout> STATE =
            AtomicIntegerFieldUpdater.newUpdater(WheelTimeout.class, "state");
}
