package io.timewheel.wheel;

/**
 * Sorts a {@link TimerWheel}'s batches (a slot about to expire, the expired list) by (deadline, sequence)
 * and links them into a list. The wheel's own instance; wheel thread only. Allocates only to grow its
 * scratch to the largest batch it has sorted.
 */
final class BatchSort {
    /*
     * Implementation notes
     *
     * A batch is sorted as an array: the wheel gathers its entries once into entries(), with their deadlines
     * relative to the wheel's time in keys(); each key becomes (deadline - lowest) << INDEX_BITS | position
     * and the keys are sorted as primitives (KeySort: an LSD radix sort over the deadline bits when the batch
     * has RADIX_MIN entries or more and spans less than 2^RADIX_MAX_BITS ns, one slot's deadlines usually
     * spanning a tick, else quicksort), so the sort compares longs in one array instead of chasing links
     * from entry to entry. Runs of equal deadlines are then put in sequence order, and the entries relinked
     * in key order. A batch too large or too wide in time for the key is merge sorted on its links instead.
     * The scratch is cleared after each sort: it must not keep expired entries alive.
     *
     * Order: deadlines compared relative to the wheel's time (TimerWheel's I6), sequences as ints with
     * wrap-around (compare).
     */

    /** Batches this large or larger whose deadlines span less than 2^RADIX_MAX_BITS ns are radix sorted. */
    private static final int RADIX_MIN = 128;
    private static final int RADIX_MAX_BITS = 32;
    /** Bits of a sort key that hold the entry's position: up to 2^22 - 1 entries per key sort. */
    private static final int INDEX_BITS = 22;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

    private TimerEntry[] entries = new TimerEntry[0];
    private long[] keys = new long[0];
    private long[] buffer = new long[0];
    private final int[] radixCount = new int[KeySort.RADIX + 1];
    /** The tail of the list the last sort returned. */
    private TimerEntry tail;
    /** Entries gathered so far (gather) for the next sortGathered; 0 when not gathering. */
    private int gathered;

    /**
     * Makes room for a batch of n: the caller then puts entry i in {@link #entries()} and its deadline
     * relative to the wheel's time in {@link #keys()} at index i. Grows the scratch to the largest batch
     * (kept and reused: no allocation once warm).
     */
    void ensure(int n) {
        if (entries.length < n) {
            int capacity = Math.max(n, entries.length * 2);
            entries = new TimerEntry[capacity];
            keys = new long[capacity];
            buffer = new long[capacity];
        }
    }

    /**
     * Adds an entry and its key (deadline relative to the wheel's time) to the batch being gathered, one at a
     * time as the wheel finds them, growing the scratch (with a copy) when it is full: so that sorting the
     * batch later needs no second walk over entries that the wheel has already loaded once. Returns false,
     * having gathered nothing more, if the scratch cannot grow (out of memory): the caller is in the middle
     * of a walk over entries it has detached, which must not be cut short, and gathers by walking instead.
     */
    boolean gather(TimerEntry entry, long key) {
        int n = gathered;
        if (n == entries.length) {
            try {
                int capacity = Math.max(16, n * 2);
                TimerEntry[] e = java.util.Arrays.copyOf(entries, capacity);
                long[] k = java.util.Arrays.copyOf(keys, capacity);
                buffer = new long[capacity];
                entries = e;
                keys = k;
            } catch (OutOfMemoryError oom) {
                return false;
            }
        }
        entries[n] = entry;
        keys[n] = key;
        gathered = n + 1;
        return true;
    }

    /** The number of entries gathered since the last sortGathered or dropGathered. */
    int gathered() {
        return gathered;
    }

    /** Sorts the gathered batch, as {@link #sort}, and starts a new one. */
    TimerEntry sortGathered(long time) {
        int n = gathered;
        gathered = 0;
        return sort(n, time);
    }

    /** Forgets the gathered batch (clears its references: it must not keep entries alive). */
    void dropGathered() {
        java.util.Arrays.fill(entries, 0, gathered, null);
        gathered = 0;
    }

    TimerEntry[] entries() {
        return entries;
    }

    long[] keys() {
        return keys;
    }

    /** The tail of the list the last {@link #sort} returned. */
    TimerEntry tail() {
        return tail;
    }

