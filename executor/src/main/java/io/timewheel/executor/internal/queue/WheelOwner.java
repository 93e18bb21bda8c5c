package io.timewheel.executor.internal.queue;

import java.util.List;

/**
 * What a {@link TaskQueue} and its {@link ReadyQueue} need from the thread that owns the queue's wheel (the
 * tick thread, which implements it): the queue declares it, as ThreadPoolExecutor declares its hooks, so
 * that nothing in this package names the thread above. Every method: any thread.
 */
public interface WheelOwner extends ReadyQueue.Waker {

    /**
     * Hands an entry that does not go straight to the ready queue to the owner's inbox, and wakes the owner if
     * {@code deadline} needs it sooner than it would look; {@code now}: the caller's clock reading. The owner
     * files it in its queue's room (a TaskEntry knows its queue). The caller then lowers its queue's bounds
     * (HandOffBounds.offered).
     */
    void offer(QueueEntry entry, long deadline, long now);

    /**
     * Files a re-armed periodic entry of {@code room}'s queue again for its new deadline, wherever it is now
     * (a command through the inbox: an offer, as the hand-off protocol counts them).
     */
    void refile(QueueWheel room, QueueEntry entry, long deadline);

    /**
     * Takes back an entry that left its queue before the owner read it, if it is the last one offered on the
     * caller's stripe; else the owner drops it when it reads it. The entry is not offered again.
     */
    void retract(QueueEntry entry);

    /** Drops an entry that left {@code room}'s queue from the wheel, so its memory does not wait for its deadline. */
    void unlink(QueueWheel room, QueueEntry entry);

    /**
     * The queue's entries, earliest deadline first, at one instant of the owner; with {@code take}, each is also
     * taken out of the queue. Waits for the answer.
     */
    List<QueueEntry> collect(QueueWheel room, boolean take);

    /** The queue's executor has terminated: its wheel may go once it is empty. */
    void queueTerminated();
}
