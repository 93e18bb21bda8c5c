package io.timewheel.wheel;

/**
 * A {@link TimerWheel}'s sorted run: the entries its advances found due and nobody has polled yet, followed by
 * the entries of the current level-0 slot that are not due yet, in one (deadline, sequence) order, held in
 * arrays. The wheel's own instance; wheel thread only. Allocates only to grow its arrays to the largest run it
 * has held (kept and reused after).
 */
final class SortedRun {
    /*
     * Implementation notes
     *
     * Why arrays. Lists kept in deadline order would relink every entry each time a slot is sorted (a store
     * into each entry, in an order unrelated to where the entries lie), write each entry's location again each
     * time the due head moves, and unlink each polled entry from its neighbours. Here each entry gets a
     * position once, when it joins the run, and keeps it: its location is IN_RUN - position (TimerEntry),
     * refs[position] holds it and deadlines[position] a copy of its deadline. The order is kept apart, as
     * positions in order[]; sorting, merging and finding the due head read the deadline copies and the
     * positions only, never an entry, except to break exact ties by sequence. An entry is written twice while
     * in the run: when it joins (location) and when it leaves (polled or removed: location DETACHED,
     * refs[position] cleared).
     *
     * Invariants (between the wheel's calls):
     *   R1 every live entry of the run (refs[p] != null, p < next) has location IN_RUN - p; every other position
     *      below next holds null; positions at or above next hold null.
     *   R2 order[head, end) lists positions below sortedLimit, each at most once, sorted by (deadline copy,
     *      sequence), deadlines compared relative to the wheel's time; positions whose entry left the run may
     *      stay in it (their deadline copy keeps the order) and are skipped. Every live position below
     *      sortedLimit is in order[head, end).
     *   R3 order[head, due) are the found-due entries (deadline at or before dueUpTo, the time the boundary was
     *      last moved to: the wheel's time after an advance that ended, earlier after one cut short; the times
     *      it is given never decrease); order[due, end) the current slot's entries not due then.
     *      dueCount and pendingCount count their live entries; newCount counts the live positions at or above
     *      sortedLimit: the newcomers, added to the current slot or found due since the last merge, not yet
     *      sorted (newcomerMin is a lower bound of their deadlines, relative to the wheel's time).
     *   R4 a live entry is found due (to be handed out by poll) iff its position is below sortedLimit and its
     *      deadline copy is at or before dueUpTo (R3), which is how remove knows which count it leaves.
     *
     * Positions. They grow while the run is not empty and start again at 0 once it is (reset); a run that never
     * empties (the current slot's entries not due yet stay across advances) is compacted when it runs out of
     * positions: live entries moved down, in position order, their locations rewritten. The capacity is kept at
     * least twice the entries live after a compaction, so it costs O(live) per at least as many appends
     * (keeping only a quarter free makes compaction a large share of WheelBenchmark advance). Retained at the
     * peak, with compressed references: 20 bytes per position (refs, deadlines, order, spare; capacity up to
     * twice the largest run), 20 per newcomer of the largest merge (fresh, keys, buffer), and 8 KB of radix
     * counters once a merge has had KeySort.WIDE_MIN newcomers (1 KB until then).
     *
     * Room. A caller about to detach a slot and walk its entries reserves room for all of them first
     * (reserve), so that no append in the middle of a walk has to allocate: an OutOfMemoryError is thrown
     * before any entry has left its slot. merge grows its sort scratch before it changes anything. The wheel
     * then finishes a cut-short advance with the next one (TimerWheel's notes: Advance).
     */

    /** Bits of a sort key that hold the newcomer's index: up to 2^22 - 1 newcomers per key sort. */
    private static final int INDEX_BITS = 22;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    /** Batches this large or larger whose deadlines span less than 2^RADIX_MAX_BITS ns are radix sorted. */
    private static final int RADIX_MIN = 128;
    private static final int RADIX_MAX_BITS = 32;

    // Every instance field: the wheel thread's; the package-private ones are also read by WheelSeam (the tests'
    // seam), on the wheel thread.

    /** The entry at each position, or null. */
    private TimerEntry[] refs = new TimerEntry[0];
    /** The deadline of the entry at each position, as it was when it joined (kept after it leaves: R2). */
    long[] deadlines = new long[0];
    /** Positions in (deadline, sequence) order (R2), and the merge's target (swapped with order). */
    private int[] order = new int[0], spare = new int[0];
    /** Scratch of a merge's sort: the newcomers' positions, their keys, the radix sort's buffer. */
    private int[] fresh = new int[0];
    private long[] keys = new long[0], buffer = new long[0];
    /** The radix sort's counters: for byte passes, grown for 11-bit ones by the first merge that may take them. */
    int[] radixCount = new int[KeySort.RADIX + 1];

