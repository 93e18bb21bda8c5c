package io.timewheel.wheel;

/**
 * A timer: the node of a {@link TimerWheel}. Subclass it so that the object you schedule is its own wheel
 * node and its own O(1) cancel handle: no second allocation per timer, no search on removal.
 *
 * <p>Threading: the deadline is written by the entry's owner while the entry is in no wheel and no inbox,
 * and published to the wheel's thread by whatever hands the entry over (a {@link TimerInbox}, a lock).
 * Every other field belongs to the thread that owns the wheel holding the entry; {@link #deadline()} may
 * be read from any thread.
 */
public abstract class TimerEntry {

    /** {@link #location}: in no wheel. */
    static final int DETACHED = -1;
    /** {@link #location}: in its wheel's expired list, waiting for {@link TimerWheel#poll()}. */
    static final int EXPIRED = -2;

    /** Exact deadline, in {@link System#nanoTime()} units. Owner writes while detached; wheel reads. */
    long deadline;
    /** Insertion sequence, assigned by {@link TimerWheel#add}; breaks ties between equal deadlines. Wheel thread. */
    int sequence;
    /** Where the entry is: {@code level * 64 + slot}, {@link #EXPIRED} or {@link #DETACHED}. Wheel thread. */
    int location = DETACHED;
    /** Doubly-linked slot list. Wheel thread; {@code next} is also the {@link TimerInbox} link while queued. */
    TimerEntry prev, next;

    protected TimerEntry() {
    }

    protected TimerEntry(long deadline) {
        this.deadline = deadline;
    }

    /** The exact deadline, in {@link System#nanoTime()} units. Any thread. */
    public final long deadline() {
        return deadline;
    }

    /**
     * Sets the deadline. Owner only, and only while the entry is in no wheel (before {@link TimerWheel#add},
     * after {@link TimerWheel#poll} or {@link TimerWheel#remove}).
     *
     * @throws IllegalStateException if the entry is in a wheel
     */
    protected final void setDeadline(long deadline) {
        if (location != DETACHED) {
            throw new IllegalStateException("entry is in a wheel");
        }
        this.deadline = deadline;
    }

    /** The insertion sequence the wheel gave this entry at its last {@link TimerWheel#add}. Wheel thread. */
    public final int sequence() {
        return sequence;
    }

    /** Whether the entry is in a wheel (pending or expired but not yet polled). Wheel thread only. */
    public final boolean isInWheel() {
        return location != DETACHED;
    }
}
