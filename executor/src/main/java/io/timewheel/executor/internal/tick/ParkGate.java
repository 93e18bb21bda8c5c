package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.LowBound;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * When the tick thread sleeps, and when a producer or a worker must wake it: the park/wake protocol between
 * the {@link TickThread} and the threads that offer it work, with no thread, clock or LockSupport call of its
 * own (the callers pass the time in and do the parking and unparking), so that jcstress can run the real
 * protocol ({@code tck/jcstress}: ParkGateLostWakeUp, ParkGateUrgentCommand, ParkGateMessage,
 * ParkGateWorkerWake). Producer- and worker-side methods: any thread. Tick-side methods: the tick thread only.
 */
final class ParkGate {
    /*
     * Implementation notes
     *
     * Who writes what:
     *   pendingLow      producers lower it (CAS) after each offer; the tick thread resets it right before each
     *                   detachAll of its inbox (reset). A time at or before the deadline of every entry offered
     *                   (to any queue this thread serves) since the last reset: entries the tick thread has not
     *                   read. It decides the tick thread's wake-up, so it covers every queue; each queue keeps
     *                   its own as well (HandOffBounds), so that another executor's unread offers do not hold
     *                   back this queue's hand-overs and its producers' pushes straight to the workers.
     *   urgentOffered   set by the sender of an urgent command (someone waits for the answer); cleared by the
     *                   tick thread at the start of a loop, before it detaches (beginLoop).
     *   wakeAt, parkedAt
     *                   written by the tick thread before it writes parkState (prepare; reparkLazy lowers
     *                   wakeAt); read by producers (signal) and workers (wakeIfDue).
     *   parkState       written by the tick thread (prepare, awake) and CASed by it (lazy, reparkLazy); CASed by
     *                   a producer (signal: PARKED_LONG -> AWAKE or PARKED_LAZY, PARKED_LAZY -> AWAKE) and by a
     *                   worker about to block once wakeAt has passed (wakeIfDue: any parked state -> AWAKE).
     *                   Whoever's CAS succeeds unparks the tick thread.
     *
     * States:
     *   AWAKE         running the loop; producers do nothing more than offer.
     *   PARKED_SHORT  parked until wakeAt, at most drain away: producers unpark it only if their deadline
     *                 needs it earlier (deadline - margin before wakeAt).
     *   PARKED_LONG   parked until a far wakeAt (its own timer a stride later: deferred wake-ups, below), or
     *                 indefinitely: a producer whose deadline needs it earlier, or who finds it parked since
     *                 parkedAt + drain or longer, CASes the state to AWAKE and unparks. So nothing offered
     *                 waits past the time it needs the tick thread (by a stride at most while it defers), and
     *                 offers that keep coming are read at least once per drain (the inbox stays small), but a
     *                 stream of far timers that are cancelled at once (retracted, never read) does not wake it
     *                 per offer. A message (no deadline: it only frees memory) offered before parkedAt + drain
     *                 CASes the state to PARKED_LAZY and unparks.
     *   PARKED_LAZY   parked long, and a message waits to be read by parkedAt + drain: the tick thread, unparked,
     *                 parks again until then (reparkLazy: as PARKED_SHORT, wakeAt lowered to parkedAt + drain)
     *                 and reads it then. So a message (an Unlink: the memory of a cancelled task) is read
     *                 within drain whether or not anything follows it, a stream of them costs at most one full
     *                 loop per drain, and the price is one cheap re-park per long park that a message
     *                 interrupts. A producer whose deadline needs it earlier CASes PARKED_LAZY -> AWAKE (the
     *                 re-park then does not happen).
     * Transitions:
     *   AWAKE -> PARKED_SHORT | PARKED_LONG             tick thread, prepare
     *   PARKED_SHORT | PARKED_LONG -> AWAKE             tick thread: prepare when it finds work, awake after parking
     *   PARKED_LONG -> PARKED_LAZY                      tick thread, lazy (something offered after its detach);
     *                                                   or a producer's CAS for a message, then unpark
     *   PARKED_LONG -> AWAKE                            a producer's CAS, then unpark
     *   PARKED_LAZY -> AWAKE                            a producer's CAS, then unpark; or tick thread, awake
     *   PARKED_LAZY -> PARKED_SHORT                     tick thread, reparkLazy
     *   PARKED_SHORT | PARKED_LONG | PARKED_LAZY -> AWAKE
     *                                                   a worker's CAS once wakeAt has passed (wakeIfDue), then unpark
     *
     * Deferred wake-ups (TickThread's notes): the tick thread's own timer for a long park fires a stride after
     * wakeAt, and the first worker to block after wakeAt wakes it (wakeIfDue). That is one more unpark, never
     * one fewer: a producer's decisions still rest on wakeAt, and a woken tick thread loops (detaches, reads
     * the clock) whoever woke it, so the lost-wake-up argument below is unchanged. Only one worker wins the
     * CAS, so a crowd of blocking workers costs one unpark (jcstress ParkGateWorkerWake).
     *
     * The tick thread counts pendingLow in its wake-up time: entries offered since its last detachAll began and
     * not read (offered after it) or retracted. Their producers may have seen it AWAKE and not woken it, so it
     * wakes for them by itself.
     *
     * Lost-wake-up freedom: the tick thread writes parkState (volatile) and then reads pendingLow and
     * urgentOffered; a producer offers, lowers pendingLow (or sets urgentOffered) and then reads parkState.
     * Sequential consistency of volatile accesses means one of the two sees the other: either the producer
     * sees it parked and unparks it if needed, or the tick thread sees the producer's deadline (or urgent
     * command) and does not park past it. A producer whose deadline does not lower pendingLow (an earlier one
     * is already there) needs nothing: the tick thread wakes for the earlier one, margin before it.
     * An unpark that comes before the park is not lost either: LockSupport keeps the permit. reparkLazy follows
     * the same pattern: it writes parkState (PARKED_SHORT) and then reads urgentOffered and pendingLow. A
     * message has no deadline to lower pendingLow with: one offered while the tick thread was AWAKE after its
     * detach is seen by the tick thread's look at the inbox after prepare wrote PARKED_LONG (TickThread.park,
     * then lazy()), or it sees PARKED_LONG and makes it PARKED_LAZY itself (jcstress ParkGateMessage).
     */

