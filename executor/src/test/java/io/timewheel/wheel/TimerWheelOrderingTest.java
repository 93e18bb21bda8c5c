package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Order of hand-out: by deadline, and for equal deadlines by add order (FIFO), whichever levels the entries
 * waited at and whichever slots an advance happened to visit first.
 */
class TimerWheelOrderingTest {

    @ParameterizedTest(name = "tick 2^{0} ns")
    @ValueSource(ints = {0, 10, 20, 30, 36})
    void equalDeadlines_comeOutInAddOrder_evenAfterCascading(int tickShift) {
        long start = -(1L << 50) + 12345; // crosses zero on the way
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        int levels = wheel.levels();
        long deadline = start + 3 * (1L << WheelChecks.spanBits(tickShift, levels)) + 77; // three rotations out
        TestEntry early = new TestEntry(1, deadline);
        wheel.add(early);
        int earlyLevel = early.level();
        assertEquals(levels - 1, earlyLevel, "added long before its deadline, it waits at the top");

        wheel.advance(deadline - 1); // near: every level above 0 is now passed
        TestEntry late = new TestEntry(2, deadline);
        wheel.add(late);
        assertTrue(late.level() <= early.level());
        if (levels > 1) {
            assertEquals(0, late.level(), "added one nanosecond before its deadline, it goes straight to level 0");
        }
        // An entry added before both with a later deadline must not get in between.
        TestEntry after = new TestEntry(3, deadline + 1);
        wheel.add(after);

        assertEquals(2, wheel.advance(deadline));
        assertSame(early, wheel.poll());
        assertSame(late, wheel.poll());
        assertNull(wheel.poll());
        assertEquals(1, wheel.advance(deadline + 1));
        assertSame(after, wheel.poll());
    }

    @ParameterizedTest(name = "tick 2^{0} ns")
    @ValueSource(ints = {0, 10, 20, 30, 36})
    void manyEqualDeadlines_addedAsTheClockApproaches_comeOutInAddOrder(int tickShift) {
        long start = Long.MAX_VALUE - (1L << 40); // the deadline lies past the wrap
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        long distance = 1L << 52;
        long deadline = start + distance;
        List<TestEntry> added = new ArrayList<>();
        long now = start;
        int levelsSeen = 0;
        // Halve the remaining distance between adds, so the entries start out at every level, top to bottom.
        for (int i = 0; i < 60; i++) {
            TestEntry e = new TestEntry(i, deadline);
            wheel.add(e);
            levelsSeen |= 1 << e.level();
            added.add(e);
            now = deadline - ((deadline - now) >>> 1);
            wheel.advance(now);
            assertEquals(0, wheel.size() - added.size(), "nothing is lost on the way down");
        }
        // Two more once the deadline has passed: due on add, still behind the earlier adds.
        wheel.advance(deadline);
        for (int i = 60; i < 62; i++) {
            TestEntry e = new TestEntry(i, deadline);
            wheel.add(e);
            added.add(e);
        }
        assertEquals(added.size(), wheel.advance(deadline));
        for (TestEntry e : added) {
            assertSame(e, wheel.poll());
        }
        assertNull(wheel.poll());
        assertEquals((1 << wheel.levels()) - 1, levelsSeen, "the entries should have started at every level");
    }

