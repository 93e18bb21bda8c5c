package io.timewheel.executor.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A deadline bound that producers lower by CAS and one owner resets or raises: the shape of ParkGate's and
 * TaskQueue's pendingLow (a time at or before every deadline offered since the owner's last reset) and of
 * TaskQueue's earliest (a time at or before every deadline the tick thread holds). Deadlines compare with
 * wrap-around ({@code a - b < 0}), as System.nanoTime values must. Any thread.
 */
public final class LowBound {
    private volatile long value;

    public LowBound(long value) {
        this.value = value;
    }

    /**
     * What a pendingLow bound is reset to: later than any deadline of the next 2^62 ns, earlier than none of
     * them ({@link #pending} tells it from a deadline).
     */
    public static long resetValue(long now) {
        return now + (Long.MAX_VALUE >> 1);
    }

    /**
     * Whether a value read from a pendingLow bound is a deadline offered since the last reset, not the reset
     * value (which lies 2^62 ns ahead; compared with an indefinite wake-up time it would look earlier than it).
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
