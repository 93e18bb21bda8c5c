package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * One timeout of a {@link WheelTimer}: the {@link Timeout} its caller holds, and the Runnable the timer's
 * executor runs when it comes due. Any thread.
 */
final class WheelTimeout implements Timeout, Runnable {
    /*
     * Implementation notes
     *
     * state (any thread, via CAS), HashedWheelTimeout's three states:
     *   INIT -> EXPIRED     run() by the timer's thread at the deadline, just before the task runs (or is
     *                       handed to the task executor): isExpired() is true while it runs
     *   INIT -> CANCELLED   cancel(); stop() collecting it (run() after the stop); newTimeout withdrawing it
     * The one CAS out of INIT decides between running and cancelling, so a task never runs after a cancel
     * that returned true, and the thread that wins it counts the timeout out of the pending count.
     *
     * cancel() then cancels the future, which takes the task out of the executor's queue (and, if the tick
     * thread filed it, out of the wheel when it reads the unlink) and drops the executor's reference to this
     * object: the timer keeps nothing of a cancelled timeout.
     */

    static final int INIT = 0;
    static final int CANCELLED = 1;
    static final int EXPIRED = 2;

    /** The timer. Immutable. */
    private final WheelTimer timer;
    /** The user's task. Immutable. */
    private final TimerTask task;
    /**
     * The executor's future, for cancel(). Written by newTimeout before it returns this timeout, so a cancel()
     * on a thread the caller handed the timeout to sees it. A thread that got the timeout through a data race
     * may see null: its cancel() still wins the state, so the task never runs, but the executor keeps its entry
     * until the deadline.
     */
    ScheduledFuture<?> future;
    /** See the notes. Any thread, via CAS. */
    private volatile int state;

    WheelTimeout(WheelTimer timer, TimerTask task) {
        this.timer = timer;
        this.task = task;
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
        if (!STATE.compareAndSet(this, INIT, CANCELLED)) {
            return false;
        }
        ScheduledFuture<?> f = future;
        if (f != null) {
            f.cancel(false);
        }
        timer.leftPending();
        timer.cancelled(this);
        return true;
    }

    /** newTimeout's undo after a racing stop(): cancels without the cancellation callback. */
    boolean withdraw() {
        if (!STATE.compareAndSet(this, INIT, CANCELLED)) {
            return false;
        }
        future.cancel(false);
        timer.leftPending();
        return true;
    }

    /**
     * The executor's side: at the deadline, on the timer's thread, expires the timeout and runs its task (or
     * hands it to the task executor); after a stop, cancels the timeout into stop()'s set instead.
     */
    @Override
    public void run() {
        WheelTimer t = timer;
        Queue<Timeout> stopped = t.stopped;
        if (stopped != null) {
            if (STATE.compareAndSet(this, INIT, CANCELLED)) {
                t.leftPending();
                stopped.add(this);
            }
            return;
        }
        if (!STATE.compareAndSet(this, INIT, EXPIRED)) {
            return; // cancelled after the executor took it
        }
        t.leftPending();
        Executor executor = t.taskExecutor;
        if (executor == null) {
            runTask();
            return;
        }
        try {
            executor.execute(this::runTask);
        } catch (Throwable e) {
            if (t.logger.isWarnEnabled()) {
                t.logger.warn("An exception was thrown while submit " + TimerTask.class.getSimpleName() + " for execution.", e);
            }
        }
    }

    /** Runs the task; what it throws is logged, as HashedWheelTimer logs it, and goes no further. */
    private void runTask() {
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
        ScheduledFuture<?> f = future;
        StringBuilder sb = new StringBuilder(192).append("WheelTimeout(deadline: ");
        if (f == null) {
            sb.append("not scheduled yet");
        } else {
            long remaining = f.getDelay(NANOSECONDS);
            if (remaining > 0) {
                sb.append(remaining).append(" ns later");
            } else if (remaining < 0) {
                sb.append(-remaining).append(" ns ago");
            } else {
                sb.append("now");
            }
        }
        if (isCancelled()) {
            sb.append(", cancelled");
        }
        return sb.append(", task: ").append(task).append(')').toString();
    }

    private static final AtomicIntegerFieldUpdater<WheelTimeout> STATE =
            AtomicIntegerFieldUpdater.newUpdater(WheelTimeout.class, "state");
}
