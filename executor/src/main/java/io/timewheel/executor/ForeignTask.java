package io.timewheel.executor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RunnableScheduledFuture;

/**
 * The queue entry of a task that {@code decorateTask} replaced by an object of another class: the wheel
 * holds this holder, workers run (and hooks and {@code getQueue()} see) the decorated task.
 *
 * <p>We cannot observe a foreign task's cancellation, so, as on STPE, a cancelled decorated task stays
 * queued until it is due (a worker then runs it, and its own run() does nothing) or until purge().
 */
final class ForeignTask extends QueuedTask {

    final RunnableScheduledFuture<?> task;
    /** 0 while queued, 1 once taken or removed. Any thread, via CAS. */
    private volatile int left;

    ForeignTask(WheelScheduledExecutorService owner, RunnableScheduledFuture<?> task, long deadline) {
        super(owner, deadline);
        this.task = task;
    }

    @Override
    Runnable task() {
        return task;
    }

    @Override
    boolean isQueued() {
        return left == 0;
    }

    @Override
    boolean tryFile() {
        return left == 0;
    }

    @Override
    boolean tryUnfile() {
        return left == 0;
    }

    @Override
    boolean tryTake() {
        return leave();
    }

    @Override
    int tryRemove() {
        return leave() ? REMOVED_FILED : NOT_REMOVED;
    }

    private boolean leave() {
        if (LEFT.compareAndSet(this, 0, 1)) {
            owner.dequeued();
            return true;
        }
        return false;
    }

    private static final VarHandle LEFT;

    static {
        try {
            LEFT = MethodHandles.lookup().findVarHandle(ForeignTask.class, "left", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