    @ParameterizedTest(name = "tick 2^{0} ns")
    @ValueSource(ints = {0, 10, 20, 30, 36})
    void oneBigAdvance_handsOutItsBatchInDeadlineThenAddOrder(int tickShift) {
        SplittableRandom random = new SplittableRandom(tickShift * 31L + 7);
        long start = -(1L << 61);
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        List<TestEntry> entries = new ArrayList<>();
        // Deadlines across every level and many rotations (the top slots are visited in index order, not in
        // time order), a third of them shared so that ties are common.
        for (int i = 0; i < 5_000; i++) {
            long deadline = i % 3 == 0 && i > 0
                    ? entries.get(random.nextInt(entries.size())).deadline()
                    : start + WheelChecks.logUniform(random, 61);
            TestEntry e = new TestEntry(i, deadline);
            wheel.add(e);
            entries.add(e);
        }
        Collections.shuffle(entries, new java.util.Random(tickShift)); // add order was by id
        entries.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline() - start, b.deadline() - start)
                : Integer.compare(a.id, b.id));
        assertEquals(entries.size(), wheel.advance(start + (1L << 61)));
        for (TestEntry e : entries) {
            assertSame(e, wheel.poll());
        }
        assertNull(wheel.poll());
    }

    @Test
    void entriesFoundDueByLaterAdvances_mergeIntoTheUnpolledOnes_inOrder() {
        long start = 1000;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, start);
        TestEntry a = new TestEntry(1, 1010);
        TestEntry b = new TestEntry(2, 1020);
        TestEntry c = new TestEntry(3, 1015);
        TestEntry d = new TestEntry(4, 1005); // added later, with an earlier deadline than the first batch
        wheel.add(a);
        wheel.add(b);
        assertEquals(1, wheel.advance(1012)); // a waits, unpolled
        wheel.add(c);
        wheel.add(d); // already due
        assertEquals(4, wheel.advance(1020));
        assertSame(d, wheel.poll());
        assertSame(a, wheel.poll());
        assertSame(c, wheel.poll());
        assertSame(b, wheel.poll());
    }

    @Test
    void equalDeadlines_keepAddOrder_acrossTheSequenceWrap() throws ReflectiveOperationException {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(0);
        // Jump the sequence counter to just below the int wrap (2^32 real adds would take too long).
        Field nextSequence = TimerWheel.class.getDeclaredField("nextSequence");
        nextSequence.setAccessible(true);
        nextSequence.setInt(wheel, Integer.MAX_VALUE - 2);
        List<TestEntry> added = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            TestEntry e = new TestEntry(i, 1L << 30);
            wheel.add(e);
            added.add(e);
        }
        assertEquals(Integer.MIN_VALUE, added.get(3).sequence(), "the sequence wrapped");
        wheel.advance(1L << 30);
        for (TestEntry e : added) {
            assertSame(e, wheel.poll());
        }
    }

    /**
     * Large batches (sorted through primitive keys, not by merge sort) with many equal deadlines, spread
     * across levels and across the wrap of the long range, added in shuffled order with sequences given at
     * creation (addInSequence, as the executor does; the sequences also wrap): every hand-out in (deadline,
     * sequence) order.
     */
    @ParameterizedTest(name = "tick 2^{0} ns")
    @ValueSource(ints = {0, 10, 20})
    void largeBatches_withManyEqualDeadlines_comeOutInDeadlineThenSequenceOrder(int tickShift) {
        long start = Long.MAX_VALUE - (1L << 31); // the batch crosses the wrap
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << tickShift, start);
        SplittableRandom random = new SplittableRandom(tickShift);
        int n = 20_000;
        List<TestEntry> created = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long deadline = start + 1 + random.nextInt(64) * (1L << 26); // 64 distinct deadlines, ~300 each
            created.add(new TestEntry(i, deadline, Integer.MAX_VALUE - 5_000 + i)); // sequences wrap too
        }
        List<TestEntry> shuffled = new ArrayList<>(created);
        Collections.shuffle(shuffled, new java.util.Random(tickShift));
        for (TestEntry e : shuffled) {
            wheel.addInSequence(e);
        }
        List<TestEntry> expected = new ArrayList<>(created);
        expected.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline() - start, b.deadline() - start)
                : Integer.compare(a.id, b.id));
        List<TestEntry> out = new ArrayList<>();
        for (long t = start; out.size() < n; t += 1L << 29) { // several batches, each of many entries
            wheel.advance(t);
            for (TestEntry e; (e = wheel.poll()) != null; ) {
                assertTrue(e.deadline() - t <= 0, "early");
                out.add(e);
            }
        }
        assertEquals(expected, out);
    }

    /**
     * One slot's worth of close deadlines (the executor's common case: a burst due within one tick), many of
     * them distinct and some shared, added in shuffled order: the slot is sorted as one large batch (through
     * the radix path) and handed out in (deadline, sequence) order, whether it is found due by one advance
     * or tick by tick.
     */
    @ParameterizedTest(name = "{0} advances")
    @ValueSource(ints = {1, 1_000})
    void aLargeSlotOfCloseDeadlines_comesOutInDeadlineThenSequenceOrder(int advances) {
        long start = 1L << 40;
        long tick = TimerWheel.DEFAULT_TICK_NANOS;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(tick, start);
        SplittableRandom random = new SplittableRandom(advances);
        int n = 30_000;
        List<TestEntry> created = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long deadline = start + 5 * tick + (i % 4 == 0 ? 1000 : random.nextLong(tick)); // one future slot
            created.add(new TestEntry(i, deadline, i));
        }
        List<TestEntry> shuffled = new ArrayList<>(created);
        Collections.shuffle(shuffled, new java.util.Random(advances));
        for (TestEntry e : shuffled) {
            wheel.addInSequence(e);
        }
        List<TestEntry> expected = new ArrayList<>(created);
        expected.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline(), b.deadline())
                : Integer.compare(a.id, b.id));
        List<TestEntry> out = new ArrayList<>();
        long step = 6 * tick / advances;
        for (long t = start + step; out.size() < n; t += step) {
            wheel.advance(t);
            for (TestEntry e; (e = wheel.poll()) != null; ) {
                assertTrue(e.deadline() - t <= 0, "early");
                out.add(e);
            }
        }
        assertEquals(expected, out);
    }

    /**
     * The due head of the sorted current slot leaves it as one chain (TimerWheel's notes): advances within one
     * tick hand out its entries in order, behind unpolled ones; entries removed from the chain, from what stays
     * in the slot and at the chain's ends are never handed out; entries added meanwhile (due already, or later
     * in the same slot) take their places in the order.
     */
    @Test
    void theCurrentSlotsDueHead_leavesAsAChain_andEntriesRemovedOnEitherSide_neverComeOut() {
        long tick = TimerWheel.DEFAULT_TICK_NANOS;
        long start = 1L << 40;
        long slot = start + 5 * tick - (start + 5 * tick) % tick; // a future level-0 slot's first ns
        TimerWheel<TestEntry> wheel = new TimerWheel<>(tick, start);
        List<TestEntry> all = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200; i++) {
            TestEntry e = new TestEntry(i, slot + random.nextLong(tick));
            all.add(e);
            wheel.add(e);
        }
        List<TestEntry> expected = new ArrayList<>(all);
        expected.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline(), b.deadline())
                : Integer.compare(a.id, b.id));

        List<TestEntry> out = new ArrayList<>();
        long third = tick / 3;
        wheel.advance(slot + third); // the slot becomes current: its entries join the sorted run, the due ones found due
        List<TestEntry> removed = new ArrayList<>();
        List<TestEntry> dueNow = new ArrayList<>();
        for (TestEntry e : expected) {
            if (e.deadline() - (slot + third) <= 0) {
                dueNow.add(e);
            }
        }
        assertTrue(dueNow.size() > 10, "a chain of some length");
        // the chain's first, one in its middle, its last; the slot's new head and one further in
        TestEntry stayFirst = expected.get(dueNow.size());
        for (TestEntry e : List.of(dueNow.get(0), dueNow.get(dueNow.size() / 2), dueNow.get(dueNow.size() - 1),
                stayFirst, expected.get(dueNow.size() + 7))) {
            assertTrue(wheel.remove(e));
            assertFalse(wheel.remove(e), "removed once");
            removed.add(e);
        }
        assertEquals(200 - removed.size(), wheel.size());
        TestEntry lateAdd = new TestEntry(1000, slot + third - 1); // due already: behind the chain's equals
        TestEntry inSlot = new TestEntry(1001, slot + 2 * third + 1); // later in the current slot
        wheel.add(lateAdd);
        wheel.add(inSlot);
        expected.add(lateAdd);
        expected.add(inSlot);
        expected.removeAll(removed);
        expected.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline(), b.deadline())
                : Integer.compare(a.id, b.id));
        wheel.advance(slot + 2 * third); // a second chain, appended behind the unpolled first
        for (long t = slot + 2 * third; out.size() < expected.size(); t += third) {
            wheel.advance(t);
            for (TestEntry e; (e = wheel.poll()) != null; ) {
                assertTrue(e.deadline() - t <= 0, "early");
                out.add(e);
            }
        }
        assertEquals(expected, out);
        assertEquals(0, wheel.size());
        assertNull(wheel.poll());
    }
}
