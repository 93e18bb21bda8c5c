package io.timewheel.executor.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A time that any thread lowers by CAS and one owner resets or raises. Its users: the pendingLows of ParkGate
 * and HandOffBounds (a time at or before every deadline offered since the tick thread's last reset),
 * HandOffBounds' earliest (a time at or before every deadline of its queue that the tick thread holds), and
 * StarvationWatch's next look (lowered by pushers, raised by the tick thread after a look). Times compare
 * with wrap-around ({@code a - b < 0}), as System.nanoTime values must. Any thread.
 */
public final class LowBound {
    /*
     * Implementation notes
     *
     * A lowering never undoes a lower value (its CAS loop gives up once the bound is at or below its time).
     * A raise is a CAS from the value its owner read before it decided, so a lowering that came in between
     * stays and the owner looks again by it. A reset (set) is unconditional: its owner makes it right before it
     * reads everything the bound covered (the tick thread, before its detachAll). Every access is volatile or
     * a CAS: the protocols built on it (ParkGate's lost-wake-up argument, TaskQueue's hand-off) rest on these
     * accesses being sequentially consistent with the other volatile accesses they pair with.
     */

    /** The bound. Any thread: lowered by CAS (lower), reset by its owner (set), raised by its owner by CAS (raise). */
    private volatile long value;

    public LowBound(long value) {
        this.value = value;
    }

    /**
     * What a pendingLow bound is reset to: {@code now} + 2^62 ns (146 years), later than any deadline of a
     * queue ({@link #pending} tells it from a deadline).
     */
    public static long resetValue(long now) {
        return now + (Long.MAX_VALUE >> 1);
    }

    /**
     * Whether a value read from a pendingLow bound is a deadline offered since the last reset, not the reset
     * value: less than 2^61 ns (73 years) ahead of {@code now}, where a reset value lies 2^62 ns ahead (compared
     * with an indefinite wake-up time, {@code now + Long.MAX_VALUE}, a reset value would look earlier than it).
     */
    public static boolean pending(long low, long now) {
        return low - (now + (Long.MAX_VALUE >> 2)) < 0;
    }

    public long get() {
        return value;
    }

    /** The owner's reset (a volatile write). */
    public void set(long value) {
        this.value = value;
    }

    /** Lowers the bound to {@code deadline} if it is earlier (a CAS loop). */
    public void lower(long deadline) {
        for (long seen = value; deadline - seen < 0; seen = value) {
            if (VALUE.compareAndSet(this, seen, deadline)) {
                return;
            }
        }
    }

    /** The owner's raise: from {@code seen} to {@code to}, unless someone changed it since (then theirs stays). */
    public boolean raise(long seen, long to) {
        return VALUE.compareAndSet(this, seen, to);
    }

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(LowBound.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
