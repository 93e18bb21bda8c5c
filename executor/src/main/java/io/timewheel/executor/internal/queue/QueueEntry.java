package io.timewheel.executor.internal.queue;

import io.timewheel.wheel.TimerEntry;

/**
 * What every place of a queue holds (the tick thread's inbox and wheel, the ready queue) and every consumer
 * takes: a timer entry whose membership of its queue is one atomic fact it owns. It knows nothing of its
 * queue; {@link TaskEntry} adds that, so the places (ReadyQueue, QueueWheel, HandOverBatch) hold entries
 * that name no queue. Any thread, except where a method says otherwise.
 */
public abstract class QueueEntry extends TimerEntry {
    /*
     * Implementation notes
     *
     * The queue is three places: the tick thread's inbox, the queue's wheel (tick thread only) and its ready
     * queue. Which one holds an entry is an implementation detail; whether the entry is still queued is one
     * atomic fact owned by the entry (isQueued / tryTake / tryRemove), so leaving the queue happens exactly
     * once whoever does it: a worker taking it, remove(), shutdownNow(), a cancel, a direct run. Whoever
     * makes an entry leave the queue counts it out (TaskQueue.uncount, or TaskQueue.cancelled for a cancel),
     * unless the queue never counted it in (TaskQueue.addUncounted: its owner counts it).
     * A place may keep an entry that left the queue until it next looks at it: the tick thread drops it from
     * the inbox when it reads it (tryFile fails), from the wheel when an Unlink for it arrives, when it comes
     * due (tryUnfile fails) or when a snapshot finds it; the ready queue when it comes to the head.
     *
     * Unlink. An entry that records its filing (a ScheduledTask: FILED, set by tryFile, cleared by tryUnfile)
     * answers REMOVED_UNLINK from tryRemove only if the tick thread filed it, so only the removal of a filed
     * one costs an Unlink command; one that never records it (a DecoratedEntry) answers REMOVED_UNLINK for
     * every removal, and an Unlink of an entry in no wheel does nothing.
     */

    /** {@link #tryRemove} results. */
    public static final int NOT_REMOVED = -1, REMOVED = 0, REMOVED_UNLINK = 1;

    protected QueueEntry(long deadline, int sequence) {
        super(deadline, sequence);
    }

    /** The object that workers run and that {@code getQueue()} shows. */
    public abstract Runnable runnable();

    /** Whether the entry is still waiting in the queue. Any thread. */
    public abstract boolean isQueued();

    /** Tick thread, before adding the entry to the wheel: false if it left the queue (drop it). */
    public abstract boolean tryFile();

    /** Tick thread, before handing the entry to the ready queue: false if it left the queue (drop it). */
    public abstract boolean tryUnfile();

    /** Leaves the queue to be run by a worker. Any thread; true for exactly one caller per queuing. */
    public abstract boolean tryTake();

    /**
     * Leaves the queue without running (remove, shutdownNow, policy). Any thread; succeeds for exactly one
     * caller per queuing.
     *
     * @return {@link #NOT_REMOVED}, {@link #REMOVED}, or {@link #REMOVED_UNLINK} when the entry may be in the
     *         wheel (the caller then asks the tick thread to unlink it)
     */
    public abstract int tryRemove();

    /**
     * How long before its deadline a worker that finds this entry at the head of the ready queue may take it; it
     * never waits for that moment, only for the deadline. 0, never early, for every task of the executor's own.
     * An entry whose deadline is a hand-over time ahead of its task's own (the netty module's timeouts, which
     * their timer's thread then holds until the task's deadline) allows some, so that one wake-up of a worker
     * takes every such entry falling due within it, in the queue's order. Any thread.
     */
    public long takeAheadNanos() {
        return 0L;
    }

    /** The period of a fixed-rate periodic task of ours, else 0 (the statistics' missed runs and overruns). */
    public long fixedRatePeriod() {
        return 0L;
    }

    /** The class of what the task runs, for the TaskLate event: the task's own class unless a subclass knows better. */
    public String taskClassName() {
        return runnable().getClass().getName();
    }

    /** The time the entry is to be placed under when it is next filed or pushed. Any thread. */
    public long nextDeadline() {
        return deadline();
    }

    /**
     * Called by whoever places the entry (the tick thread before it adds it to the wheel, a producer before it
     * pushes it to the ready queue), so the wheel or the ready queue reads a fresh deadline.
     */
    public final void refreshDeadline() {
        long next = nextDeadline();
        if (next != deadline()) {
            setDeadline(next);
        }
    }
}
