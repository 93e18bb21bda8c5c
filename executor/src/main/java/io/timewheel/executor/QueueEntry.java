package io.timewheel.executor;

import io.timewheel.wheel.TimerEntry;

/**
 * An entry of a {@link TaskQueue}: one of our own tasks, or the holder of a task that {@code decorateTask}
 * replaced by an object of another class. The entry is the wheel node, so scheduling allocates nothing
 * beyond the task. Any thread, except where a method says otherwise.
 */
abstract class QueueEntry extends TimerEntry {
    /*
     * Implementation notes
     *
     * The queue is three places: the tick thread's inbox, the queue's wheel (tick thread only) and its ready
     * heap. Which one holds an entry is an implementation detail; whether the entry is still queued is one
     * atomic fact owned by the entry (isQueued / tryTake / tryRemove), so leaving the queue happens exactly
     * once whoever does it: a worker taking it, remove(), shutdownNow(), a cancel. Whoever makes an entry
     * leave the queue uncounts it (TaskQueue.dequeued). The tick thread keeps an entry in the wheel only
     * while it is still queued; it drops the others when it next touches them or when an Unlink command
     * arrives. An entry knows whether the tick thread has filed it in the wheel (tryFile / tryUnfile), so
     * only the removal of a filed entry sends an Unlink: an entry that leaves the queue before the tick
     * thread read it from the inbox costs the tick thread nothing.
     */

    /** The queue this entry is in. Immutable. */
    final TaskQueue queue;

    /**
     * An entry whose ties between equal deadlines are broken by a sequence taken from its queue now, for
     * this deadline, which it keeps while queued (Sequencer).
     */
    QueueEntry(TaskQueue queue, long deadline) {
        this(queue, deadline, Sequencer.next(queue.sequenceCounters, deadline));
    }

    /** An entry with this sequence (from its queue's Sequencer). */
    QueueEntry(TaskQueue queue, long deadline, int sequence) {
        super(deadline, sequence);
        this.queue = queue;
    }

    /** The executor whose queue this is. */
    final WheelScheduledExecutorService executor() {
        return queue.executor;
    }

    /** The object that workers run and that {@code getQueue()} shows. */
    abstract Runnable task();

    /** {@link #tryRemove} results. */
    static final int NOT_REMOVED = -1, REMOVED = 0, REMOVED_FILED = 1;

    /** Whether the entry is still waiting in the queue. Any thread. */
    abstract boolean isQueued();

    /** Tick thread, before adding the entry to the wheel: false if it left the queue (drop it). */
    abstract boolean tryFile();

    /** Tick thread, before handing the entry to the ready queue: false if it left the queue (drop it). */
    abstract boolean tryUnfile();

    /** Leaves the queue to be run by a worker. Any thread; true for exactly one caller per queuing. */
    abstract boolean tryTake();

    /**
     * Leaves the queue without running (remove, shutdownNow, policy). Any thread; succeeds for exactly one
     * caller per queuing.
     *
     * @return {@link #NOT_REMOVED}, {@link #REMOVED}, or {@link #REMOVED_FILED} when the entry may be in the
     *         wheel (the caller then asks the tick thread to unlink it)
     */
    abstract int tryRemove();

    /** The time the tick thread should file the entry under when it next adds it to the wheel. */
    long nextDeadline() {
        return deadline();
    }

    /** Called by the tick thread before it adds the entry to a wheel, so the wheel reads a fresh deadline. */
    final void refreshDeadline() {
        long next = nextDeadline();
        if (next != deadline()) {
            setDeadline(next);
        }
    }
}
