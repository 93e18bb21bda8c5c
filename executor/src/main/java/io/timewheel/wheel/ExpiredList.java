package io.timewheel.wheel;

/**
 * A {@link TimerWheel}'s expired entries: those its advances found due and nobody has polled yet, in (deadline,
 * sequence) order once an advance ends. The wheel's own instance; wheel thread only. Allocates only to grow its
 * sort scratch to the largest batch it has sorted.
 */
final class ExpiredList {
    /*
     * Implementation notes
     *
     * A doubly linked list through the entries' own links (location EXPIRED), so that an expired entry is
     * removed in O(1) like any other. Invariants (between the wheel's calls; TimerWheel's I7 and I10):
     *   - it holds exactly the entries found due by advance and not yet polled; size counts them;
     *   - sorted is true only if the list is in (deadline, sequence) order; an append that breaks the order
     *     clears it, and the end of an advance sorts the list once (endAdvance).
     * Gathering. An advance that starts on an empty list gathers every entry it appends into the sort's
     * scratch as it appends it (its cache line is loaded then), so that sorting the batch needs no second walk
     * along the list over cold entries (28% of the tick thread's samples on a 20k-timer hand-over before this
     * was done; WheelBenchmark.window). If the scratch cannot grow (out of memory) the advance stops gathering
     * and the sort walks the list instead. The scratch is cleared after each sort: it must not keep entries alive.
     * A chain appended whole (appendSorted: the due head of the wheel's sorted current slot, in order already)
     * is not gathered, and ends the gathering; the wheel appends one only while the list is sorted, so the
     * sort that could then need the walk is the rare one that a later append of the same advance makes
     * necessary.
     */

    private TimerEntry head, tail;
    private int size;
    /** The list is in (deadline, sequence) order: no append since the last sort broke it. */
    private boolean sorted = true;
    /** Gathers and sorts the expired batch; grows to the largest batch, reused. */
    private final BatchSort sort = new BatchSort();
    /** This advance gathers every entry it appends into sort (the list was empty when it began). */
    private boolean gathering;

    /** The earliest entry once an advance has ended (the list is sorted then), or null. */
    TimerEntry head() {
        return head;
    }

    int size() {
        return size;
    }

    /** At the start of an advance: gathers what it appends if the list is empty (see the notes). */
    void beginAdvance() {
        gathering = head == null;
        sort.dropGathered(); // nothing is gathered between advances; this only guards the invariant
    }

    /** At the end of an advance: sorts the list if an append broke its order ({@code time}: the wheel's). */
    void endAdvance(long time) {
        if (!sorted) {
            sortList(time);
        } else if (gathering) {
            sort.dropGathered();
        }
        gathering = false;
    }

    /** Appends an entry found due; {@code time}: the wheel's (deadlines are compared relative to it). */
    void append(TimerEntry entry, long time) {
        // its line is loaded: gather the key now (sortList walks the list instead if the scratch cannot grow)
        if (gathering && !sort.gather(entry, entry.deadline - time)) {
            sort.dropGathered();
            gathering = false;
        }
        entry.location = TimerEntry.EXPIRED;
        entry.next = null;
        linkAtTail(entry, entry, 1, time);
    }

    /**
     * Appends a chain of {@code n} entries found due, {@code first} to {@code last}, already linked to each
     * other through their prev and next in (deadline, sequence) order and already EXPIRED (the head of the
     * wheel's sorted current slot, cut off whole: TimerWheel's notes); {@code time}: the wheel's. The chain is
     * not gathered: if the list must be sorted at the end of this advance, the sort walks it (see the notes).
     */
    void appendSorted(TimerEntry first, TimerEntry last, int n, long time) {
        if (gathering) {
            sort.dropGathered();
            gathering = false;
        }
        linkAtTail(first, last, n, time);
    }

    /** Links the chain first..last of n entries (last.next null) after the tail, noting whether it breaks the order. */
    private void linkAtTail(TimerEntry first, TimerEntry last, int n, long time) {
        TimerEntry t = tail;
        first.prev = t;
        if (t == null) {
            head = first;
            sorted = true;
        } else {
            t.next = first;
            if (sorted && BatchSort.compare(t, first, time) > 0) {
                sorted = false;
            }
        }
        tail = last;
        size += n;
    }

    /** Whether the list is in (deadline, sequence) order (no append since the last sort broke it). */
    boolean sorted() {
        return sorted;
    }

    /** Takes an entry out of the list (polled, or removed); it becomes DETACHED. */
    void unlink(TimerEntry entry) {
        TimerEntry prev = entry.prev, next = entry.next;
        if (prev == null) {
            head = next;
        } else {
            prev.next = next;
        }
        if (next == null) {
            tail = prev;
        } else {
            next.prev = prev;
        }
        entry.prev = entry.next = null;
        entry.location = TimerEntry.DETACHED;
        size--;
    }

    /**
     * Sorts the list by (deadline, sequence): from the batch gathered by this advance, or (entries of an
     * earlier advance still unpolled) by walking the list.
     */
    private void sortList(long time) {
        if (gathering) {
            assert sort.gathered() == size;
            head = sort.sortGathered(time);
        } else {
            int n = size;
            sort.ensure(n);
            TimerEntry[] entries = sort.entries();
            long[] keys = sort.keys();
            int i = 0;
            for (TimerEntry e = head; e != null; e = e.next, i++) {
                entries[i] = e;
                keys[i] = e.deadline - time;
            }
            head = sort.sort(i, time);
        }
        tail = sort.tail();
        sorted = true;
    }
}
