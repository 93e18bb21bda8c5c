package io.timewheel.wheel;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A hashed hierarchical timing wheel with round counts at the top level and exact deadlines.
 *
 * <p>Not thread safe: one thread owns a wheel and makes every call. The wheel never reads a clock: each
 * operation works against the time given to the last {@link #advance(long)}. It never locks, and allocates
 * only to grow its sorted run (the current slot and the expired entries, as arrays) to the largest it has
 * held (kept and reused after).
 *
 * @param <E> the entry type
 */
public final class TimerWheel<E extends TimerEntry> {
    /*
     * Implementation notes
     *
     * Algorithm. Varghese & Lauck, "Hashed and Hierarchical Timing Wheels" (1987/1997): Scheme 7
     * (hierarchical wheels) for the levels below the top, Scheme 6 (hashed wheel with round counts) at
     * the top. Time is the raw nanoTime value read as an unsigned 64-bit ring; a tick is 2^tickShift ns.
     * Level k has 64 slots and slot index digit_k(t) = (t >>> (tickShift + 6k)) & 63: each level spans
     * 64 times the one below, like the digits of an odometer. Level count L = ceil((42 - tickShift) / 6),
     * at least 1, so the levels below the round counts span at least 2^42 ns (73 min); with the default
     * tick of 2^20 ns (1.05 ms) L = 4 and the wheel spans 2^44 ns (4.9 h) before round counts start.
     *
     * Placement (relative to the wheel's time C, entry deadline d, ticks D = d >>> tickShift; the window of
     * level k is 64 of its slots, window_k(t) = t >>> (tickShift + 6(k + 1))):
     *   d <= C, or D == tick(C)        -> level 0, slot digit_0(C): "the current slot"
     *   window_j(d) == window_j(C) + 1 -> level j, slot digit_j(d), in its other bank: j the lowest banked
     *                                     level (below) for which this holds, if one lies below k
     *   otherwise                      -> level k = min(L - 1, highestBit(D ^ tick(C)) / 6), slot digit_k(d)
     * The level is the highest odometer digit in which deadline and now differ. The levels below the top two
     * are banked: each has two banks of 64 slots, for its even and odd windows (rows 2k and 2k + 1 of the slot
     * arrays; the top two levels use row 2k only): the current window's and the next one's (Cascades below).
     * The top level's slots mix rotations and the level below it has nothing above to move down from but the
     * top, so neither has a second bank; a wheel of one or two levels has none. A deadline beyond the top
     * level's span hashes into a top-level slot and waits there for the rotations that remain (Scheme 6);
     * its round count is implicit in its exact deadline and is re-derived each time the slot is visited, so
     * no decrement pass runs per rotation, and any deadline up to Long.MAX_VALUE ns ahead is accepted in
     * O(1), with no overflow list and no clamp.
     *
     * Invariants (between calls):
     *   I1  level 0: every entry in slot digit_0(C) of the current window's bank (the current slot) has tick
     *       <= tick(C); every other entry of that bank lies in the current window, in a later slot than C;
     *       every entry of the other bank lies in the next window (if level 0 is banked). The current slot's
     *       entries wait in the sorted run, not in its lanes (which are empty between calls): in order, or as
     *       newcomers added since the last advance, which the next advance sorts in (SortedRun).
     *   I2  level 0 < k < L-1: entries of the current window's bank share C's digits above k and their digit
     *       k is greater than C's, so an occupied slot is always ahead of the clock (next occupied slot =
     *       lowest set bitmap bit); entries of the other bank lie in the level's next window. The slot above a
     *       banked level that holds the level's next window keeps only what has not been moved down yet.
     *   I3  top level: an entry's top prefix (t >>> (tickShift + 6(L-1))) is ahead of C's.
     *   I4  entries in a level's current bank are due no later than those at higher levels and in its other
     *       bank (I1 and I2), so the earliest deadline lies in the first occupied slot of the lowest non-empty
     *       current bank, or of a lower level's other bank (a next window is partly moved down, partly above),
     *       except at the top where rotations interleave and every occupied slot is looked at; or in the sorted
     *       run, which holds the current level-0 slot (nextDeadline asks it first).
     *   I5  occupied[r] has bit s set iff slot s of row r is non-empty.
     *   I6  slotMin[i] <= every deadline in non-empty slot i, both measured from the wheel's time (exact
     *       after the slot is rebuilt, a lower bound after removals; the current slot's lanes are empty, I1).
     *       Two deadlines in one slot can be more than 2^63 ns apart (one behind the clock, one a round count
     *       ahead), so never compare them directly.
     *   I7  the sorted run holds exactly the entries found due by advance and not yet polled, in (deadline,
     *       sequence) order ahead of the current slot's (SortedRun's R3, R4). size counts slot entries plus the
     *       run's.
     *   I8  an entry is in exactly one place: one lane of one slot, the sorted run, or none (location says
     *       which slot, or the entry's position in the run; the lane follows from the slot and the entry's
     *       sequence, see I9).
     *   I9  lanes: a slot is LANES linked lists; counts[i] is the number of entries in all lanes of slot i. An
     *       entry of slot i waits in lane (sequence & LANE_MASK).
     *
     * Advance from C to N (N >= C): first the level-0 slots the clock passed (due entries only; in either
     * bank), then for each level from the top down, the slots the clock passed or entered (in either bank: a
     * bank the clock left holds due entries only; rebuilding a slot whose entries were placed there for the
     * window after next puts them back) are detached whole and each of their entries either joins the sorted
     * run (deadline <= N) or is placed again relative to N, which sends it to a lower level (a cascade) or, at
     * the top, back to its slot for another rotation. Placing an entry again is idempotent, so visiting a slot
     * that holds valid entries is harmless. The current level-0 slot is never rebuilt: when the clock enters a
     * new tick, the old current slot's sorted entries are due (SortedRun.endTick; in a one-level wheel those a
     * rotation ahead are placed again) and the new current slot's entries join the run; the advance ends by
     * sorting everything that joined the run (the found-due entries, the new current slot, entries placed in
     * it) into the run once, by their deadlines as primitive keys, and moving the run's found-due boundary past
     * what is due at N. So many advances within one tick cost only the entries they expire, and an entry is
     * written once when it joins the run and once when it leaves it: no relinking in deadline order, no walk to
     * mark the due head (a current slot kept as a list in deadline order loses in WheelBenchmark advance and
     * window). The slot grid decides where entries wait, never when they fire, so none is handed out early and
     * equal deadlines come out in insertion order whatever path they cascaded through. An advance visits the
     * slots from settled, the time of the last advance that ended: the run grows (the only allocation) before a
     * slot is detached, so one that fails leaves every entry somewhere valid, and the next advance visits the
     * slots that one skipped (and again some it did visit, which is harmless: TimerWheelOutOfMemoryTest).
     *
     * Cascades, spread. A slot of level k >= 1 is rebuilt whole by the advance that enters it, and under a
     * steady stream of timers due beyond the level-0 window each level-1 slot holds 64 ticks' worth of them, a
     * level-2 slot 64 times more: rebuilt at once, such a slot is the longest burst of the wheel's thread, and
     * in the executor the timers that fall due meanwhile start late (`lateness`). So each advance ends, for
     * each banked level from the top down, by moving a share of the slot above that holds the level's next
     * window down into the level's other bank (moveNextSlotDown): after an advance at digit t of the level, at
     * most (63 - t) / 64 of the entries the slot held when the window's first advance looked at it stay, and
     * the advance that enters the next window rebuilds only what is left. A share is taken from the heads of
     * the slot's lanes in turn (order does not matter: the level below sorts by deadline) and placed as any
     * entry. Entries added for a banked level's next window go to its other bank at once, so nothing is added
     * to that slot meanwhile. When the level's next window starts a window of the level above, its entries are
     * in that level's other bank if it is banked (moved down during its own window); if not (it is the second
     * level from the top), they wait at the top and are not spread. Not spread either: the top level's cascades
     * (TimerWheelCascadeTest).
     *
     * Memory access. Entries lie wherever their owners allocated them, so walking a long slot list is a chain
     * of dependent cache misses (each address comes from the entry before), and most of an expiry's cost is in
     * the first walk over a slot. Splitting each slot into LANES lists (I9), filled in turn, lets a walk follow
     * all lanes at once, one entry from each in turn: LANES independent misses in flight instead of one, at no
     * cost per entry (the lanes' heads and tails are per slot). The sorted run holds its entries in arrays with
     * a copy of each deadline, and sorts positions by those copies (an LSD radix sort for large batches of one
     * tick's deadlines), reading an entry only to break an exact tie: an entry's line is loaded once, when it
     * joins the run, and again when it is handed out. Arrays for every slot would expose every load to the
     * memory system at once, but cost a slot array reference and a deadline per pending entry (8-12 bytes more
     * per timer: past the `memory` target of 60 bytes per pending timer, which the executor's 56-byte task
     * meets with no padding to spare); the run holds only the current slot and the entries found due. Holding
     * level 0 alone that way (a pool of positions, each slot a chain of chunks of them, so that a slot becoming
     * current joins the run untouched) trades faster advances for slower adds, loses once timers cascade into
     * level 0, and costs memory per level-0 timer (WheelBenchmark add, advance and window; `memory`).
     *
     * Pacing. One advance can move thousands of entries (a slot joining the run when it becomes current, a
     * cascade), a long stint of its thread. A driver whose thread shares CPUs with latency-sensitive threads
     * can set a pacer: advance runs it after every PACE_ENTRIES entries it moves (joining the run, placed
     * again), between two entries, in the middle of the advance (the slot being walked detached, its entries
     * the walk's; the run being filled), so the pacer must not call the wheel. It is not run inside the run's
     * sort and merge. The executor's tick thread yields its CPU from it (Pacer, in the executor's internal
     * package).
     *
     * Deadlines are compared as differences (a - b < 0), like System.nanoTime values, so the wheel works
     * anywhere in the long range, including across the wrap; pending deadlines must lie within 2^63 - 1 ns
     * of the wheel's time. Sequences are ints compared the same way: equal deadlines are ordered correctly
     * while fewer than 2^31 adds separate them.
     */

    /** Default tick: 2^20 ns = 1.05 ms. */
    public static final long DEFAULT_TICK_NANOS = 1L << 20;
    /** Largest tick: 2^36 ns = 68.7 s. */
    public static final long MAX_TICK_NANOS = 1L << 36;

    /** How many entries {@link #advance} moves between two runs of its {@linkplain #pacer(Runnable) pacer}. */
    public static final int PACE_ENTRIES = 16;

    private static final int SLOT_BITS = 6;
    private static final int SLOTS = 1 << SLOT_BITS; // 64
    private static final int SLOT_MASK = SLOTS - 1;
    /** The levels below the top span at least 2^42 ns = 73.3 min. */
    private static final int MIN_SPAN_BITS = 42;

    /** log2 of the tick. Immutable. */
    private final int tickShift;
    /** Levels, the top one included. Immutable. */
    private final int levels;
    /** Mask of a top-level prefix: the top digit and the rotation bits above it. Immutable. */
    private final long topPrefixMask;

    /** Lanes per slot: a slot is this many linked lists, an entry's lane chosen by its sequence. */
    private static final int LANE_BITS = 3;
    private static final int LANES = 1 << LANE_BITS;
    private static final int LANE_MASK = LANES - 1;

    // All fields below: wheel thread only.
    /** Lane heads and tails: slot index i, lane j at (i << LANE_BITS) | j. */
    private final TimerEntry[] heads;
    private final TimerEntry[] tails;
    /** Entries per slot, all lanes together. */
    private final int[] counts;
    /** Walk cursors, one per lane, for the lockstep walks of a slot (a field: no allocation per walk). */
    private final TimerEntry[] cursors = new TimerEntry[LANES];
    /** The entries of one round of a lockstep walk (rebuildSlot), one per lane. */
    private final TimerEntry[] round = new TimerEntry[LANES];
    private final long[] slotMin;
    /** Bitmaps of non-empty slots, one per row: level k has rows 2k and 2k + 1 (its banks; see the notes). */
    private final long[] occupied;
    /** Levels 0 .. banked - 1 have two banks, for their current and next windows (see the notes). Immutable. */
    private final int banked;
    /** Per banked level: the slot above being moved down ahead of its window (see the notes), or -1. */
    private final int[] movingSlot;
    /** Per banked level: that slot's count when the move began. */
    private final int[] movingTotal;
    /** The entries found due and not yet polled, then the current slot's (I1, I7). Package-private for WheelSeam. */
    final SortedRun run = new SortedRun();
    /** Places again an entry that left the sorted run at a tick's end (a field: no allocation per advance). */
    private final Consumer<TimerEntry> replace = entry -> {
        place(entry);
        paced();
    };
    private long time;
    /**
     * Every slot the clock passed or entered up to this time has been visited: the time of the last advance
     * that ended, which is the wheel's time unless one was cut short (see advance).
     */
    private long settled;
    private int size;
    private int nextSequence;
    /** Run after every PACE_ENTRIES entries advance moves (see the notes), or null. */
    private Runnable pacer;
    /** Entries moved since the pacer last ran. */
    private int unpaced;

    /**
     * A wheel with the {@linkplain #DEFAULT_TICK_NANOS default tick} whose clock starts at {@code now}.
     *
     * @param now the wheel's time, in {@link System#nanoTime()} units
     */
    public TimerWheel(long now) {
        this(DEFAULT_TICK_NANOS, now);
    }

    /**
     * Checks a tick for a wheel: a power of two from 1 to {@link #MAX_TICK_NANOS}.
     *
     * @param tickNanos the tick to check, in nanoseconds
     * @return {@code tickNanos}
     * @throws IllegalArgumentException if a wheel does not accept it as its tick
     */
    public static long checkTickNanos(long tickNanos) {
        if (tickNanos <= 0 || tickNanos > MAX_TICK_NANOS || Long.bitCount(tickNanos) != 1) {
            throw new IllegalArgumentException("tickNanos must be a power of two in [1, 2^36]: " + tickNanos);
        }
        return tickNanos;
    }

    /**
     * A wheel whose clock starts at {@code now}.
     *
     * @param tickNanos the level-0 slot width: a power of two from 1 to {@link #MAX_TICK_NANOS}
     * @param now       the wheel's time, in {@link System#nanoTime()} units
     * @throws IllegalArgumentException if {@code tickNanos} is not such a power of two
     */
    public TimerWheel(long tickNanos, long now) {
        checkTickNanos(tickNanos);
        this.tickShift = Long.numberOfTrailingZeros(tickNanos);
        this.levels = Math.max(1, (MIN_SPAN_BITS - tickShift + SLOT_BITS - 1) / SLOT_BITS);
        int topPrefixBits = Long.SIZE - tickShift - SLOT_BITS * (levels - 1);
        this.topPrefixMask = topPrefixBits >= Long.SIZE ? -1L : (1L << topPrefixBits) - 1;
        this.banked = Math.max(0, levels - 2);
        this.movingSlot = new int[banked];
        this.movingTotal = new int[banked];
        Arrays.fill(movingSlot, -1);
        int rows = 2 * levels; // the odd banks of the top two levels stay empty
        this.heads = new TimerEntry[rows * SLOTS * LANES];
        this.tails = new TimerEntry[rows * SLOTS * LANES];
        this.counts = new int[rows * SLOTS];
        this.slotMin = new long[rows * SLOTS];
        this.occupied = new long[rows];
        this.time = now;
        this.settled = now;
    }

    /**
     * Sets the pacer: {@link #advance} runs it after every {@link #PACE_ENTRIES} entries it moves (expires,
     * gathers for a sort or places again), so that the wheel's thread can give way during a long advance (the
     * executor's tick thread yields its CPU). It runs on the wheel's thread, in the middle of an advance: it
     * must not call this wheel; anything it throws is ignored. {@code null}: none (the default).
     *
     * @param pacer what to run during a long advance, or {@code null}
     */
    public void pacer(Runnable pacer) {
        this.pacer = pacer;
        this.unpaced = 0;
    }

    /** One more entry moved by advance: runs the pacer after every PACE_ENTRIES of them (see the notes). */
    private void paced() {
        if (pacer != null && ++unpaced == PACE_ENTRIES) {
            unpaced = 0;
            try {
                pacer.run();
            } catch (Throwable ignored) {
                // a hint only: the advance must go on, or the slot it walks would lose its entries
            }
        }
    }

    /** {@return the level-0 slot width in nanoseconds} */
    public long tickNanos() {
        return 1L << tickShift;
    }

    /** {@return the number of levels, the top one included} */
    public int levels() {
        return levels;
    }

    /** {@return the wheel's time: the largest {@code now} given to {@link #advance} (or the constructor)} */
    public long time() {
        return time;
    }

    /** {@return the number of entries in the wheel, the expired ones not yet polled included} */
    public int size() {
        return size;
    }

    /** {@return whether the wheel holds no entry, pending or expired} */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Adds an entry with its current {@link TimerEntry#deadline()}, in O(1) (amortized when it goes into the
     * current level-0 slot: the sorted run's arrays may grow; the next advance sorts it in). Any deadline is
     * accepted: one at or before the wheel's time is handed out by the next {@link #advance}; one up to
     * {@code Long.MAX_VALUE} ns ahead waits for it.
     *
     * @param entry the entry to add
     * @throws IllegalStateException if the entry is already in a wheel
     */
    public void add(E entry) {
        if (entry.location != TimerEntry.DETACHED) {
            throw new IllegalStateException("entry is already in a wheel");
        }
        entry.sequence = nextSequence++;
        place(entry);
        size++;
    }

    /**
     * Adds an entry as {@link #add} does, keeping the sequence it was constructed with
     * ({@link TimerEntry#TimerEntry(long, int)}) to break ties between equal deadlines. Use one or the other
     * for all entries of a wheel.
     *
     * @param entry the entry to add
     * @throws IllegalStateException if the entry is already in a wheel
     */
    public void addInSequence(E entry) {
        if (entry.location != TimerEntry.DETACHED) {
            throw new IllegalStateException("entry is already in a wheel");
        }
        place(entry);
        size++;
    }

    /**
     * Removes an entry in O(1) through the entry itself. The entry must have been added to this wheel.
     *
     * @param entry the entry to remove
     * @return whether the entry was in the wheel (pending or expired and not yet polled)
     */
    public boolean remove(E entry) {
        int location = entry.location;
        if (location == TimerEntry.DETACHED || location == TimerEntry.IN_INBOX) {
            return false;
        }
        if (location <= TimerEntry.IN_RUN) {
            run.remove(entry);
        } else {
            unlinkFromSlot(entry, location);
        }
        size--;
        return true;
    }

    /**
     * Moves the wheel's time to {@code now} (a time before the wheel's time counts as no time passing)
     * and makes every entry whose deadline is at or before it available to {@link #poll()}, in (deadline,
     * sequence) order. Cost: the entries in the slots passed, each once per level it descends, and a sort of the
     * entries that joined the sorted run (the current slot's, and those found due).
     *
     * @param now the time, in {@link System#nanoTime()} units
     * @return the number of entries waiting to be polled
     */
    public int advance(long now) {
        // From where the last advance that ended left the slots (see the notes: Advance, settled).
        long from = settled;
        if (now - time < 0) {
            now = time;
        }
        time = now;
        int current = currentIndex(now);
        if ((from >>> tickShift) != (now >>> tickShift)) {
            // The old current slot's sorted entries are due now (a one-level wheel's a rotation ahead are placed
            // again); the new current slot's join the run, to be sorted with everything else found below.
            run.merge(now); // the old tick's newcomers first, so that endTick sees every entry of the old slot
            run.endTick(now, replace);
            int n = counts[current];
            if (n != 0) {
                run.reserve(n);
                joinRun(current);
            }
        }
        // Level 0 first: the slots it passed hold due entries only, so a bank the clock left is empty
        // before the levels above place entries of the window after next into it (at the levels above,
        // a rebuild that meets such entries puts them back).
        rebuildLevel(0, from, now, current);
        for (int level = levels - 1; level >= 1; level--) {
            rebuildLevel(level, from, now, current);
        }
        for (int level = banked - 1; level >= 0; level--) {
            moveNextSlotDown(level, now);
        }
        // Everything found due or placed in the current slot by this advance is sorted into the run once.
        run.merge(now);
        settled = now;
        return run.dueCount();
    }

    /**
     * Rebuilds the slots of {@code level} that the clock passed or entered from {@code from} to {@code now},
     * in either bank; at level 0 the slots passed and the old current one, but not {@code current}.
     */
    private void rebuildLevel(int level, long from, long now, int current) {
        int fromDigit = digit(from, level), toDigit = digit(now, level);
        // digits from fromDigit on at level 0 (the old current slot is passed), after it above (it was entered)
        long fromOn = level == 0 ? ~((1L << fromDigit) - 1) : ~((2L << fromDigit) - 1);
        for (int bank = 0; bank <= 1; bank++) {
            int row = 2 * level + bank;
            long visit;
            if (level >= banked) {
                if (bank == 1) {
                    break;
                }
                visit = slotsToVisit(level, from, now); // one bank (the top mixes rotations)
            } else {
                long fromWindow = window(level, from), nowWindow = window(level, now);
                if (fromWindow == nowWindow) {
                    visit = row != bankRow(level, fromWindow) ? 0 : fromOn & ((2L << toDigit) - 1);
                } else if (nowWindow - fromWindow == 1) {
                    visit = row == bankRow(level, fromWindow) ? fromOn : (2L << toDigit) - 1;
                } else {
                    visit = -1L; // two windows or more on: every entry of the level is due or comes down
                }
            }
            visit &= occupied[row];
            if (row == (current >>> SLOT_BITS)) {
                visit &= ~(1L << (current & SLOT_MASK)); // the current slot's entries are in the run: see advance
            }
            while (visit != 0) {
                int slot = Long.numberOfTrailingZeros(visit);
                visit &= visit - 1;
                rebuildSlot((row << SLOT_BITS) | slot, now);
            }
        }
    }

    /**
     * Moves a share of the slot above {@code level} that holds the level's next window down into the level's
     * other bank, so that entering that window finds the slot (nearly) empty: after this advance, at most the
     * share of the window's slots still ahead stays (see the notes). Nothing to do when the next window's
     * entries wait at the top, or in a level above with one bank where the window starts its window.
     */
    private void moveNextSlotDown(int level, long now) {
        int shift = tickShift + SLOT_BITS * (level + 1);
        long nextStart = (window(level, now) + 1) << shift; // where the level's next window begins
        int above = level + 1;
        int digit = digit(nextStart, above);
        int index;
        if (above < banked) {
            index = (bankRow(above, window(above, nextStart)) << SLOT_BITS) | digit;
        } else if (digit != 0) {
            index = (2 * above << SLOT_BITS) | digit;
        } else {
            movingSlot[level] = -1; // the next window starts a window of the level above: it waits higher up
            return;
        }
        if (movingSlot[level] != index) {
            movingSlot[level] = index;
            movingTotal[level] = counts[index];
        }
        int n = counts[index];
        if (n == 0) {
            return;
        }
        int slotsLeft = SLOT_MASK - digit(now, level); // after the current one, in this window
        int keep = (int) ((long) movingTotal[level] * slotsLeft / SLOTS);
        int lane = index << LANE_BITS;
        for (int j = 0; n > keep; j = (j + 1) & LANE_MASK) {
            TimerEntry entry = heads[lane | j];
            if (entry != null) {
                unlinkFromSlot(entry, index);
                place(entry); // into the level's other bank, or lower: never the current slot (not this tick)
                n--;
                paced();
            }
        }
    }

    /**
     * Hands out the next expired entry, earliest (deadline, sequence) first, or {@code null} if none is
     * waiting. Only {@link #advance} finds entries due: poll never looks at the clock.
     *
     * @return the next expired entry, or {@code null}
     */
    @SuppressWarnings("unchecked")
    public E poll() {
        TimerEntry entry = run.poll();
        if (entry != null) {
            size--;
        }
        return (E) entry;
    }

    /**
     * {@link #advance(long) Advances} to {@code now} and hands every expired entry to {@code action}, one
     * at a time, each removed from the wheel before the action sees it. If the action throws, the entry it
     * was given counts as handed out and the others stay in the wheel for the next poll.
     *
     * @param now    the time, in {@link System#nanoTime()} units
     * @param action what receives each expired entry
     * @return the number of entries handed out
     */
    public int expire(long now, Consumer<? super E> action) {
        advance(now);
        int count = 0;
        E entry;
        while ((entry = poll()) != null) {
            count++;
            action.accept(entry);
        }
        return count;
    }

    /**
     * A time at or before the earliest deadline in the wheel, for a driver to sleep until: exact when the
     * earliest entry's slot was rebuilt since its last removal, otherwise an earlier bound (a spurious
     * wake-up, never a late one). At or before {@link #time()} when an entry is due. O(levels), plus at
     * most 64 slots at the top level when every lower level is empty.
     *
     * @return the bound, or {@code time() + Long.MAX_VALUE} if the wheel is empty
     */
    public long nextDeadline() {
        long best = run.earliest(time);
        for (int level = 0; level < levels - 1; level++) {
            int row = bankRow(level, window(level, time));
            long bits = occupied[row];
            if (bits != 0) {
                // the level's current window: before everything above it and before its next window
                return earlier(best, slotMin[(row << SLOT_BITS) | Long.numberOfTrailingZeros(bits)]);
            }
            if (level < banked) {
                // the next window, moved down (or placed) ahead of it; what is still above is looked at above
                bits = occupied[row ^ 1];
                if (bits != 0) {
                    best = earlier(best, slotMin[((row ^ 1) << SLOT_BITS) | Long.numberOfTrailingZeros(bits)]);
                }
            }
        }
        long bits = occupied[2 * (levels - 1)];
        int base = 2 * (levels - 1) << SLOT_BITS;
        while (bits != 0) {
            best = earlier(best, slotMin[base | Long.numberOfTrailingZeros(bits)]);
            bits &= bits - 1;
        }
        return best;
    }

    /**
     * Calls {@code action} for every entry in the wheel, pending and expired, in no particular order. The
     * action may {@link #remove} the entry it is given, and no other.
     *
     * @param action what receives each entry
     */
    @SuppressWarnings("unchecked")
    public void forEach(Consumer<? super E> action) {
        run.forEach(e -> action.accept((E) e));
        for (int lane = 0; lane < heads.length; lane++) {
            for (TimerEntry e = heads[lane]; e != null; ) {
                TimerEntry next = e.next;
                action.accept((E) e);
                e = next;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Placement and slot lists

    private void place(TimerEntry entry) {
        long deadline = entry.deadline;
        int current = currentIndex(time);
        int index;
        if (deadline - time <= 0) {
            index = current;
        } else {
            long diff = (deadline >>> tickShift) ^ (time >>> tickShift);
            if (diff == 0) {
                index = current;
            } else {
                int level = Math.min(levels - 1, (63 - Long.numberOfLeadingZeros(diff)) / SLOT_BITS);
                // the lowest banked level whose next window it lies in, if any, else its level's current window
                int bankLevel = 0;
                while (bankLevel < level && bankLevel < banked
                        && window(bankLevel, deadline) - window(bankLevel, time) != 1) {
                    bankLevel++;
                }
                if (bankLevel < level && bankLevel < banked) {
                    index = (bankRow(bankLevel, window(bankLevel, deadline)) << SLOT_BITS) | digit(deadline, bankLevel);
                } else {
                    index = (bankRow(level, window(level, time)) << SLOT_BITS) | digit(deadline, level);
                }
            }
        }
        if (index != current) {
            link(entry, index);
        } else {
            run.append(entry, time); // the current slot: sorted in by the next advance (I1)
        }
    }

    private int digit(long t, int level) {
        return (int) ((t >>> (tickShift + SLOT_BITS * level)) & SLOT_MASK);
    }

    /** The window of {@code level} a time lies in (64 of the level's slots): its digits above the level, unsigned. */
    private long window(int level, long t) {
        return t >>> (tickShift + SLOT_BITS * (level + 1));
    }

    /** The row of a level's bank for one of its windows: 2 * level, plus 1 for odd windows of a banked level. */
    private int bankRow(int level, long window) {
        return 2 * level + (level < banked ? (int) (window & 1) : 0);
    }

    /** The index of the current level-0 slot at time t. */
    private int currentIndex(long t) {
        return (bankRow(0, window(0, t)) << SLOT_BITS) | digit(t, 0);
    }

    /** The lane an entry of slot {@code index} waits in: the one its sequence picks (so the lanes fill evenly). */
    private int laneOf(TimerEntry entry, int index) {
        return (index << LANE_BITS) | (entry.sequence & LANE_MASK);
    }

    private void link(TimerEntry entry, int index) {
        int lane = laneOf(entry, index);
        TimerEntry tail = tails[lane];
        entry.location = index;
        entry.next = null;
        entry.prev = tail;
        if (tail == null) {
            heads[lane] = entry;
        } else {
            tail.next = entry;
        }
        tails[lane] = entry;
        if (counts[index]++ == 0) {
            occupied[index >>> SLOT_BITS] |= 1L << (index & SLOT_MASK);
            slotMin[index] = entry.deadline;
        } else {
            // Relative to the wheel's time, not to each other: a slot can hold a deadline nearly 2^63 ns ahead
            // (a round count in the current slot of a one-level wheel) beside one behind the clock, and their
            // difference would overflow. Every deadline in the wheel, and slotMin, is within range of time.
            if (entry.deadline - time < slotMin[index] - time) {
                slotMin[index] = entry.deadline;
            }
        }
    }

    private void unlinkFromSlot(TimerEntry entry, int index) {
        int lane = laneOf(entry, index);
        TimerEntry prev = entry.prev, next = entry.next;
        if (prev == null) {
            heads[lane] = next;
        } else {
            prev.next = next;
        }
        if (next == null) {
            tails[lane] = prev;
        } else {
            next.prev = prev;
        }
        if (--counts[index] == 0) {
            occupied[index >>> SLOT_BITS] &= ~(1L << (index & SLOT_MASK));
        }
        entry.prev = entry.next = null;
        entry.location = TimerEntry.DETACHED;
    }

    /**
     * The slots of {@code level} that moving the clock from {@code from} to {@code to} passes or enters,
     * as a bitmap (a superset is harmless: rebuilding a slot of valid entries puts them back).
     */
    private long slotsToVisit(int level, long from, long to) {
        int shift = tickShift + SLOT_BITS * level;
        int fromDigit = (int) ((from >>> shift) & SLOT_MASK);
        int toDigit = (int) ((to >>> shift) & SLOT_MASK);
        long visit;
        if (level == levels - 1) {
            long passed = ((to >>> shift) - (from >>> shift)) & topPrefixMask;
            if (passed >= SLOTS) {
                visit = -1L;
            } else {
                // digits fromDigit+1 .. fromDigit+passed, modulo 64
                visit = Long.rotateLeft((1L << passed) - 1, fromDigit + 1);
            }
        } else {
            long aboveFrom = ~((2L << fromDigit) - 1); // digits > fromDigit (0 when fromDigit is 63)
            boolean sameWindow = (from >>> (shift + SLOT_BITS)) == (to >>> (shift + SLOT_BITS));
            visit = sameWindow ? aboveFrom & ((2L << toDigit) - 1) : aboveFrom;
        }
        if (level == 0) {
            visit |= (1L << fromDigit) | (1L << toDigit); // the old and the new current slot
        }
        return visit;
    }

    /**
     * Detaches a slot whole; expires its due entries and places the others again. The lanes are walked in
     * lockstep, one entry from each in turn, so the cache misses of the lanes overlap.
     */
    private void rebuildSlot(int index, long now) {
        run.reserve(counts[index]); // each entry joins the run at most once: no allocation in the walk
        TimerEntry[] cursor = detachLanes(index);
        TimerEntry[] round = this.round;
        for (;;) {
            // First take one entry from each lane: a short loop, so the lanes' loads are in flight together;
            // then work on the round's entries, whose cache lines have arrived.
            int m = 0;
            for (int j = 0; j < LANES; j++) {
                TimerEntry entry = cursor[j];
                if (entry != null) {
                    cursor[j] = entry.next;
                    round[m++] = entry;
                }
            }
            if (m == 0) {
                return;
            }
            for (int k = 0; k < m; k++) {
                TimerEntry entry = round[k];
                round[k] = null;
                if (entry.deadline - now <= 0) {
                    run.append(entry, time);
                } else {
                    place(entry); // may link it back into this very slot (a top-level rotation)
                }
                paced();
            }
        }
    }

    /** Empties a slot and returns its lanes' heads in {@link #cursors}; the entries keep their links. */
    private TimerEntry[] detachLanes(int index) {
        TimerEntry[] cursor = cursors;
        int base = index << LANE_BITS;
        for (int j = 0; j < LANES; j++) {
            cursor[j] = heads[base | j];
            heads[base | j] = null;
            tails[base | j] = null;
        }
        counts[index] = 0;
        occupied[index >>> SLOT_BITS] &= ~(1L << (index & SLOT_MASK));
        return cursor;
    }

    /**
     * Moves the entries of the slot that just became current into the sorted run (as newcomers: the advance's
     * merge sorts them). Its lanes are walked in lockstep, so the cache misses of the lanes overlap.
     */
    private void joinRun(int index) {
        TimerEntry[] cursor = detachLanes(index);
        for (boolean more = true; more; ) {
            more = false;
            for (int j = 0; j < LANES; j++) {
                TimerEntry entry = cursor[j];
                if (entry != null) {
                    more = true;
                    cursor[j] = entry.next;
                    run.append(entry, time);
                    paced();
                }
            }
        }
    }

    private long earlier(long a, long b) {
        return a - time <= b - time ? a : b;
    }
}
