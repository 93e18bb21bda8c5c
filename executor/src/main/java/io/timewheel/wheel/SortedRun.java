package io.timewheel.wheel;

/**
 * A {@link TimerWheel}'s level 0 and sorted run, in one pool of positions held in arrays: the entries of the
 * level-0 slots other than the current one, each slot a chain of chunks of positions; the entries its advances
 * found due and nobody has polled yet, followed by the entries of the current level-0 slot that are not due
 * yet, in one (deadline, sequence) order. The wheel's own instance; wheel thread only. Allocates only to grow
 * its arrays to the most positions it has held at once (kept and reused after).
 */
final class SortedRun {
    /*
     * Implementation notes
     *
     * Why arrays. The current slot used to be a linked list kept in order and the expired entries a second one:
     * sorting a slot relinked every entry in deadline order (a store into each entry, in an order unrelated to
     * where the entries lie), moving its due head wrote each entry's location again, and polling unlinked each
     * one from its neighbours. Here each entry gets a position when it is filed in level 0 (or joins the run
     * from a level above) and keeps it until it leaves: its location is IN_RUN - position (TimerEntry),
     * refs[position] holds it and deadlines[position] a copy of its deadline. The order is kept apart, as
     * positions in order[]; sorting, merging and finding the due head read the deadline copies and the
     * positions only, never an entry, except to break exact ties by sequence.
     *
     * Why level 0 too. While level-0 slots were linked lists of entries, a slot that became current was walked
     * entry by entry to give each a position: one cache miss per entry (a third of an advance in a profile,
     * bench/results/jdk17/wheel-floor.txt), though the entry was touched again only when handed out. Here a
     * level-0 slot is a chain of chunks of CHUNK positions, filled in filing order, so a slot becomes current
     * by a walk over its positions in address order, and its entries' positions lie together in every array
     * the sort, the merge and the hand-out read. An entry is written when it is filed (location) and when it
     * leaves (polled or removed: location DETACHED), and read between only to break a tie. Linked lists of
     * positions were tried first: the walk became a chain of dependent misses over scattered positions, slower
     * than walking the entries (bench/results/jdk17/level0-pool.txt).
     *
     * Chunks. Position p lies in chunk p / CHUNK. A chunk belongs to one chain (a level-0 slot's, or the run's
     * own, which gets the newcomers appended), which fills it in order (fill), or to none once its chain has
     * moved on (a full chunk of the run's chain) or was taken whole (a slot that joined the run); used counts
     * its positions not yet freed. A chunk of no chain whose positions are all freed goes back to the free
     * chunks; positions are freed one by one but reused only a whole chunk at a time.
     *
     * States of a position (state[p]):
     *   LISTED    in its chunk's slot chain: filed in a level-0 slot other than the current one (refs[p] null
     *             once removed: a listed tombstone, freed when the slot is walked).
     *   NEWCOMER  in newcomers[0, newLen): added to the current slot, or found due, since the last merge.
     *   SORTED    in order[head, end), or left the run while there (refs[p] null: a tombstone, R2).
     *   FREE      freed (its chunk's used count no longer counts it), or never taken.
     *
     * Invariants (between the wheel's calls):
     *   R1 every live entry (refs[p] != null) has location IN_RUN - p and state LISTED, NEWCOMER or SORTED;
     *      refs[p] is null for every other position, and for a tombstone.
     *   R2 order[head, end) lists SORTED positions, each once, sorted by (deadline copy, sequence), deadlines
     *      compared relative to the wheel's time; a tombstone keeps its place (its deadline copy keeps the order)
     *      and is skipped, and is freed when it leaves order[head, end) (poll, earliest, a merge, endTick, or the
     *      run emptying), not before: a chunk is reused only once nothing refers to its positions. Every SORTED
     *      position is in it.
     *   R3 order[head, due) are the found-due entries (deadline at or before dueUpTo, the time the boundary was
     *      last moved to: the wheel's time after an advance that ended, earlier after one cut short; the times
     *      it is given never decrease); order[due, end) the current slot's entries not due then.
     *      dueCount and pendingCount count their live entries; newCount counts the live newcomers (newcomerMin
     *      is a lower bound of their deadlines, relative to the wheel's time); listed counts the live listed.
     *   R4 a live entry is found due (to be handed out by poll) iff it is SORTED and its deadline copy is at or
     *      before dueUpTo (R3), which is how remove knows which count it leaves.
     * Memory: 25 bytes per position (refs, deadlines, state, order, spare, newcomers), plus 20 per newcomer of
     * the largest merge (the sort's scratch), and 8 KB of radix counters once a merge has had KeySort.WIDE_MIN
     * newcomers (1 KB until then). Positions: the entries in level 0 and the run, plus the tombstones not yet
     * passed, plus the unfilled rest of each chain's last chunk (at most CHUNK - 1 per level-0 slot). An entry
     * waits in level 0 at most two level-0 windows (134 ms at the default tick), so the positions are bounded by
     * the timers due in that span, not by all pending ones.
     * Room. A caller about to detach a slot of a level above 0 and walk its entries reserves room for all of
     * them first (reserve: enough free chunks for every one to start a chunk of its own chain, or fill them),
     * so that nothing taken in the middle of a walk has to allocate: an OutOfMemoryError is thrown before any
     * entry has left its slot. Filing or appending outside an advance (the wheel's add) grows the arrays before
     * the entry is touched. merge grows its sort scratch before it changes anything. The wheel then finishes a
     * cut-short advance with the next one (TimerWheel's notes: Advance).
     */

