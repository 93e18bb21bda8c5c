package io.timewheel.wheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock-free multi-producer, single-consumer FIFO of entries on their way to the thread that owns a
 * wheel. Intrusive: the entry's own link is the queue node, so handing over a timer allocates nothing.
 *
 * <p>Threading: {@link #offer} from any thread; {@link #poll} and {@link #isEmpty} from the one consumer
 * thread only. An entry may be in at most one inbox or wheel at a time; while queued it belongs to the
 * inbox, and after {@code poll} returns it, to the consumer.
 */
public final class TimerInbox {
    /*
     * Implementation notes
     *
     * Vyukov's intrusive MPSC queue. Producers swap themselves into tail (one atomic getAndSet) and then link
     * the previous tail to themselves; the consumer walks from head. Between a producer's swap and its link
     * the chain is briefly broken: poll then answers null although isEmpty() is false, and the producer's
     * own follow-up (it will link, then may wake the consumer) makes progress. A stub entry lets the queue
     * hand out its last real entry without ever being empty of nodes.
     *
     * Ownership: tail - any thread, via getAndSet. head - consumer only. entry.next - written once by the
     * producer that swapped in the entry's successor (release), read by the consumer (acquire).
     * An entry is handed out only after its successor link is written, so no producer touches an entry
     * after the consumer has it.
     */

    private final TimerEntry stub = new Stub();
    /** Consumer only. */
    private TimerEntry head = stub;
    /** Any thread, via {@link #TAIL} getAndSet. */
    @SuppressWarnings("unused")
    private volatile TimerEntry tail = stub;

    /** An empty inbox. */
    public TimerInbox() {
    }

    /**
     * Appends an entry. Any thread. The entry must be in no wheel and no inbox; everything written to it
     * before this call is visible to the consumer that polls it.
     */
    public void offer(TimerEntry entry) {
        NEXT.setRelease(entry, (TimerEntry) null);
        TimerEntry previous = (TimerEntry) TAIL.getAndSet(this, entry);
        NEXT.setRelease(previous, entry);
    }

    /**
     * Takes the oldest entry, or returns {@code null} if none is ready (the queue is empty, or a producer
     * is between its two steps). Consumer thread only.
     */
    public TimerEntry poll() {
        TimerEntry first = head;
        TimerEntry next = nextAcquire(first);
        if (first == stub) {
            if (next == null) {
                return null;
            }
            head = next;
            first = next;
            next = nextAcquire(next);
        }
        if (next != null) {
            head = next;
            return first;
        }
        if (first != tail) {
            return null; // a producer swapped in a successor and has not linked it yet
        }
        offer(stub);
        next = nextAcquire(first);
        if (next != null) {
            head = next;
            return first;
        }
        return null;
    }

    /**
     * Whether no entry is queued or being queued. Consumer thread only. A {@code false} answer with
     * {@link #poll} answering {@code null} means a producer is mid-offer.
     */
    public boolean isEmpty() {
        TimerEntry first = head;
        return first == stub && nextAcquire(first) == null && tail == first;
    }

    private static TimerEntry nextAcquire(TimerEntry entry) {
        return (TimerEntry) NEXT.getAcquire(entry);
    }

    private static final class Stub extends TimerEntry {
    }

    // VarHandles
    private static final VarHandle TAIL;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(TimerInbox.class, "tail", TimerEntry.class);
            NEXT = lookup.findVarHandle(TimerEntry.class, "next", TimerEntry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