    private int next;
    int sortedLimit;
    private int head, due, end;
    int dueCount, pendingCount, newCount;
    private long newcomerMin;
    /** The time of the last moveDue: every sorted live entry due by then is found due, no other (R3, R4). */
    long dueUpTo;
    /** Run before the arrays or scratch grow, or null: a fault the tests inject (WheelSeam). Any thread. */
    static volatile Runnable growthFault;
    /** Compactions so far (read by the tests' WheelSeam). Wheel thread. */
    int compactions;

    /** Live entries found due, waiting to be polled. */
    int dueCount() {
        return dueCount;
    }

    /** Makes room for n more appends without allocating (see the notes: Room). */
    void reserve(int n) {
        if (next + n <= refs.length) {
            return;
        }
        int live = dueCount + pendingCount + newCount;
        int capacity = refs.length;
        if (live + n > capacity >> 1) {
            growing();
            // at most half in use after compacting: the next compaction comes after at least as many appends
            // as there are live entries to move, so compacting costs at most one rewrite per append
            capacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, Math.max(capacity * 2L, 2L * (live + n))));
            // every array first, then the fields: out of memory half way leaves the run as it was
            TimerEntry[] r = java.util.Arrays.copyOf(refs, capacity);
            long[] d = java.util.Arrays.copyOf(deadlines, capacity);
            int[] o = java.util.Arrays.copyOf(order, capacity);
            int[] s = new int[capacity];
            refs = r;
            deadlines = d;
            order = o;
            spare = s;
        }
        compact();
    }

    /** Before the run's arrays or scratch grow: tests throw an OutOfMemoryError here, as the allocation could. */
    private static void growing() {
        Runnable fault = growthFault;
        if (fault != null) {
            fault.run();
        }
    }

    /**
     * Adds an entry to the run as a newcomer: found due by an advance, or added to the current slot. It is
     * sorted into place by the next {@link #merge}. Room must have been {@link #reserve reserved} during an
     * advance; outside one, this grows the run if it must (before the entry is touched).
     */
    void append(TimerEntry entry, long time) {
        if (next == refs.length) {
            reserve(1);
        }
        int p = next++;
        refs[p] = entry;
        long deadline = entry.deadline;
        deadlines[p] = deadline;
        entry.location = TimerEntry.IN_RUN - p;
        entry.prev = entry.next = null;
        if (newCount++ == 0 || deadline - time < newcomerMin) {
            newcomerMin = deadline - time;
        }
    }

    /** Takes a live entry out of the run; it becomes DETACHED. */
    void remove(TimerEntry entry) {
        int p = TimerEntry.IN_RUN - entry.location;
        refs[p] = null;
        entry.location = TimerEntry.DETACHED;
        if (p >= sortedLimit) {
            newCount--;
        } else if (deadlines[p] - dueUpTo <= 0) {
            dueCount--; // R4
        } else {
            pendingCount--;
        }
        resetIfEmpty();
    }

    /** Hands out the earliest found-due entry (it becomes DETACHED), or null if none is waiting. */
    TimerEntry poll() {
        while (head < due) {
            int p = order[head++];
            TimerEntry e = refs[p];
            if (e != null) {
                refs[p] = null;
                e.location = TimerEntry.DETACHED;
                dueCount--;
                resetIfEmpty();
                return e;
            }
        }
        return null;
    }

    /**
     * A time at or before every deadline in the run (exact while no newcomer waits and the earliest entry was
     * not removed), or {@code time + Long.MAX_VALUE} if the run is empty.
     */
    long earliest(long time) {
        long best = Long.MAX_VALUE; // relative to time
        if (dueCount > 0) {
            while (refs[order[head]] == null) {
                head++;
            }
            best = deadlines[order[head]] - time; // the earliest of the sorted part (R2)
        } else if (pendingCount > 0) {
            while (refs[order[due]] == null) {
                due++; // a removed entry may join the found-due part: it is skipped there too
            }
            best = deadlines[order[due]] - time;
        }
        if (newCount > 0 && newcomerMin < best) {
            best = newcomerMin;
        }
        return time + best;
    }

    /**
     * At a tick's end (the wheel's time has moved into a later tick): the sorted entries of the old current
     * slot that are due now join the found-due part; the others (a one-level wheel's entries a rotation or
     * more ahead, which hash into the current slot) leave the run and are handed to {@code replace}, which
     * must place them again. Newcomers are left for {@link #merge}.
     */
    void endTick(long now, java.util.function.Consumer<TimerEntry> replace) {
        reserve(end - due); // those not due may come back as newcomers: no allocation while they are walked
        int i = moveDue(now);
        if (i == end) {
            return;
        }
        int stop = end;
        end = i; // the rest leaves the run: R2 holds without it
        for (; i < stop; i++) {
            int p = order[i];
            TimerEntry e = refs[p];
            if (e != null) {
                refs[p] = null;
                e.location = TimerEntry.DETACHED;
                pendingCount--;
                replace.accept(e);
            }
        }
    }

    /**
     * Sorts the newcomers into the run, and moves the boundary of the found-due part past every entry due at
     * {@code now} (R3): the wheel's time, at a tick's end before {@link #endTick} and at the end of an advance.
     */
    void merge(long now) {
        if (newCount > 0) {
            if (fresh.length < newCount) {
                // the sort's scratch, sized by the largest batch of newcomers (out of memory here: nothing changed)
                growing();
                int size = (int) Math.min(refs.length, Math.max(16, Math.max(newCount, 2L * fresh.length)));
                int[] f = new int[size];
                long[] k = new long[size], b = new long[size];
                fresh = f;
                keys = k;
                buffer = b;
            }
            if (newCount >= KeySort.WIDE_MIN && radixCount.length <= KeySort.WIDE_RADIX) {
                // the 11-bit passes' counters (8 KB), only for a wheel whose merges get that large
                growing();
                radixCount = new int[KeySort.WIDE_RADIX + 1];
            }
            int n = 0;
            for (int p = sortedLimit; p < next; p++) {
                if (refs[p] != null) {
                    fresh[n++] = p;
                }
            }
            sortFresh(n, now);
            if (head == end || tailBefore(order[end - 1], fresh[0], now)) {
                System.arraycopy(fresh, 0, order, end, n); // all after the run's tail: append
                end += n;
            } else {
                mergeInto(n, now);
            }
            pendingCount += n;
            newCount = 0;
        }
        sortedLimit = next;
        moveDue(now);
        resetIfEmpty();
    }

    /** Moves the found-due boundary past every sorted entry due at {@code now} (R3), and returns it. */
    private int moveDue(long now) {
        dueUpTo = now;
        int i = due;
        while (i < end) {
            int p = order[i];
            if (refs[p] != null) {
                if (deadlines[p] - now > 0) {
                    break;
                }
                dueCount++;
                pendingCount--;
            }
            i++;
        }
        due = i;
        return i;
    }

    /** Merges order[head, end) (dropping left entries) and fresh[0, n) into spare, then swaps them. */
    private void mergeInto(int n, long time) {
        int[] out = spare;
        int o = 0, a = head, b = 0;
        while (a < end || b < n) {
            int p;
            if (a < end && refs[order[a]] == null) {
                a++;
                continue;
            }
            if (b == n || (a < end && compare(order[a], fresh[b], time) < 0)) {
                p = order[a++];
            } else {
                p = fresh[b++];
            }
            out[o++] = p;
        }
        // Found-due entries sort before every newcomer that is not due; a due newcomer may sort among them,
        // so the found-due boundary is recomputed by merge's scan from the merged part's start.
        spare = order;
        order = out;
        head = 0;
        end = o;
        due = 0;
        pendingCount += dueCount;
        dueCount = 0;
    }

    /** Sorts fresh[0, n) by (deadline, sequence), deadlines relative to {@code time}. */
    private void sortFresh(int n, long time) {
        if (n < 2) {
            return;
        }
        long low = deadlines[fresh[0]] - time, high = low;
        for (int j = 1; j < n; j++) {
            long d = deadlines[fresh[j]] - time;
            if (d < low) {
                low = d;
            } else if (d > high) {
                high = d;
            }
        }
        if (n <= INDEX_MASK && high - low >= 0 && (high - low) >>> (63 - INDEX_BITS) == 0) {
            for (int j = 0; j < n; j++) {
                keys[j] = ((deadlines[fresh[j]] - time - low) << INDEX_BITS) | j;
            }
            int rangeBits = Long.SIZE - Long.numberOfLeadingZeros(high - low);
            if (n >= RADIX_MIN && rangeBits <= RADIX_MAX_BITS) {
                KeySort.radixSort(keys, buffer, radixCount, n, INDEX_BITS, rangeBits);
            } else {
                KeySort.sort(keys, 0, n - 1);
            }
            // equal deadlines: insertion sort by sequence within each run of them (runs are short)
            for (int j = 1; j < n; j++) {
                long key = keys[j];
                if (keys[j - 1] >>> INDEX_BITS != key >>> INDEX_BITS) {
                    continue;
                }
                int k = j - 1;
                while (k >= 0 && keys[k] >>> INDEX_BITS == key >>> INDEX_BITS
                        && sequenceAfter(fresh[(int) (keys[k] & INDEX_MASK)], fresh[(int) (key & INDEX_MASK)])) {
                    keys[k + 1] = keys[k];
                    k--;
                }
                keys[k + 1] = key;
            }
            int[] sorted = spare;
            for (int j = 0; j < n; j++) {
                sorted[j] = fresh[(int) (keys[j] & INDEX_MASK)];
            }
            System.arraycopy(sorted, 0, fresh, 0, n);
        } else {
            mergeSort(n, time); // too many, or too far apart for the key
        }
    }

    /** Bottom-up merge sort of fresh[0, n) through spare, stable. */
    private void mergeSort(int n, long time) {
        int[] from = fresh, to = spare;
        for (int width = 1; width < n; width <<= 1) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
                int a = lo, b = mid, o = lo;
                while (a < mid || b < hi) {
                    if (b == hi || (a < mid && compare(from[a], from[b], time) <= 0)) {
                        to[o++] = from[a++];
                    } else {
                        to[o++] = from[b++];
                    }
                }
            }
            int[] t = from;
            from = to;
            to = t;
        }
        if (from != fresh) {
            System.arraycopy(from, 0, fresh, 0, n);
        }
    }

    /**
     * Whether the run's last position (live or not) sorts before a newcomer: then every live entry of the run
     * does (R2), and the newcomers can be appended. Undecided for equal deadlines behind a left entry: false.
     */
    private boolean tailBefore(int tail, int first, long time) {
        long dt = deadlines[tail] - time, df = deadlines[first] - time;
        if (dt != df) {
            return dt < df;
        }
        return refs[tail] != null && compare(tail, first, time) < 0;
    }

    /** (deadline, sequence) order of two live positions, deadlines relative to {@code time}. */
    private int compare(int p, int q, long time) {
        long dp = deadlines[p] - time, dq = deadlines[q] - time;
        if (dp != dq) {
            return dp < dq ? -1 : 1;
        }
        TimerEntry a = refs[p], b = refs[q];
        int bySequence = a.sequence - b.sequence;
        return bySequence < 0 ? -1 : (bySequence == 0 ? 0 : 1);
    }

    private boolean sequenceAfter(int p, int q) {
        return refs[p].sequence - refs[q].sequence > 0;
    }

    /** Calls {@code action} for every live entry; it may {@link #remove} the entry it is given. */
    void forEach(java.util.function.Consumer<TimerEntry> action) {
        for (int p = 0; p < next; p++) {
            TimerEntry e = refs[p];
            if (e != null) {
                action.accept(e);
            }
        }
    }

    /** With no live entry left, positions start again at 0 (R1: every position holds null then). */
    private void resetIfEmpty() {
        if (dueCount + pendingCount + newCount == 0 && next != 0) {
            next = sortedLimit = head = due = end = 0;
        }
    }

    /** Moves the live entries to positions 0 .. live - 1, in position order, keeping the run's order. */
    private void compact() {
        compactions++;
        int[] map = spare;
        int c = 0;
        for (int p = 0; p < next; p++) {
            TimerEntry e = refs[p];
            if (e == null) {
                map[p] = -1;
                continue;
            }
            map[p] = c;
            refs[c] = e;
            deadlines[c] = deadlines[p];
            e.location = TimerEntry.IN_RUN - c;
            c++;
        }
        java.util.Arrays.fill(refs, c, next, null);
        int o = 0, newDue = 0;
        for (int i = head; i < end; i++) {
            int q = map[order[i]];
            if (i == due) {
                newDue = o;
            }
            if (q >= 0) {
                order[o++] = q;
            }
        }
        due = due == end ? o : newDue;
        head = 0;
        end = o;
        sortedLimit = c - newCount; // position order is kept: the newcomers are the last newCount live ones
        next = c;
    }
}
