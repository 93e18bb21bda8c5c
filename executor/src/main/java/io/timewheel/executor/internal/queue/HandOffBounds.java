package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.LowBound;

/**
 * The state one queue's producers and the tick thread share: the two deadline bounds of the hand-off
 * protocol (TaskQueue's notes: earliest, pendingLow) and whether the executor has terminated. Producer-side
 * methods: any thread; the others: the tick thread only.
 */
public final class HandOffBounds {

    /** See TaskQueue's notes. Any thread: lowered by producers, raised by the tick thread, both by CAS. */
    private final LowBound earliest;
    /** See TaskQueue's notes. Any thread: lowered by producers, reset by the tick thread. */
    private final LowBound pendingLow;
    /** The executor has terminated. Written once (false to true) by the terminating thread; read by the tick thread. */
    private volatile boolean terminated;

    HandOffBounds(long now) {
        this.earliest = new LowBound(now + Long.MAX_VALUE);
        this.pendingLow = new LowBound(LowBound.resetValue(now));
    }

    // ---------------------------------------------------------------------------------------------
    // Producers: any thread

    /**
     * Whether an entry due at {@code deadline} may skip the tick thread: it is before every deadline the tick
     * thread holds (earliest) and every one offered to it and not read (pendingLow).
     */
    boolean mayBypass(long deadline) {
        return deadline - earliest.get() < 0 && deadline - pendingLow.get() < 0;
    }

    /** After an entry was offered to the tick thread: keeps both bounds lower bounds (pendingLow first). */
    void offered(long deadline) {
        pendingLow.lower(deadline);
        earliest.lower(deadline);
    }

    void terminate() {
        terminated = true;
    }

    // ---------------------------------------------------------------------------------------------
    // The tick thread

    /** The earliest bound, read before the drain (QueueWheel.beginDrain). */
    long earliest() {
        return earliest.get();
    }

    /** The pendingLow bound: the hand-over limit, read before the hand-over. */
    long pendingLow() {
        return pendingLow.get();
    }

    /** Right before the tick thread detaches its inbox. */
    void resetPending(long value) {
        pendingLow.set(value);
    }

    /**
     * After the hand-over: raises earliest from {@code seen} (read before the drain) to {@code raise}, then
     * lowers it again to pendingLow if that fell below {@code limit} (the pendingLow read before the
     * hand-over) meanwhile (TaskQueue's notes).
     */
    void raiseEarliest(long seen, long raise, long limit) {
        earliest.raise(seen, raise);
        long fell = pendingLow.get();
        if (fell - limit < 0) {
            earliest.lower(fell); // offered while it raised
        }
    }

    /** Whether the executor has terminated (its wheel may go once empty). */
    boolean isTerminated() {
        return terminated;
    }
}