    /** A chunk's positions. */
    static final int CHUNK_BITS = 6, CHUNK = 1 << CHUNK_BITS;
    /** No chunk (an empty chain's head and tail, a chain's last chunk's next, a chunk of no chain's owner). */
    private static final int NONE = -1;
    /** state[p]. */
    private static final byte FREE = 0, LISTED = 1, NEWCOMER = 2, SORTED = 3;
    /** Level-0 slot indexes the run keeps chains for: rows 0 and 1 of the wheel's slot grid. */
    static final int LISTS = 2 * 64;
    /** The run's own chain: where appended newcomers take their positions. */
    private static final int RUN_CHAIN = LISTS;

    /** Bits of a sort key that hold the newcomer's index: up to 2^22 - 1 newcomers per key sort. */
    private static final int INDEX_BITS = 22;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    /** Batches this large or larger whose deadlines span less than 2^RADIX_MAX_BITS ns are radix sorted. */
    private static final int RADIX_MIN = 128;
    private static final int RADIX_MAX_BITS = 32;

    /** The entry at each position, or null. */
    private TimerEntry[] refs = new TimerEntry[0];
    /** The deadline of the entry at each position, as it was when it was filed (kept for a tombstone: R2). */
    private long[] deadlines = new long[0];
    /** Each position's state (the notes). */
    private byte[] state = new byte[0];
    /** Positions in (deadline, sequence) order (R2), and the merge's target (swapped with order). */
    private int[] order = new int[0], spare = new int[0];
    /** The newcomers' positions, newcomers[0, newLen), removed ones included until the next merge frees them. */
    private int[] newcomers = new int[0];
    /** Per chunk: the next chunk of its chain, its positions filled, its positions not freed, its chain. */
    private int[] chunkNext = new int[0], chunkFill = new int[0], chunkUsed = new int[0], chunkOwner = new int[0];
    /** The free chunks, freeChunks[0, freeCount). */
    private int[] freeChunks = new int[0];
    private int freeCount;
    /** Per chain (level-0 slot index, or RUN_CHAIN): its first and last chunk, or NONE. */
    private final int[] chainHead = new int[LISTS + 1], chainTail = new int[LISTS + 1];
    /** Scratch of a merge's sort: the newcomers' positions, their keys, the radix sort's buffer. */
    private int[] fresh = new int[0];
    private long[] keys = new long[0], buffer = new long[0];
    /** The radix sort's counters: for byte passes, grown for 11-bit ones by the first merge that may take them. */
    private int[] radixCount = new int[KeySort.RADIX + 1];

