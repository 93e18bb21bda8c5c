package io.timewheel.executor.internal.queue;

/**
 * An entry of one {@link TaskQueue}: the entry knowing its queue, the one reference in the executor that runs
 * upward (TaskEntry and TaskQueue name each other, the one cycle between classes). A cancel, a run and a
 * re-arm ask the queue, never the executor; the tick thread finds an entry's room (TaskQueue.wheel) through
 * it. Any thread.
 */
public abstract class TaskEntry extends QueueEntry {

    /** The queue this entry belongs to, queued or not. Immutable. */
    public final TaskQueue queue;

    /**
     * An entry whose ties between equal deadlines are broken by a sequence taken from its queue now, for
     * this deadline, which it keeps while queued (Sequencer).
     */
    protected TaskEntry(TaskQueue queue, long deadline) {
        this(queue, deadline, Sequencer.next(queue.sequenceCounters, deadline));
    }

    /** An entry with this sequence (from its queue's Sequencer). */
    protected TaskEntry(TaskQueue queue, long deadline, int sequence) {
        super(deadline, sequence);
        this.queue = queue;
    }

    /**
     * Puts the entry into the queue's membership before it is published (a task: IDLE to QUEUED); the caller
     * has counted it. An entry created queued does nothing.
     */
    protected abstract void markQueued();

    /**
     * After a periodic run: back into the queue (RUNNING to QUEUED), or, if {@code queued} is false (a
     * decorator's holder is queued instead), out of it (RUNNING to IDLE). False if it was cancelled meanwhile.
     * Only a periodic task is ever re-armed.
     */
    protected boolean rearm(boolean queued) {
        throw new UnsupportedOperationException("not a periodic task");
    }
}
