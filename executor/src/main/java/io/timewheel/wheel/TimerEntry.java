package io.timewheel.wheel;

/**
 * A timer: the node of a {@link TimerWheel}. Subclass it so that the object you schedule is its own wheel
 * node and its own O(1) cancel handle: no second allocation per timer, no search on removal.
 *
 * <p>Threading: the deadline is written by the entry's owner while the entry is in no wheel and no inbox,
 * and published to the wheel's thread by whatever hands the entry over (a {@link StripedInbox}, a lock).
 * Every other field belongs to the thread that owns the wheel holding the entry (and, while the entry is
 * offered, to its inbox); {@link #deadline()} may be read from any thread.
 */
public abstract class TimerEntry {

    /** {@link #location}: in no wheel. */
    static final int DETACHED = -1;
    /** {@link #location}: in a {@link StripedInbox}, offered and not yet handed out or retracted. */
    static final int IN_INBOX = -3;
    /**
     * {@link #location}: at or below it, in its wheel's {@link SortedRun} (found due and waiting for
     * {@link TimerWheel#poll()}, or in the current slot), at position {@code IN_RUN - location}.
     */
    static final int IN_RUN = -4;

    /** Exact deadline, in {@link System#nanoTime()} units. Owner writes while detached; wheel reads. */
    long deadline;
    /**
     * Breaks ties between equal deadlines: assigned by {@link TimerWheel#add}, or given at construction and
     * kept by {@link TimerWheel#addInSequence}. Wheel thread (immutable if given at construction).
     */
    int sequence;
    /**
     * Where the entry is: {@code row * 64 + slot} (TimerWheel's notes: level k's banks are rows 2k and 2k + 1),
     * {@link #IN_RUN} minus a position in the wheel's sorted run, {@link #IN_INBOX} or {@link #DETACHED}.
     * Wheel thread; written by a {@link StripedInbox}'s producer before it publishes the entry, and by one
     * that retracts it.
     */
    int location = DETACHED;
    /**
     * Doubly-linked slot list (null in the sorted run). Wheel thread; {@code next} is also the
     * {@link StripedInbox} link while the entry is offered there.
     */
    TimerEntry prev, next;

    /** An entry with deadline 0, to be set with {@link #setDeadline} before it is added to a wheel. */
    protected TimerEntry() {
    }

    /**
     * An entry with the given deadline, whose ties are broken by the sequence {@link TimerWheel#add} assigns.
     *
     * @param deadline the exact deadline, in {@link System#nanoTime()} units
     */
    protected TimerEntry(long deadline) {
        this.deadline = deadline;
    }

    /**
     * An entry whose ties between equal deadlines are broken by {@code sequence} (compared with wrap-around,
     * so entries whose sequences are less than 2^31 apart compare correctly), for wheels it is added to with
     * {@link TimerWheel#addInSequence}: a caller that takes sequences from one counter when timers are
     * created gets creation order for equal deadlines, whatever order the wheel's thread receives them in.
     *
     * @param deadline the exact deadline, in {@link System#nanoTime()} units
     * @param sequence the tie-break among entries with the same deadline: the lower runs first
     */
    protected TimerEntry(long deadline, int sequence) {
        this.deadline = deadline;
        this.sequence = sequence;
    }

    /** {@return the exact deadline, in {@link System#nanoTime()} units} Any thread. */
    public final long deadline() {
        return deadline;
    }

    /**
     * Sets the deadline. Owner only, and only while the entry is in no wheel (before {@link TimerWheel#add},
     * after {@link TimerWheel#poll} or {@link TimerWheel#remove}).
     *
     * @param deadline the exact deadline, in {@link System#nanoTime()} units
     * @throws IllegalStateException if the entry is in a wheel
     */
    protected final void setDeadline(long deadline) {
        if (location != DETACHED) {
            throw new IllegalStateException("entry is in a wheel");
        }
        this.deadline = deadline;
    }

    /**
     * {@return the sequence that breaks ties between equal deadlines} It is the one given at construction, or
     * the one the wheel gave at its last {@link TimerWheel#add}. Wheel thread, or any thread if given at
     * construction.
     */
    public final int sequence() {
        return sequence;
    }

    /** {@return whether the entry is in a wheel (pending, or expired but not yet polled)} Wheel thread only. */
    public final boolean isInWheel() {
        return location >= 0 || location <= IN_RUN;
    }

    /**
     * {@return whether the entry is in a {@link StripedInbox}: offered, and neither handed out by its
     * {@code poll} nor retracted} Wheel thread only, for an entry whose offer happened before (the offering
     * thread's later actions are what tell the wheel thread about the entry).
     */
    public final boolean isInInbox() {
        return location == IN_INBOX;
    }
}