    /**
     * Sorts the n entries gathered in entries() (each one's deadline relative to the wheel's time, {@code time},
     * in keys() at the same position) by (deadline, sequence) and links them into a list: returns its head,
     * leaves its tail for {@link #tail()} and clears the scratch (it must not keep entries alive).
     *
     * <p>Through primitive keys: key = (deadline relative to the lowest) << INDEX_BITS | position, sorted in
     * place, so the sort compares longs in one array instead of chasing links from entry to entry; runs of
     * equal deadlines are then put in sequence order. A batch too large or too wide in time for the key
     * (2^22 entries or more, or deadlines 2^41 ns or more apart) is merge sorted on its links instead.
     */
    TimerEntry sort(int n, long time) {
        TimerEntry[] entries = this.entries;
        long[] keys = this.keys;
        long low = keys[0], high = low;
        for (int j = 1; j < n; j++) {
            long d = keys[j];
            if (d < low) {
                low = d;
            } else if (d > high) {
                high = d;
            }
        }
        TimerEntry head = null, prev = null;
        if (n <= INDEX_MASK && high - low >= 0 && (high - low) >>> (63 - INDEX_BITS) == 0) {
            for (int j = 0; j < n; j++) {
                keys[j] = ((keys[j] - low) << INDEX_BITS) | j;
            }
            int rangeBits = Long.SIZE - Long.numberOfLeadingZeros(high - low);
            if (n >= RADIX_MIN && rangeBits <= RADIX_MAX_BITS) {
                KeySort.radixSort(keys, buffer, radixCount, n, INDEX_BITS, rangeBits);
            } else {
                KeySort.sort(keys, 0, n - 1);
            }
            // equal deadlines: insertion sort by sequence within each run (runs are short)
            for (int j = 1; j < n; j++) {
                long key = keys[j];
                if (keys[j - 1] >>> INDEX_BITS != key >>> INDEX_BITS) {
                    continue;
                }
                TimerEntry e = entries[(int) (key & INDEX_MASK)];
                int k = j - 1;
                while (k >= 0 && keys[k] >>> INDEX_BITS == key >>> INDEX_BITS
                        && compare(entries[(int) (keys[k] & INDEX_MASK)], e, time) > 0) {
                    keys[k + 1] = keys[k];
                    k--;
                }
                keys[k + 1] = key;
            }
            for (int j = 0; j < n; j++) {
                int at = (int) (keys[j] & INDEX_MASK);
                TimerEntry e = entries[at];
                entries[at] = null;
                e.prev = prev;
                if (prev == null) {
                    head = e;
                } else {
                    prev.next = e;
                }
                prev = e;
            }
            prev.next = null;
            tail = prev;
            return head;
        }
        for (int j = 0; j < n; j++) {
            TimerEntry e = entries[j];
            entries[j] = null;
            e.prev = prev;
            if (prev == null) {
                head = e;
            } else {
                prev.next = e;
            }
            prev = e;
        }
        prev.next = null;
        return mergeSort(head, time);
    }

    /** Bottom-up merge sort on the links, stable, no allocation; fixes the prev links and sets the tail. */
    private TimerEntry mergeSort(TimerEntry list, long time) {
        for (int width = 1; ; width <<= 1) {
            TimerEntry p = list, tail = null;
            list = null;
            int merges = 0;
            while (p != null) {
                merges++;
                TimerEntry q = p;
                int pSize = 0;
                while (pSize < width && q != null) {
                    pSize++;
                    q = q.next;
                }
                int qSize = width;
                while (pSize > 0 || (qSize > 0 && q != null)) {
                    TimerEntry e;
                    if (pSize == 0) {
                        e = q;
                        q = q.next;
                        qSize--;
                    } else if (qSize == 0 || q == null || compare(p, q, time) <= 0) {
                        e = p;
                        p = p.next;
                        pSize--;
                    } else {
                        e = q;
                        q = q.next;
                        qSize--;
                    }
                    if (tail == null) {
                        list = e;
                    } else {
                        tail.next = e;
                    }
                    tail = e;
                }
                p = q;
            }
            tail.next = null;
            if (merges <= 1) {
                break;
            }
        }
        TimerEntry prev = null;
        for (TimerEntry e = list; e != null; e = e.next) {
            e.prev = prev;
            prev = e;
        }
        this.tail = prev;
        return list;
    }

    /**
     * (deadline, sequence) order, deadlines compared relative to {@code time} (the wheel's time: see
     * TimerWheel's I6), sequences with wrap-around.
     */
    static int compare(TimerEntry a, TimerEntry b, long time) {
        long da = a.deadline - time, db = b.deadline - time;
        if (da != db) {
            return da < db ? -1 : 1;
        }
        int bySequence = a.sequence - b.sequence;
        return bySequence < 0 ? -1 : (bySequence == 0 ? 0 : 1);
    }
}
