package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An advance cut short because the sorted run cannot grow (an OutOfMemoryError before a slot is detached) loses
 * nothing: the next advance visits the slots again, and every entry comes out once, in (deadline, sequence)
 * order, never early. The failure is injected at the run's growth (WheelSeam.injectGrowthFault).
 */
class TimerWheelOutOfMemoryTest {

    @AfterEach
    void noFault() {
        WheelSeam.injectGrowthFault(null);
    }

    /**
     * {@code warm}: entries expired (and polled) first, so that the run has grown to hold them and the growth
     * that fails comes later in the advance, after the slots small enough for the run's room were rebuilt.
     */
    @ParameterizedTest(name = "run warmed with {0} entries")
    @ValueSource(ints = {0, 4, 40, 400, 4000})
    void anAdvanceCutShort_losesNothing_andTheNextOneFinishesIt(int warm) {
        long start = 1L << 40;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << 20, start);
        SplittableRandom random = new SplittableRandom(warm);
        for (int i = 0; i < warm; i++) {
            wheel.add(new TestEntry(-1 - i, start));
        }
        wheel.advance(start);
        assertEquals(warm, wheel.expire(start, e -> { }));
        List<TestEntry> all = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) { // over every level: ms to hours ahead
            long delay = 1 + (long) Math.exp(random.nextDouble() * Math.log(4e12));
            TestEntry e = new TestEntry(i, start + delay);
            wheel.add(e);
            all.add(e);
        }
        WheelSeam.injectGrowthFault(() -> {
            throw new OutOfMemoryError("injected");
        });
        long target = start + 3_000_000_000_000L; // 50 min on: most levels' slots are passed or entered
        assertThrows(OutOfMemoryError.class, () -> wheel.advance(target), "the run's growth fails");
        WheelSeam.injectGrowthFault(null);
        assertEquals(all.size(), wheel.size(), "nothing left the wheel");
        // cancels between the cut-short advance and the next: wherever the entries were left, they go
        List<TestEntry> removed = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 7) {
            TestEntry e = all.get(i);
            assertTrue(wheel.remove(e), "in the wheel: " + e);
            removed.add(e);
        }
        all.removeAll(removed);
        assertEquals(all.size(), wheel.size(), "size after the cancels");

        wheel.advance(target);
        List<TestEntry> out = new ArrayList<>();
        for (TestEntry e; (e = wheel.poll()) != null; ) {
            assertTrue(e.deadline() - target <= 0, "never early");
            out.add(e);
        }
        long expectedDue = all.stream().filter(e -> e.deadline() - target <= 0).count();
        assertEquals(expectedDue, out.size(), "every due entry, once");
        for (int i = 1; i < out.size(); i++) {
            TestEntry a = out.get(i - 1), b = out.get(i);
            assertTrue(a.deadline() < b.deadline() || (a.deadline() == b.deadline() && a.sequence() < b.sequence()),
                    "order at " + i);
        }
        Set<TestEntry> seen = new HashSet<>(out);
        wheel.advance(start + 5_000_000_000_000L); // everything else
        for (TestEntry e; (e = wheel.poll()) != null; ) {
            assertTrue(seen.add(e), "handed out twice: " + e);
        }
        assertEquals(all.size(), seen.size(), "every entry handed out");
        assertNull(wheel.poll());
        assertEquals(0, wheel.size());
    }

    /**
     * An advance into a later tick is cut short while the run holds sorted entries of the old current slot:
     * cancelling entries before the next advance must leave the run's counts right (the run's own boundary
     * time, not the wheel's, says which are found due), and every other entry comes out once, in order.
     */
    @Test
    void aTickEndCutShort_withTheCurrentSlotSorted_cancelsAndHandsOutExactly() {
        long start = 1L << 40;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << 20, start);
        List<TestEntry> all = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // the current tick, not due yet: sorted into the run by the next advance
            TestEntry e = new TestEntry(i, start + 1_000 + i);
            wheel.add(e);
            all.add(e);
        }
        wheel.advance(start);
        assertNull(wheel.poll());
        for (int i = 0; i < 300; i++) { // a later level-0 slot: the run must grow to take it in
            TestEntry e = new TestEntry(100 + i, start + (3L << 20) + i);
            wheel.add(e);
            all.add(e);
        }
        WheelSeam.injectGrowthFault(() -> {
            throw new OutOfMemoryError("injected");
        });
        long target = start + (5L << 20); // five ticks on: every entry is due
        assertThrows(OutOfMemoryError.class, () -> wheel.advance(target));
        WheelSeam.injectGrowthFault(null);
        List<TestEntry> removed = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 3) {
            assertTrue(wheel.remove(all.get(i)));
            removed.add(all.get(i));
        }
        all.removeAll(removed);
        assertEquals(all.size(), wheel.size());
        assertEquals(all.size(), wheel.advance(target), "waiting to be polled");
        List<TestEntry> out = new ArrayList<>();
        for (TestEntry e; (e = wheel.poll()) != null; ) {
            out.add(e);
        }
        assertEquals(all, out, "every entry left, once, in order");
        assertEquals(0, wheel.size());
    }

    /**
     * The radix counters for 11-bit passes (KeySort.WIDE_RADIX) are grown by the first merge of at least
     * KeySort.WIDE_MIN newcomers, which may find the rest of its scratch large enough already: that growth
     * failing leaves the run as it was, and the next advance sorts the same newcomers, cancels included.
     */
    @Test
    void theWideRadixCountersFailingToGrow_loseNothing() {
        long start = 1L << 40;
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << 20, start);
        int id = 0;
        for (int batch : new int[] {300, 450}) { // merges that grow the sort's scratch to 574, not the counters
            for (int i = 0; i < batch; i++) {
                wheel.add(new TestEntry(id++, start + i));
            }
            assertEquals(batch, wheel.advance(start + batch));
            while (wheel.poll() != null) {
                // drained
            }
        }
        List<TestEntry> all = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 570; i++) { // the current tick, in no order: one wide radix sort, no other growth
            TestEntry e = new TestEntry(id++, start + 1_000 + random.nextLong(1L << 19));
            wheel.add(e);
            all.add(e);
        }
        assertEquals(KeySort.RADIX + 1, WheelSeam.radixCounters(wheel), "byte passes' counters so far");
        WheelSeam.injectGrowthFault(() -> {
            throw new OutOfMemoryError("injected");
        });
        long target = start + (1L << 19) + 2_000; // the same tick: every entry is due
        assertThrows(OutOfMemoryError.class, () -> wheel.advance(target));
        WheelSeam.injectGrowthFault(null);
        assertEquals(all.size(), wheel.size(), "nothing left the wheel");
        // the one growth this advance needs is the counters' (the scratch and the arrays are large enough):
        // without a fault, it is the only thing the advance grows
        assertEquals(KeySort.RADIX + 1, WheelSeam.radixCounters(wheel), "the counters' growth failed");
        List<TestEntry> removed = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 50) { // cancels, leaving KeySort.WIDE_MIN or more to sort
            assertTrue(wheel.remove(all.get(i)));
            removed.add(all.get(i));
        }
        all.removeAll(removed);
        assertTrue(all.size() >= KeySort.WIDE_MIN);
        all.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline(), b.deadline())
                : Integer.compare(a.sequence(), b.sequence()));
        int[] growths = {0};
        WheelSeam.injectGrowthFault(() -> growths[0]++);
        assertEquals(all.size(), wheel.advance(target), "waiting to be polled");
        WheelSeam.injectGrowthFault(null);
        assertEquals(1, growths[0], "the counters grew, and nothing else did");
        assertEquals(KeySort.WIDE_RADIX + 1, WheelSeam.radixCounters(wheel));
        List<TestEntry> out = new ArrayList<>();
        for (TestEntry e; (e = wheel.poll()) != null; ) {
            out.add(e);
        }
        assertEquals(all, out, "every entry left, once, in order");
    }
}
