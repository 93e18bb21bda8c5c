package io.timewheel.wheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock-free multi-producer, single-consumer bag of entries on their way to the thread that owns a wheel,
 * striped so that producer threads share no cache line: each thread pushes onto the stack of its stripe
 * (picked by thread id; threads may share one), and a thread can take back the last entry offered on its
 * stripe while the consumer has not yet detached it ({@link #retract}), so a timer that is scheduled and
 * cancelled at once never reaches the consumer. Intrusive: the entry's own link is the node, so an offer
 * allocates nothing.
 *
 * <p>Unordered: the consumer may receive an entry before one offered earlier by another thread. A wheel
 * fed from it keeps creation order for equal deadlines with sequences given at construction
 * ({@link TimerEntry#TimerEntry(long, int)}, {@link TimerWheel#addInSequence}); what else a consumer needs
 * to know about order, {@link #detachAll} gives it: after it returns, everything offered before it
 * started is detached (handed out or waiting in the consumer's chain).
 *
 * <p>Threading: {@link #offer}, {@link #retract} and {@link #stripe} from any thread;
 * every other method from the one consumer thread only. An entry may be in at most one inbox or wheel at a
 * time.
 */
public final class StripedInbox {
    /*
     * Implementation notes
     *
     * Stripes. A Treiber stack per stripe: offer writes entry.next (its own entry) and CASes its stripe's
     * top, which only threads of that stripe write (and the consumer, once per detach). With one thread per
     * stripe the line stays in that thread's cache: no line is written by every producer. Stripes are PAD
     * references apart (128 bytes or more) in one array, the first one PAD in, away from the header.
     *
     * Detach. The consumer takes a whole stripe with one getAndSet(null) (after a volatile read finds it
     * non-empty), reverses it into offer order and appends it to its chain: consumer-only state, handed out
     * by poll in chain order. So the entries of one stripe come out in the order they were offered.
     *
     * Retract. A thread takes back its stripe's top if it is the entry: CAS top from the entry to the entry's
     * next. The next it read is still the stripe's next entry when the CAS succeeds: the top was the entry
     * throughout (a detach in between would have changed it, and the entry is not offered again while
     * it can be retracted: the caller's precondition), so nothing was pushed on it or taken below it. An entry
     * that is not on top (its stripe received another since, or it is on another stripe) stays: the consumer
     * receives it and finds it no longer wanted.
     *
     * location. offer sets the entry's location to IN_INBOX before it publishes it; poll and retract reset
     * it to DETACHED. So the consumer can tell an entry that is still in the inbox (TimerEntry.isInInbox)
     * from one it holds, for an entry whose offer it has learnt of.
     *
     * Publication: everything written to an entry before offer is visible to the consumer after the
     * getAndSet that detaches its stripe (the CASes on a stripe top form one release sequence).
     *
     * Handshakes: detachAll and isEmpty read the tops with volatile reads, so that a consumer that writes a
     * volatile flag and then detaches (or checks emptiness) and a producer that offers and then reads the
     * flag cannot both miss each other (sequential consistency of volatile accesses).
     */

    /** References per stripe: 32, i.e. 128 bytes with compressed references, 256 without. */
    private static final int PAD = 32;

    /** Stripe i's top at (i + 1) * PAD. Any thread, atomically. */
    private final TimerEntry[] tops;
    private final int mask;

    /** Detached entries not yet handed out, linked by next. Consumer only. */
    private TimerEntry chain;
    /** The last entry of chain. Consumer only. */
    private TimerEntry chainTail;

    /**
     * An inbox with twice as many stripes as available processors, rounded up to a power of two, and at least
     * 16, at most 64: 16 up to 8 processors, 32 up to 16, else 64. Threads pick a stripe by id, so two busy
     * threads share one, and contend on it, with a chance of one in the stripe count; 16 stripes make that one
     * chance in 16 for 2 KB of stripe tops (at most 8 KB, with compressed references).
     */
    public StripedInbox() {
        this(defaultStripes());
    }

    /**
     * An inbox with {@code stripes} stripes.
     *
     * @param stripes the number of stripes: a power of two from 1 to 1024
     * @throws IllegalArgumentException if {@code stripes} is not a power of two between 1 and 1024
     */
    public StripedInbox(int stripes) {
        if (stripes < 1 || stripes > 1024 || Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two in 1..1024: " + stripes);
        }
        this.mask = stripes - 1;
        this.tops = new TimerEntry[(stripes + 1) * PAD];
    }

    private static int defaultStripes() {
        int n = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2 - 1) << 1;
        return Math.max(16, Math.min(64, n));
    }

    /** The calling thread's stripe: its top's index in tops. */
    private int top() {
        return (stripe() + 1) * PAD;
    }

    /** {@return the calling thread's stripe, 0 to stripes - 1: where its offers go} Any thread. */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19; both read the same field
    public int stripe() {
        return (int) Thread.currentThread().getId() & mask;
    }

    // ---------------------------------------------------------------------------------------------
    // Producers: any thread

    /**
     * Adds an entry: a timer, or a message whose deadline means nothing (the inbox never reads deadlines).
     * Any thread. The entry must be in no wheel and no inbox; everything written to it before this call is
     * visible to the consumer that receives it.
     *
     * @param entry the entry to hand to the consumer
     */
    public void offer(TimerEntry entry) {
        entry.location = TimerEntry.IN_INBOX;
        TimerEntry[] t = tops;
        int i = top();
        for (;;) {
            TimerEntry top = (TimerEntry) TOP.getAcquire(t, i);
            entry.next = top;
            if (TOP.compareAndSet(t, i, top, entry)) {
                return;
            }
        }
    }

    /**
     * Takes back an entry if it is the last one offered on the calling thread's stripe and the consumer has not
     * detached it yet. Any thread. Precondition: nobody offers the entry again while this call runs (the
     * caller has taken it out of whatever could re-offer it).
     *
     * @param entry an entry the calling thread offered
     * @return true if the entry left the inbox (the consumer will never receive it)
     */
    public boolean retract(TimerEntry entry) {
        TimerEntry[] t = tops;
        int i = top();
        if (TOP.getAcquire(t, i) != entry) {
            return false;
        }
        TimerEntry below = entry.next;
        if (!TOP.compareAndSet(t, i, entry, below)) {
            return false;
        }
        entry.next = null;
        entry.location = TimerEntry.DETACHED;
        return true;
    }

    // ---------------------------------------------------------------------------------------------
    // The consumer: one thread

    /**
     * Detaches every stripe into the consumer's chain: afterwards, every entry offered before this call
     * started (and not retracted) has been handed out or will be by {@link #poll}. Consumer only.
     *
     * @return the number of entries detached
     */
    public int detachAll() {
        TimerEntry[] t = tops;
        int detached = 0;
        for (int i = PAD; i < t.length; i += PAD) {
            if (TOP.getVolatile(t, i) == null) { // volatile: ordered after the consumer's earlier volatile writes
                continue;
            }
            TimerEntry top = (TimerEntry) TOP.getAndSet(t, i, null);
            if (top == null) {
                continue; // retracted meanwhile
            }
            // reverse the stack into offer order
            TimerEntry first = null;
            TimerEntry last = top;
            for (TimerEntry e = top, below; e != null; e = below) {
                below = e.next;
                e.next = first;
                first = e;
                detached++;
            }
            append(first, last);
        }
        return detached;
    }

    private void append(TimerEntry first, TimerEntry last) {
        if (chain == null) {
            chain = first;
        } else {
            chainTail.next = first;
        }
        chainTail = last;
    }

    /**
     * Hands out a detached entry, or returns {@code null} if none is left (call {@link #detachAll} to
     * detach what was offered since). Entries of one stripe come out in the order they were offered.
     * Consumer only.
     *
     * @return the next detached entry, or {@code null}
     */
    public TimerEntry poll() {
        TimerEntry e = chain;
        if (e == null) {
            return null;
        }
        chain = e.next;
        if (chain == null) {
            chainTail = null;
        }
        e.next = null;
        e.location = TimerEntry.DETACHED;
        return e;
    }

    /** {@return whether detached entries wait to be handed out by {@link #poll}} Consumer only. */
    public boolean hasDetached() {
        return chain != null;
    }

    /** {@return whether no entry is detached, or offered and not retracted} Consumer only. */
    public boolean isEmpty() {
        if (chain != null) {
            return false;
        }
        TimerEntry[] t = tops;
        for (int i = PAD; i < t.length; i += PAD) {
            if (TOP.getVolatile(t, i) != null) {
                return false;
            }
        }
        return true;
    }

    // VarHandles
    private static final VarHandle TOP = MethodHandles.arrayElementVarHandle(TimerEntry[].class);
}
