package io.timewheel.executor;

import io.timewheel.wheel.TimerEntry;

/**
 * An entry of a {@link TaskQueue}: one of our own tasks, or the holder of a task that {@code decorateTask}
 * replaced by an object of another class. The entry is the wheel node, so scheduling one of our own tasks
 * allocates nothing beyond the task. Any thread, except where a method says otherwise.
 */
abstract class QueueEntry extends TimerEntry {
    /*
     * Implementation notes
     *
     * The queue is three places: the tick thread's inbox, the queue's wheel (tick thread only) and its ready
     * heap. Which one holds an entry is an implementation detail; whether the entry is still queued is one
     * atomic fact owned by the entry (isQueued / tryTake / tryRemove), so leaving the queue happens exactly
     * once whoever does it: a worker taking it, remove(), shutdownNow(), a cancel, a direct run. Whoever
     * makes an entry leave the queue uncounts it (TaskQueue.uncount). The tick thread drops an entry that
     * left the queue from the wheel when an Unlink command for it arrives, when it comes due (tryUnfile
     * fails) or when a snapshot finds it.
     *
     * Unlink. A ScheduledTask knows whether the tick thread has filed it in the wheel (its FILED state, set
     * by tryFile, cleared by tryUnfile), so only the removal or cancel of a filed one sends an Unlink (a
     * direct run sends none); one that leaves the queue before the tick thread read it from the inbox costs
     * it no command (it is retracted, or dropped when read: tryFile fails). A DecoratedEntry does not record
     * filing: every removal of one sends an Unlink (tryRemove answers REMOVED_UNLINK), which does nothing if
     * the entry is not in the wheel when the tick thread runs it.
     */

    /** The queue this entry is in: all an entry talks to above it (never the executor). Immutable. */
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

    /** The object that workers run and that {@code getQueue()} shows. */
    abstract Runnable task();

    /** {@link #tryRemove} results. */
    static final int NOT_REMOVED = -1, REMOVED = 0, REMOVED_UNLINK = 1;

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
     * @return {@link #NOT_REMOVED}, {@link #REMOVED}, or {@link #REMOVED_UNLINK} when the entry may be in the
     *         wheel (the caller then asks the tick thread to unlink it)
     */
    abstract int tryRemove();

    /** The period of a fixed-rate periodic task of ours, else 0 (the statistics' missed runs and overruns). */
    long fixedRatePeriod() {
        return 0L;
    }

    /** The class of what the task runs, for the TaskLate event: the task's own class unless a subclass knows better. */
    String taskClassName() {
        return task().getClass().getName();
    }

    /** The time the tick thread should file the entry under when it next adds it to the wheel. */
    long nextDeadline() {
        return deadline();
    }

    /**
     * Called by whoever places the entry (the tick thread before it adds it to the wheel, a producer before it
     * pushes it to the ready queue), so the wheel or the ready queue reads a fresh deadline.
     */
    final void refreshDeadline() {
        long next = nextDeadline();
        if (next != deadline()) {
            setDeadline(next);
        }
    }
}