    static final int AWAKE = 0;
    static final int PARKED_SHORT = 1;
    static final int PARKED_LONG = 2;
    static final int PARKED_LAZY = 3;

    /** prepare's answer: park with no timeout. */
    static final long INDEFINITELY = Long.MAX_VALUE;

    /** How far ahead of a deadline the tick thread wakes for it (TickThread.MARGIN_NANOS). Immutable. */
    private final long margin;
    /** Bound on how long a message, or a stream of offers, waits to be read (TickThread.DRAIN_NANOS). Immutable. */
    private final long drain;

    /** See the notes. Any thread: lowered by producers by CAS, reset by the tick thread. */
    private final LowBound pendingLow;
    /** See the notes: written and CASed by the tick thread, CASed by producers (signal) and workers (wakeIfDue). */
    private volatile int parkState;
    /** When the tick thread parked last. Written by the tick thread before parkState; read by producers. */
    private volatile long parkedAt;
    /** An urgent command was offered since the loop began. Set by its sender, cleared by the tick thread. */
    private volatile boolean urgentOffered;
    /**
     * When the tick thread means to look, if parked (a long timed park's own timer fires a stride later:
     * TickThread.DEFER_NANOS). Written by the tick thread before parkState; read by producers and workers.
     */
    private volatile long wakeAt;

    ParkGate(long margin, long drain, long now) {
        this.margin = margin;
        this.drain = drain;
        this.pendingLow = new LowBound(LowBound.resetValue(now));
    }

    // ---------------------------------------------------------------------------------------------
    // Producers and workers: any thread

    /** After an offer with this deadline (before {@link #signal}): keeps pendingLow a lower bound. */
    void lowerPending(long deadline) {
        pendingLow.lower(deadline);
    }

    /**
     * After an offer (and its {@link #lowerPending}): whether the caller must unpark the tick thread, because
     * the deadline needs it earlier than it would look, or it has been parked long. {@code deadline}:
     * {@code Long.MIN_VALUE} for none (a message that only frees memory); {@code now}: the caller's clock.
     */
    boolean signal(long deadline, long now) {
        for (;;) {
            int state = parkState;
            if (state == AWAKE) {
                return false;
            }
            // it looks margin before a deadline: wake it if this one needs it before it would look
            boolean needed = deadline != Long.MIN_VALUE && deadline - margin - wakeAt < 0;
            if (state == PARKED_SHORT) {
                return needed;
            }
            int to;
            if (state == PARKED_LONG) {
                if (needed || now - parkedAt >= drain) {
                    to = AWAKE;
                } else if (deadline == Long.MIN_VALUE) {
                    to = PARKED_LAZY; // a message: read it by parkedAt + drain (see the notes)
                } else {
                    return false; // a far deadline, read when it looks or when the next offer finds it parked long
                }
            } else if (needed) { // PARKED_LAZY
                to = AWAKE;
            } else {
                return false; // it reads this by parkedAt + drain
            }
            if (PARK_STATE.compareAndSet(this, state, to)) {
                return true;
            }
            // the state changed under us (woken, or made lazy by another producer): decide again
        }
    }

