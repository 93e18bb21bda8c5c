package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.timewheel.executor.internal.queue.TaskEntry;
import io.timewheel.executor.internal.queue.TaskQueue;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One timeout of a {@link WheelTimer}, in one object: the {@link Timeout} its caller holds, the entry that
 * waits in the shared wheel executor's queue, and the Runnable the executor's hand-off thread runs when the
 * entry comes due. Any thread.
 */
final class WheelTimeout extends TaskEntry implements Timeout, Runnable {
    /*
     * Implementation notes
     *
     * One object, one state word. The timeout is its own queue entry (as the executor's ScheduledTask is the
     * future, the entry and the runnable in one): newTimeout puts it straight into the shared executor's
     * queue (SharedWheel.queue), so a timeout costs one allocation and a cancel one CAS, which both decides
     * between running and cancelling and takes the entry out of the queue.
     *
     * state (any thread, via CAS; markQueued's store is a release store by the producer before it publishes
     * the timeout):
     *   IDLE        new: only newTimeout's thread has it
     *   QUEUED      in the executor's queue: its tick thread's inbox or its ready queue
     *   FILED       in the executor's queue, in the wheel (its tick thread filed it)
     *   TAKEN       the hand-off thread took it off the queue; then its timer's runner holds it until its deadline
     *   CANCELLED   cancel(); stop() collecting it; newTimeout withdrawing it; a removal through the
     *               executor's queue (no one removes the shared executor's entries but their timeouts)
     *   EXPIRED     on the timer's thread (or, with a task executor, the hand-off thread), just before the task
     *               runs or is handed to the task executor: isExpired() is true while it runs
     * transitions: IDLE -> QUEUED (newTimeout); QUEUED <-> FILED (tick thread); QUEUED | FILED -> TAKEN (the
     * hand-off thread's worker loop); TAKEN -> EXPIRED; IDLE | QUEUED | FILED | TAKEN -> CANCELLED.
     * HashedWheelTimeout's INIT is every state before CANCELLED. The thread whose CAS takes the timeout out of
     * INIT counts it out of the timer's pending count, the one count a timeout is in: the shared queue does not
     * count it (TaskQueue.addUncounted), so a timeout costs the timer's count and not the queue's as well. A
     * cancel that takes it out of the queue (QUEUED or FILED) has the tick thread forget it
     * (TaskQueue.forgetUncounted), so the wheel lets go of it within a drain, not at its deadline, as the
     * executor's own tasks do.
     *
     * Its path: the entry is due `lead` before the timeout's deadline (WheelTimer.LEAD_NANOS, or the whole delay if
     * shorter; 0 with a task executor); the executor's hand-off thread then takes it (or up to
     * WheelTimer.TAKE_AHEAD_NANOS before, when it looks anyway: takeAheadNanos) and runs run(), which
     * queues it on its timer's runner (WheelTimer.dueOnHandOffThread); the runner's thread waits for the
     * deadline (due()), expires it and runs the task (WheelTimer.OnTimerThread). A timeout cancelled while its
     * runner holds it (in its last lead) is let go of at its deadline.
     *
     * Layout with compressed oops: 12 header + 24 TimerEntry + 4 queue + 4 timer + 4 task + 4 state + 4 lead
     * = 56 bytes per pending timeout.
     */

    static final int IDLE = 0;
    static final int QUEUED = 1;
    static final int FILED = 2;
    static final int TAKEN = 3;
    static final int CANCELLED = 4;
    static final int EXPIRED = 5;

    /** The timer. Immutable. */
    final WheelTimer timer;
    /** The user's task. Immutable. */
    private final TimerTask task;
    /** How long before the timeout's deadline its entry is due (see the notes). Immutable. */
    private final int lead;
    /** See the notes. Any thread, via CAS. */
    private volatile int state;

    /**
     * A timeout of {@code timer} due at {@code entryDeadline + lead}, whose entry in {@code queue} (the shared
     * executor's) is due at {@code entryDeadline}.
     */
    WheelTimeout(TaskQueue queue, WheelTimer timer, TimerTask task, long entryDeadline, int lead) {
        super(queue, entryDeadline);
        this.timer = timer;
        this.task = task;
        this.lead = lead;
    }

    /** When the task may run, a System.nanoTime() value: its entry's deadline plus the lead. Any thread. */
    long due() {
        return deadline() + lead;
    }

    // ---------------------------------------------------------------------------------------------
    // Timeout

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
        if (!withdraw()) {
            return false;
        }
        timer.cancelled(this);
        return true;
    }

    /** Cancels without the cancellation callback (stop() collecting it, newTimeout withdrawing it). */
    boolean withdraw() {
        for (;;) {
            int s = state;
            if (s >= CANCELLED) {
                return false;
            }
            if (STATE.compareAndSet(this, s, CANCELLED)) {
                timer.leftPending();
                if (s == QUEUED || s == FILED) {
                    queue.forgetUncounted(this, s == FILED);
                }
                return true;
            }
        }
    }

    /** On the timer's thread, or the hand-off thread for a task executor: TAKEN -> EXPIRED. */
    boolean expire() {
        if (STATE.compareAndSet(this, TAKEN, EXPIRED)) {
            timer.leftPending();
            return true;
        }
        return false;
    }

    /** On the hand-off thread, the lead before the deadline (at it, with a task executor). */
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

    // ---------------------------------------------------------------------------------------------
    // Queue entry (TaskEntry): the executor's side

    /** What the executor's worker (the hand-off thread) runs, and its getQueue() shows: this timeout. */
    @Override
    public Runnable runnable() {
        return this;
    }

    /**
     * A timeout handed over ahead of its deadline may be handed over up to WheelTimer.TAKE_AHEAD_NANOS earlier
     * still, whenever the hand-off thread looks (see WheelTimer's notes: the lead); one handed over at its
     * deadline (to a task executor) not at all.
     */
    @Override
    public long takeAheadNanos() {
        return lead == 0 ? 0L : WheelTimer.TAKE_AHEAD_NANOS;
    }

    /** The TimerTask's class, for the executor's TaskLate event. */
    @Override
    public String taskClassName() {
        return task.getClass().getName();
    }

    @Override
    public boolean isQueued() {
        int s = state;
        return s == QUEUED || s == FILED;
    }

    @Override
    public boolean tryFile() {
        return state == QUEUED && STATE.compareAndSet(this, QUEUED, FILED);
    }

    @Override
    public boolean tryUnfile() {
        return STATE.compareAndSet(this, FILED, QUEUED);
    }

    @Override
    public boolean tryTake() {
        for (int s; (s = state) == QUEUED || s == FILED; ) {
            if (STATE.compareAndSet(this, s, TAKEN)) {
                return true;
            }
        }
        return false;
    }

    /** A removal through the executor's queue cancels the timeout: it will never run. */
    @Override
    public int tryRemove() {
        for (int s; (s = state) == QUEUED || s == FILED; ) {
            if (STATE.compareAndSet(this, s, CANCELLED)) {
                timer.leftPending();
                return s == FILED ? REMOVED_UNLINK : REMOVED;
            }
        }
        return NOT_REMOVED;
    }

    /** IDLE to QUEUED, before newTimeout publishes the timeout; the queue has counted it. */
    @Override
    protected void markQueued() {
        STATE.lazySet(this, QUEUED);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(192).append("WheelTimeout(deadline: ");
        long remaining = due() - System.nanoTime();
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
