package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.Pacer;
import io.timewheel.wheel.TimerWheel;

import java.util.Arrays;

/**
 * The entries the tick thread hands over to one ready queue in one go, in (deadline, sequence) order, with
 * their deadlines and sequences beside them: gathered from the wheel outside the ready queue's lock, then
 * spliced in under it ({@link ReadyQueue#pushBatch}). Tick thread only (one per tick thread, reused).
 */
public final class HandOverBatch {
    /*
     * Implementation notes
     *
     * Why a batch. The workers wait on the ready queue's lock for their next task; the tick thread's work per
     * handed-over entry (poll it from the wheel, tryUnfile CAS, copy its keys) is done here, before the lock, so
     * a worker whose task is due never waits behind it. Under the lock the batch costs a capacity check, a
     * binary search for the ring's tail and, for the usual batch that starts at or after that tail (the wheel
     * hands deadlines over in order, each batch later than the one before), a copy of three arrays and a fill
     * of the fourth (readyAt). Entries before the ring's tail (read late by the tick thread, or due before an
     * entry a producer appended to the ring) go into the heap one by one, and the rest of the batch is still
     * copied (the room for all of it is made first, so nothing allocates half-way).
     * The gathering is paced (takeExpired: Pacer.step per entry, so the tick thread may yield between two
     * entries); the splice, under the lock, never is.
     *
     * Between tryUnfile and the splice an entry is QUEUED and in neither the wheel nor the ready queue. Nothing
     * looks for it there meanwhile: the wheel and a Snapshot are the tick thread's own, and a canceller that
     * takes it out (tryRemove of a QUEUED entry) only retracts it from the inbox it is not in, or (a
     * DecoratedEntry) sends an Unlink that the tick thread reads after the splice and finds in no wheel; the
     * splice then puts in an entry that left the queue, which the workers drop when it comes to the head, as
     * any other.
     *
     * Nothing is lost to a failure. The batch grows before it takes the next entry from the wheel, so an
     * allocation that fails leaves no entry in hand; and whether the gathering or the splice fails (out of
     * memory growing these arrays or the ready queue's), the ready queue got nothing, and every entry gathered
     * and still queued goes back into the wheel (refile: tryFile, addInSequence), due, to be handed over at
     * the next advance (QueueWheel.expire).
     */

    /**
     * The entries, in (deadline, sequence) order, with their deadlines and sequences at the same indices.
     * Tick thread only.
     */
    QueueEntry[] entries = new QueueEntry[64];
    long[] deadlines = new long[64];
    int[] sequences = new int[64];
    /** How many entries the batch holds. Tick thread only. */
    int size;

    /** The tick thread's scratch: one per tick thread, reused for every hand-over. */
    public HandOverBatch() {
    }

    /**
     * Takes every expired entry from {@code wheel} (after its advance), keeping those still queued (FILED to
     * QUEUED), in the wheel's (deadline, sequence) order; {@code pacer} (null: none) may yield the tick
     * thread's CPU between two entries.
     */
    void takeExpired(TimerWheel<QueueEntry> wheel, Pacer pacer) {
        for (;;) {
            if (size == entries.length) {
                grow(); // before the next entry is taken: a failure leaves none in hand (see the notes)
            }
            QueueEntry entry = wheel.poll();
            if (entry == null) {
                return;
            }
            if (entry.tryUnfile()) {
                add(entry);
            }
            if (pacer != null) {
                pacer.step();
            }
        }
    }

    private void grow() {
        int capacity = size << 1;
        QueueEntry[] e = Arrays.copyOf(entries, capacity);
        long[] d = Arrays.copyOf(deadlines, capacity);
        int[] q = Arrays.copyOf(sequences, capacity);
        entries = e; // all three or none
        deadlines = d;
        sequences = q;
    }

    /** Adds an entry; the caller has made room. */
    private void add(QueueEntry entry) {
        entries[size] = entry;
        deadlines[size] = entry.deadline();
        sequences[size] = entry.sequence();
        size++;
    }

    /** After a failed gathering or splice: puts every entry still queued back into the wheel (see the notes). */
    void refile(TimerWheel<QueueEntry> wheel) {
        for (int i = 0; i < size; i++) {
            QueueEntry entry = entries[i];
            if (entry.tryFile()) {
                wheel.addInSequence(entry);
            }
        }
    }

    /** Empties the batch, dropping its references so that it keeps no task alive. */
    void clear() {
        Arrays.fill(entries, 0, size, null);
        size = 0;
    }
}
