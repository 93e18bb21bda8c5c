package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.LowBound;

/**
 * The state one queue's producers and the tick thread share: the two deadline bounds of the hand-off
 * protocol (TaskQueue's notes: earliest, pendingLow) and whether the executor has terminated. Producer-side
 * methods: any thread; the others: the tick thread only.
 */
public final class HandOffBounds {

    /**
     * A lower bound on the deadlines the tick thread holds for this queue (TaskQueue's notes). Any thread:
     * lowered by producers (CAS), raised by the tick thread (CAS from the value it read before its drain).
     */
    private final LowBound earliest;
    /**
     * At or before every deadline offered to the tick thread for this queue since its last reset (TaskQueue's
     * notes). Any thread: lowered by producers (CAS), reset by the tick thread right before each detachAll.
     * The tick thread keeps a second one (ParkGate's), which covers the offers to every queue it serves and
     * sets its wake-up; this queue's own keeps an unread offer to another executor from holding back this
     * queue's hand-overs and its producers' pushes straight to the workers.
     */
    private final LowBound pendingLow;
    /**
     * The executor has terminated. Written once (false to true) by the terminating thread; read by the tick
     * thread (QueueWheel.retire) and by any thread (TaskQueue.isTerminated).
     */
    private volatile boolean terminated;

    HandOffBounds(long now) {
        this.earliest = new LowBound(now + Long.MAX_VALUE); // nothing held: after every deadline
        this.pendingLow = new LowBound(LowBound.resetValue(now)); // nothing offered
    }

    // ---------------------------------------------------------------------------------------------
    // Producers: any thread

    /**
     * Whether an entry due at {@code deadline} may skip the tick thread: it is before every deadline the tick
     * thread holds (earliest) and every one offered to it and not read (pendingLow). Reads pendingLow, then
     * earliest: in that order only (TaskQueue's notes, "Read order").
     */
    boolean mayBypass(long deadline) {
        return deadline - pendingLow.get() < 0 && deadline - earliest.get() < 0;
    }

    /**
     * After an entry was offered to the tick thread: keeps both bounds lower bounds, pendingLow first (so that
     * a lowering of earliest that the tick thread's raise overtakes is seen by its second read of pendingLow).
     */
    void offered(long deadline) {
        pendingLow.lower(deadline);
        earliest.lower(deadline);
    }

    /** The executor has terminated. The terminating thread, once. */
    void terminate() {
        terminated = true;
    }

    // ---------------------------------------------------------------------------------------------
    // The tick thread

    /** The earliest bound, read before the drain (QueueWheel.beginDrain) and when a wheel is created. */
    long earliest() {
        return earliest.get();
    }

    /** The pendingLow bound: the hand-over limit, read after the drain and before the hand-over (QueueWheel.expire). */
    long pendingLow() {
        return pendingLow.get();
    }

    /** Resets pendingLow to {@code value} (LowBound.resetValue), right before the tick thread detaches its inbox. */
    void resetPending(long value) {
        pendingLow.set(value);
    }

    /**
     * After the hand-over: raises earliest from {@code seen} (read before the drain) to {@code raise} (the
     * lower of the wheel's next deadline and {@code limit}), unless a producer changed it since; then lowers
     * it to pendingLow if that fell below {@code limit} (the pendingLow read before the hand-over) meanwhile.
     * The two steps are consecutive, and a producer that reads earliest between them sees the raise
     * (TaskQueue's notes, "Read order").
     */
    void raiseEarliest(long seen, long raise, long limit) {
        earliest.raise(seen, raise);
        long fell = pendingLow.get();
        if (fell - limit < 0) {
            earliest.lower(fell); // offered while it raised
        }
    }

    /** Whether the executor has terminated (its wheel may go once empty). Any thread. */
    boolean isTerminated() {
        return terminated;
    }
}