    private int newLen;
    private int head, due, end;
    private int dueCount, pendingCount, newCount, listed;
    private long newcomerMin;
    /** The time of the last moveDue: every sorted live entry due by then is found due, no other (R3, R4). */
    private long dueUpTo;
    /** Tests only: run before the run's arrays or scratch grow (to throw as an allocation failing would), else null. */
    static Runnable growthFault;

    SortedRun() {
        java.util.Arrays.fill(chainHead, NONE);
        java.util.Arrays.fill(chainTail, NONE);
    }

    /** Live entries found due, waiting to be polled. */
    int dueCount() {
        return dueCount;
    }

    /** Live entries not found due in the current slot: sorted, or newcomers. */
    int pendingCount() {
        return pendingCount + newCount;
    }

    /** Live entries listed in level-0 slots other than the current one. */
    int listedCount() {
        return listed;
    }

    /** Whether an entry is in the run and found due (R4). */
    boolean isFoundDue(TimerEntry entry) {
        int p = TimerEntry.IN_RUN - entry.location;
        return entry.location <= TimerEntry.IN_RUN && state[p] == SORTED && deadlines[p] - dueUpTo <= 0;
    }

    /**
     * The level-0 slot index whose chain holds an entry, found by walking the chains, or -1 if the entry is not
     * listed (white-box tests).
     */
    int listOf(TimerEntry entry) {
        if (entry.location > TimerEntry.IN_RUN || state[TimerEntry.IN_RUN - entry.location] != LISTED) {
            return -1;
        }
        int chunk = (TimerEntry.IN_RUN - entry.location) >>> CHUNK_BITS;
        for (int index = 0; index < LISTS; index++) {
            for (int c = chainHead[index]; c != NONE; c = chunkNext[c]) {
                if (c == chunk) {
                    return index;
                }
            }
        }
        throw new IllegalStateException("a listed position in no slot's chain: " + entry);
    }

    /**
     * Makes room for n more positions to be taken, in any chains, without allocating (see the notes: Room):
     * each may need a chunk, up to one new chunk per chain plus one per CHUNK positions.
     */
    void reserve(int n) {
        long chunks = Math.min(n, LISTS + 1) + ((long) n >>> CHUNK_BITS);
        if (freeCount >= chunks) {
            return;
        }
        growing();
        int have = chunkFill.length;
        int capacity = (int) Math.min((Integer.MAX_VALUE - 8) >>> CHUNK_BITS,
                Math.max(4, Math.max(have * 2L, have + chunks - freeCount)));
        int positions = capacity << CHUNK_BITS;
        // every array first, then the fields: out of memory half way leaves the run as it was
        TimerEntry[] r = java.util.Arrays.copyOf(refs, positions);
        long[] d = java.util.Arrays.copyOf(deadlines, positions);
        byte[] s = java.util.Arrays.copyOf(state, positions);
        int[] o = java.util.Arrays.copyOf(order, positions);
        int[] sp = new int[positions];
        int[] c = java.util.Arrays.copyOf(newcomers, positions);
        int[] next = java.util.Arrays.copyOf(chunkNext, capacity);
        int[] fill = java.util.Arrays.copyOf(chunkFill, capacity);
        int[] used = java.util.Arrays.copyOf(chunkUsed, capacity);
        int[] owner = java.util.Arrays.copyOf(chunkOwner, capacity);
        int[] free = java.util.Arrays.copyOf(freeChunks, capacity);
        refs = r;
        deadlines = d;
        state = s;
        order = o;
        spare = sp;
        newcomers = c;
        chunkNext = next;
        chunkFill = fill;
        chunkUsed = used;
        chunkOwner = owner;
        freeChunks = free;
        for (int k = capacity - 1; k >= have; k--) {
            freeChunks[freeCount++] = k; // the lowest first
        }
    }

    /** Before the run's arrays or scratch grow: tests throw an OutOfMemoryError here, as the allocation could. */
    private static void growing() {
        Runnable fault = growthFault;
        if (fault != null) {
            fault.run();
        }
    }

