package io.timewheel.executor.internal.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RunnableScheduledFuture;

/**
 * The queue entry of a task that {@code decorateTask} replaced by an object of another class (or that was
 * offered through {@code getQueue()}): the queue's places hold this holder; workers run, and hooks and
 * {@code getQueue()} see, the decorated task itself. Any thread.
 */
public final class DecoratedEntry extends TaskEntry {
    /*
     * Implementation notes
     *
     * We cannot observe a foreign task's cancellation, so, as on STPE, a cancelled decorated task stays
     * queued until it is due (a worker then calls its run(), which for a cancelled future does nothing) or
     * until purge() or shutdown removes it.
     *
     * left: 0 while queued, 1 once taken or removed; any thread, via CAS. The holder is never re-queued:
     * a periodic decorated task gets a new holder for each run. Whether the tick thread filed the holder is
     * not recorded (tryFile and tryUnfile only read left), so tryRemove answers REMOVED_UNLINK and every
     * removal sends an Unlink (QueueEntry's notes).
     */

    /** What decorateTask returned. Immutable. */
    final RunnableScheduledFuture<?> task;
    /** 0 while queued, 1 once taken or removed (see the notes). Any thread, via CAS. */
    private volatile int left;

    public DecoratedEntry(TaskQueue queue, RunnableScheduledFuture<?> task, long deadline) {
        super(queue, deadline);
        this.task = task;
    }

    @Override
    public Runnable runnable() {
        return task;
    }

    @Override
    public boolean isQueued() {
        return left == 0;
    }

    @Override
    public boolean tryFile() {
        return left == 0;
    }

    @Override
    public boolean tryUnfile() {
        return left == 0;
    }

    @Override
    public boolean tryTake() {
        return leave();
    }

    @Override
    public int tryRemove() {
        return leave() ? REMOVED_UNLINK : NOT_REMOVED;
    }

    /** A holder is created queued. */
    @Override
    protected void markQueued() {
    }

    private boolean leave() {
        if (LEFT.compareAndSet(this, 0, 1)) {
            queue.uncount();
            return true;
        }
        return false;
    }

    private static final VarHandle LEFT;

    static {
        try {
            LEFT = MethodHandles.lookup().findVarHandle(DecoratedEntry.class, "left", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