    /**
     * A worker about to block: whether it must unpark the tick thread, because the time the tick thread meant
     * to wake at ({@code wakeAt}) has passed and it is still parked (see the notes: deferred wake-ups); true
     * for one caller per park. {@code now}: the caller's clock.
     */
    boolean wakeIfDue(long now) {
        int state = parkState;
        return state != AWAKE && now - wakeAt >= 0 && PARK_STATE.compareAndSet(this, state, AWAKE);
    }

    /** After offering an urgent command: whether the caller must unpark the tick thread. */
    boolean urgent() {
        urgentOffered = true;
        return parkState != AWAKE;
    }

    // ---------------------------------------------------------------------------------------------
    // The tick thread

    /** At the start of a loop, before it detaches: an urgent command offered since is read now or seen by prepare. */
    void beginLoop() {
        if (urgentOffered) {
            urgentOffered = false;
        }
    }

    /** Right before each detachAll of the inbox (see the notes). */
    void reset(long value) {
        pendingLow.set(value);
    }

    /**
     * Decides how long the tick thread parks, {@code next} being the earliest deadline it holds
     * ({@code now + Long.MAX_VALUE} for none): returns the park time in nanoseconds, {@link #INDEFINITELY}, or
     * a value {@code <= 0} for "do not park, loop again". When it returns a positive value the state says
     * parked; the caller parks and then calls {@link #awake}.
     */
    long prepare(long now, long next) {
        long low = pendingLow.get();
        if (LowBound.pending(low, now) && low - next < 0) {
            next = low; // offered since the loop began and not read: wake for it (see the notes)
        }
        boolean nothingPending = next - now == Long.MAX_VALUE;
        long delay = next - margin - now;
        if (delay <= 0) {
            return 0;
        }
        wakeAt = now + delay;
        parkedAt = now;
        parkState = delay <= drain ? PARKED_SHORT : PARKED_LONG;
        long fell = pendingLow.get(); // a reset value (no offer since the detach) is no deadline: see pending()
        if (urgentOffered || (LowBound.pending(fell, now) && fell - margin - wakeAt < 0)) {
            parkState = AWAKE; // offered before parkState was written: look again now
            return 0;
        }
        return nothingPending && parkState == PARKED_LONG ? INDEFINITELY : delay;
    }

    /**
     * After a {@link #prepare} that decided a long park, when the inbox is not empty (something was offered
     * after the detach: a producer that found this thread AWAKE did not wake it, and a message has no deadline
     * for prepare to see): park as for a message instead, until parkedAt + drain (see the notes). False if a
     * producer changed the state first (its unpark ends the park at once).
     */
    boolean lazy() {
        return parkState == PARKED_LONG && PARK_STATE.compareAndSet(this, PARKED_LONG, PARKED_LAZY);
    }

    /**
     * After each return from a park: if a message made it PARKED_LAZY (see the notes), the time to park
     * again before it reads that message, with the state PARKED_SHORT and wakeAt at parkedAt + drain; else (or
     * if that time has come, or something was offered that needs it) a value {@code <= 0}: do not park again.
     */
    long reparkLazy(long now) {
        if (parkState != PARKED_LAZY) {
            return 0;
        }
        long until = parkedAt + drain;
        long delay = until - now;
        if (delay <= 0 || !PARK_STATE.compareAndSet(this, PARKED_LAZY, PARKED_SHORT)) {
            return 0; // its time has come, or a producer woke it for a deadline
        }
        wakeAt = until; // lowered, never raised: a producer that read the old one only wakes it more readily
        long fell = pendingLow.get();
        if (urgentOffered || (LowBound.pending(fell, now) && fell - margin - until < 0)) {
            return 0; // offered before parkState was written: look now (prepare's re-check)
        }
        return delay;
    }

    /** After parking. */
    void awake() {
        parkState = AWAKE;
    }

    /**
     * The park state: AWAKE, PARKED_SHORT, PARKED_LONG or PARKED_LAZY. Any thread: the loop, a worker about to
     * block (TickThread.sleeping), the tests (TickProbe.parkState).
     */
    int state() {
        return parkState;
    }

    /** When the tick thread means to look, if parked. Any thread: the tests, through TickProbe.wakeAt. */
    long wakeAt() {
        return wakeAt;
    }

    // VarHandles
    private static final VarHandle PARK_STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PARK_STATE = l.findVarHandle(ParkGate.class, "parkState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