    /**
     * Takes the next position of a chain's last chunk (a new chunk if it is full: growing the arrays first if no
     * room was reserved) and makes the entry its own.
     */
    private int take(TimerEntry entry, int chain) {
        int c = chainTail[chain];
        if (c == NONE || chunkFill[c] == CHUNK) {
            if (freeCount == 0) {
                reserve(1); // before the entry is touched
            }
            int k = freeChunks[--freeCount];
            chunkNext[k] = NONE;
            chunkFill[k] = 0;
            chunkUsed[k] = 0;
            chunkOwner[k] = chain;
            if (c == NONE) {
                chainHead[chain] = k;
            } else if (chain == RUN_CHAIN) {
                release(c); // the run's chain keeps only its last chunk
                chainHead[chain] = k;
            } else {
                chunkNext[c] = k;
            }
            chainTail[chain] = c = k;
        }
        int p = (c << CHUNK_BITS) | chunkFill[c]++;
        chunkUsed[c]++;
        refs[p] = entry;
        deadlines[p] = entry.deadline;
        entry.location = TimerEntry.IN_RUN - p;
        entry.prev = entry.next = null;
        return p;
    }

    /** A chunk leaves its chain: back to the free chunks if none of its positions is in use. */
    private void release(int c) {
        chunkOwner[c] = NONE;
        if (chunkUsed[c] == 0) {
            freeChunks[freeCount++] = c;
        }
    }

    /** Gives back a position nothing refers to any more (R2). */
    private void free(int p) {
        state[p] = FREE;
        int c = p >>> CHUNK_BITS;
        if (--chunkUsed[c] == 0 && chunkOwner[c] == NONE) {
            freeChunks[freeCount++] = c;
        }
    }

    /**
     * Adds an entry to the run as a newcomer: found due by an advance, or added to the current slot. It is
     * sorted into place by the next {@link #merge}. Room must have been {@link #reserve reserved} during an
     * advance; outside one, this grows the run if it must (before the entry is touched).
     */
    void append(TimerEntry entry, long time) {
        join(take(entry, RUN_CHAIN), time);
    }

    /** Files an entry in level-0 slot {@code index}'s chain (room as for {@link #append}). */
    void file(TimerEntry entry, int index) {
        int p = take(entry, index); // first: it may grow state[]
        state[p] = LISTED;
        listed++;
    }

    /**
     * Takes a live entry out of the run; it becomes DETACHED.
     *
     * @return whether it was listed (the caller counts it out of its slot)
     */
    boolean remove(TimerEntry entry) {
        int p = TimerEntry.IN_RUN - entry.location;
        refs[p] = null;
        entry.location = TimerEntry.DETACHED;
        byte s = state[p];
        if (s == LISTED) {
            listed--; // a listed tombstone until its slot is walked
            return true;
        }
        if (s == NEWCOMER) {
            newCount--; // its position stays in newcomers[] until the merge
        } else if (deadlines[p] - dueUpTo <= 0) {
            dueCount--; // R4; a tombstone until it leaves order[] (R2)
        } else {
            pendingCount--;
        }
        emptied();
        return false;
    }

    /**
     * Level-0 slot {@code index}'s chain joins the run: its entries (when the slot becomes current: {@code all}),
     * or those due at the wheel's {@code time} (a slot the clock passed), become newcomers, untouched; the others
     * (a one-level wheel's entries a rotation ahead) leave the run and are handed to {@code replace}, which must
     * place them again (room for them reserved). {@code step} runs after each entry joined (the wheel's pacer).
     */
    void joinSlot(int index, long time, boolean all, java.util.function.Consumer<TimerEntry> replace, Runnable step) {
        int c = chainHead[index];
        chainHead[index] = chainTail[index] = NONE;
        while (c != NONE) {
            int following = chunkNext[c];
            int base = c << CHUNK_BITS, stop = base + chunkFill[c];
            for (int p = base; p < stop; p++) {
                TimerEntry e = refs[p];
                if (e == null) {
                    if (state[p] == LISTED) {
                        free(p); // removed while listed
                    }
                } else if (all || deadlines[p] - time <= 0) {
                    listed--;
                    join(p, time);
                    step.run();
                } else {
                    listed--;
                    refs[p] = null;
                    e.location = TimerEntry.DETACHED;
                    free(p);
                    replace.accept(e); // which runs the step itself
                }
            }
            release(c); // out of the chain: free once its positions are (after the walk: free() would push it)
            c = following;
        }
    }

