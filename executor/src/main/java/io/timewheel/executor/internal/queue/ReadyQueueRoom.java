package io.timewheel.executor.internal.queue;

/**
 * Larger arrays for a ReadyQueue's heap or ring, allocated before its lock is taken (ReadyQueue's notes,
 * "Growth"), a power of two times as large (a ring's capacity stays a power of two). Owned by the thread that
 * allocated it until ReadyQueue.growHeap or growRing moves the entries in, or dropped.
 */
final class ReadyQueueRoom {
    /**
     * The largest capacity of the heap's and of the ring's arrays: 2^30 entries (a power of two, as the ring's),
     * 24 bytes each in the four arrays with compressed references, 24 GiB.
     */
    static final int MAX_CAPACITY = 1 << 30;

    /**
     * The four arrays, of one capacity. Immutable references; the contents are the allocating thread's until
     * the ready queue moves its entries in, then guarded by its lock.
     */
    final QueueEntry[] entries;
    final long[] deadlines;
    final int[] sequences;
    final long[] readyAts;

    ReadyQueueRoom(int capacity) {
        entries = new QueueEntry[capacity];
        deadlines = new long[capacity];
        sequences = new int[capacity];
        readyAts = new long[capacity];
    }

    /**
     * Room for one push: twice {@code capacity} if {@code used} is three quarters of it or more, else null; null
     * too at MAX_CAPACITY, or if the allocation fails (the room is optional: the push grows under the lock if
     * it must, and fails there if that fails).
     */
    static ReadyQueueRoom ahead(int used, int capacity) {
        if (used < capacity - (capacity >> 2) || capacity >= MAX_CAPACITY) {
            return null;
        }
        try {
            return new ReadyQueueRoom(2 * capacity);
        } catch (OutOfMemoryError e) {
            return null;
        }
    }

    /**
     * Room for a batch: {@code capacity} doubled until {@code needed} fits, or null if it fits already.
     *
     * @throws OutOfMemoryError if {@code needed} exceeds MAX_CAPACITY
     */
    static ReadyQueueRoom forSize(int needed, int capacity) {
        if (needed <= capacity) {
            return null;
        }
        if (needed > MAX_CAPACITY || needed < 0) {
            throw new OutOfMemoryError("ReadyQueue: more than " + MAX_CAPACITY + " entries");
        }
        int grown = doubled(capacity);
        while (grown < needed) {
            grown *= 2;
        }
        return new ReadyQueueRoom(grown);
    }

    /**
     * Twice {@code capacity}, which must be a full heap's or ring's.
     *
     * @throws OutOfMemoryError at MAX_CAPACITY
     */
    static int doubled(int capacity) {
        if (capacity >= MAX_CAPACITY) {
            throw new OutOfMemoryError("ReadyQueue: more than " + MAX_CAPACITY + " entries");
        }
        return 2 * capacity;
    }
}