    private void join(int p, long time) {
        state[p] = NEWCOMER;
        newcomers[newLen++] = p;
        long d = deadlines[p] - time;
        if (newCount++ == 0 || d < newcomerMin) {
            newcomerMin = d;
        }
    }

    /** Hands out the earliest found-due entry (it becomes DETACHED), or null if none is waiting. */
    TimerEntry poll() {
        while (head < due) {
            int p = order[head++];
            TimerEntry e = refs[p];
            free(p);
            if (e != null) {
                refs[p] = null;
                e.location = TimerEntry.DETACHED;
                dueCount--;
                emptied();
                return e;
            }
        }
        return null;
    }

    /**
     * A time at or before every deadline in the run (exact while no newcomer waits and the earliest entry was
     * not removed), or {@code time + Long.MAX_VALUE} if the run is empty. Listed entries are not looked at:
     * the wheel bounds their slots (TimerWheel's I6).
     */
    long earliest(long time) {
        long best = Long.MAX_VALUE; // relative to time
        if (dueCount > 0) {
            while (refs[order[head]] == null) {
                free(order[head++]);
            }
            best = deadlines[order[head]] - time; // the earliest of the sorted part (R2)
        } else if (pendingCount > 0) {
            while (refs[order[due]] == null) {
                due++; // a tombstone may join the found-due part: it is skipped (and freed) there too
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
        reserve(end - due); // those not due may come back: no allocation while they are walked
        int i = moveDue(now);
        if (i == end) {
            return;
        }
        int stop = end;
        end = i; // the rest leaves order[]: R2 holds without it
        for (; i < stop; i++) {
            int p = order[i];
            TimerEntry e = refs[p];
            free(p);
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
            for (int i = 0; i < newLen; i++) {
                int p = newcomers[i];
                if (refs[p] != null) {
                    state[p] = SORTED;
                    fresh[n++] = p;
                } else {
                    free(p);
                }
            }
            newLen = 0;
            sortFresh(n, now);
            if (end + n <= order.length && (head == end || tailBefore(order[end - 1], fresh[0], now))) {
                // all after the run's tail: appended (with no room behind the tail, the merge below starts the
                // order again at 0: order[head, end) moves up as entries are polled, and is not moved back)
                System.arraycopy(fresh, 0, order, end, n);
                end += n;
            } else {
                mergeInto(n, now);
            }
            pendingCount += n;
            newCount = 0;
        } else {
            for (int i = 0; i < newLen; i++) {
                free(newcomers[i]); // every newcomer was removed
            }
            newLen = 0;
        }
        moveDue(now);
        emptied();
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

    /** Merges order[head, end) (freeing its tombstones) and fresh[0, n) into spare, then swaps them. */
    private void mergeInto(int n, long time) {
        int[] out = spare;
        int o = 0, a = head, b = 0;
        while (a < end || b < n) {
            int p;
            if (a < end && refs[order[a]] == null) {
                free(order[a++]);
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

    /** Calls {@code action} for every live entry, listed ones included; it may remove the entry it is given. */
    void forEach(java.util.function.Consumer<TimerEntry> action) {
        for (int p = 0; p < refs.length; p++) {
            TimerEntry e = refs[p];
            if (e != null) {
                action.accept(e);
            }
        }
    }

    /**
     * With no live entry left in the run proper (listed ones aside), every position in order[head, end) and
     * newcomers[0, newLen) is a tombstone: they are freed, and the order starts again at 0.
     */
    private void emptied() {
        if (dueCount + pendingCount + newCount == 0 && (end != 0 || newLen != 0)) {
            for (int i = head; i < end; i++) {
                free(order[i]);
            }
            for (int i = 0; i < newLen; i++) {
                free(newcomers[i]);
            }
            head = due = end = newLen = 0;
        }
    }

    /** The positions the arrays hold (tests: bounded by the most taken at once, R2). */
    int capacity() {
        return refs.length;
    }

    /** The radix sort's counters, 257 or (once grown for 11-bit passes) 2049 (tests). */
    int radixCounters() {
        return radixCount.length;
    }
}
