package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The wheel's API contract, edge by edge. */
class TimerWheelApiTest {

    // ---------------------------------------------------------------------------------------------
    // Construction

    @ParameterizedTest(name = "tick {0}")
    @ValueSource(longs = {0, -1, -2, 3, 6, 1000, 1_000_000, (1L << 36) + 1, 1L << 37, 1L << 62, Long.MAX_VALUE, Long.MIN_VALUE})
    void constructor_rejectsATickThatIsNotAPowerOfTwoUpToTwoToThe36(long tick) {
        assertThrows(IllegalArgumentException.class, () -> new TimerWheel<TestEntry>(tick, 0));
    }

    @Test
    void constructor_acceptsEveryPowerOfTwoTick_andSpansAtLeast2To42BelowTheRoundCounts() {
        for (int shift = 0; shift <= 36; shift++) {
            TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << shift, -shift);
            assertEquals(1L << shift, wheel.tickNanos());
            assertEquals(-shift, wheel.time());
            assertEquals(WheelChecks.expectedLevels(shift), wheel.levels(), "levels at tick 2^" + shift);
            // The fewest levels whose span reaches 2^42 ns (at least one).
            assertTrue(shift + 6 * wheel.levels() >= 42);
            assertTrue(wheel.levels() == 1 || shift + 6 * (wheel.levels() - 1) < 42);
        }
        assertEquals(7, new TimerWheel<TestEntry>(1, 0).levels());
        assertEquals(6, new TimerWheel<TestEntry>(1L << 10, 0).levels());
        assertEquals(4, new TimerWheel<TestEntry>(0).levels());
        assertEquals(2, new TimerWheel<TestEntry>(1L << 30, 0).levels());
        assertEquals(1, new TimerWheel<TestEntry>(TimerWheel.MAX_TICK_NANOS, 0).levels());
        assertEquals(TimerWheel.DEFAULT_TICK_NANOS, new TimerWheel<TestEntry>(0).tickNanos());
    }

    @Test
    void newWheel_isEmpty_andItsNextDeadlineIsTimePlusMaxValue() {
        for (long start : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 123}) {
            TimerWheel<TestEntry> wheel = new TimerWheel<>(start);
            assertTrue(wheel.isEmpty());
            assertEquals(0, wheel.size());
            assertEquals(start + Long.MAX_VALUE, wheel.nextDeadline());
            assertNull(wheel.poll());
            assertEquals(0, wheel.advance(start + 5));
            assertEquals(0, wheel.expire(start + 10, e -> { throw new AssertionError(e); }));
            assertEquals(start + 10 + Long.MAX_VALUE, wheel.nextDeadline());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // add / remove / setDeadline state rules

    @Test
    void add_ofAnEntryAlreadyInAWheel_throwsIllegalState_pendingOrExpired() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(0);
        TimerWheel<TestEntry> other = new TimerWheel<>(0);
        TestEntry e = new TestEntry(1, 1L << 30);
        wheel.add(e);
        assertThrows(IllegalStateException.class, () -> wheel.add(e));
        assertThrows(IllegalStateException.class, () -> other.add(e));
        wheel.advance(1L << 30);
        assertTrue(e.isInWheel(), "expired but not polled: still in the wheel");
        assertThrows(IllegalStateException.class, () -> wheel.add(e));
        assertThrows(IllegalStateException.class, () -> other.add(e));
        assertEquals(1, wheel.size());
        assertEquals(0, other.size());
        assertSame(e, wheel.poll());
        other.add(e); // polled: free to go anywhere
        assertEquals(1, other.size());
    }

    @Test
    void remove_ofADetachedEntry_answersFalse_andChangesNothing() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(0);
        TestEntry stranger = new TestEntry(1, 5);
        TestEntry member = new TestEntry(2, 5);
        wheel.add(member);
        assertFalse(wheel.remove(stranger));
        assertEquals(1, wheel.size());
        assertTrue(wheel.remove(member));
        assertFalse(wheel.remove(member), "a second remove finds nothing");
        assertEquals(0, wheel.size());
        assertFalse(member.isInWheel());
    }

    @Test
    void remove_ofAPendingEntry_meansItNeverFires() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, 0);
        TestEntry keep = new TestEntry(1, 100);
        TestEntry drop = new TestEntry(2, 100);
        TestEntry far = new TestEntry(3, Long.MAX_VALUE);
        wheel.add(keep);
        wheel.add(drop);
        wheel.add(far);
        assertTrue(wheel.remove(drop));
        assertTrue(wheel.remove(far));
        assertEquals(1, wheel.advance(Long.MAX_VALUE));
        assertSame(keep, wheel.poll());
        assertNull(wheel.poll());
        assertTrue(wheel.isEmpty());
    }

    @Test
    void remove_ofAnExpiredNotYetPolledEntry_takesItOutOfTheHandOut() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, 0);
        TestEntry a = new TestEntry(1, 10), b = new TestEntry(2, 20), c = new TestEntry(3, 30);
        wheel.add(a);
        wheel.add(b);
        wheel.add(c);
        assertEquals(3, wheel.advance(30));
        assertTrue(wheel.remove(b)); // the middle one
        assertEquals(2, wheel.size());
        assertFalse(b.isInWheel());
        assertTrue(wheel.remove(c)); // the last one
        assertSame(a, wheel.poll());
        assertNull(wheel.poll());
        assertEquals(0, wheel.size());
        // A removed entry can come back, with a new sequence.
        int oldSequence = b.sequence();
        wheel.add(b.at(30));
        assertTrue(b.sequence() != oldSequence);
        assertEquals(1, wheel.advance(31));
        assertSame(b, wheel.poll());
    }

    @Test
    void setDeadline_onAnEntryInAWheel_throwsIllegalState_andIsFreeOnceOut() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(0);
        TestEntry e = new TestEntry(1, 1L << 25);
        wheel.add(e);
        assertThrows(IllegalStateException.class, () -> e.at(5));
        assertEquals(1L << 25, e.deadline());
        wheel.advance(1L << 25);
        assertThrows(IllegalStateException.class, () -> e.at(5), "expired but not polled is still in the wheel");
        assertSame(e, wheel.poll());
        e.at(5);
        assertEquals(5, e.deadline());
        wheel.add(e);
        wheel.remove(e);
        e.at(6);
        assertEquals(6, e.deadline());
    }

    @Test
    void isInWheel_followsTheEntryThroughItsLife() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(0);
        TestEntry e = new TestEntry(1, 1L << 21);
        assertFalse(e.isInWheel());
        wheel.add(e);
        assertTrue(e.isInWheel());
        wheel.advance(1L << 21);
        assertTrue(e.isInWheel());
        assertSame(e, wheel.poll());
        assertFalse(e.isInWheel());
    }

    // ---------------------------------------------------------------------------------------------
    // Time

    @Test
    void advance_toAnEarlierTime_isNoTimePassing() {
        long start = Long.MIN_VALUE + 10; // "earlier" is by difference: Long.MAX_VALUE here is earlier
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, start);
        TestEntry soon = new TestEntry(1, start + 1);
        wheel.add(soon);
        assertEquals(0, wheel.advance(start - 1));
        assertEquals(start, wheel.time());
        assertEquals(0, wheel.advance(Long.MAX_VALUE));
        assertEquals(start, wheel.time());
        assertEquals(0, wheel.advance(start + Long.MIN_VALUE)); // 2^63 ahead reads as 2^63 behind
        assertEquals(start, wheel.time());
        assertTrue(soon.isInWheel());
        assertEquals(1, wheel.advance(start + 1));
        assertEquals(start + 1, wheel.time());
        assertSame(soon, wheel.poll());
    }

    @Test
    void advance_toAnEarlierTime_stillHandsOutEntriesAddedAlreadyDue() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1000);
        TestEntry late = new TestEntry(1, 400);
        wheel.add(late);
        assertEquals(1, wheel.advance(0)); // earlier: time stays at 1000, and the due entry is found
        assertEquals(1000, wheel.time());
        assertSame(late, wheel.poll());
    }

    @Test
    void advance_answersHowManyExpiredEntriesWaitToBePolled() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, 0);
        for (int i = 1; i <= 5; i++) {
            wheel.add(new TestEntry(i, i * 10L));
        }
        assertEquals(2, wheel.advance(20));
        assertEquals(2, wheel.advance(21));
        wheel.poll();
        assertEquals(1, wheel.advance(21));
        assertEquals(3, wheel.advance(40));
        assertEquals(5 - 1, wheel.size());
    }

    @Test
    void nextDeadline_isAtOrBeforeTime_whileAnEntryIsDueButNotYetFound() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << 20, 5_000_000);
        wheel.add(new TestEntry(1, 5_000_000 + (1L << 40)));
        wheel.add(new TestEntry(2, 4_000_000)); // due on add
        assertTrue(wheel.nextDeadline() - wheel.time() <= 0);
        wheel.advance(5_000_000);
        assertTrue(wheel.nextDeadline() - wheel.time() <= 0, "found due, not yet polled");
        wheel.poll();
        assertEquals(5_000_000 + (1L << 40), wheel.nextDeadline());
    }

    // ---------------------------------------------------------------------------------------------
    // forEach

    @Test
    void forEach_visitsEveryEntryOnce_pendingAndExpired() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << 10, -7);
        List<TestEntry> all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            TestEntry e = new TestEntry(i, -7 + (1L << (i % 63)) + i);
            wheel.add(e);
            all.add(e);
        }
        wheel.advance(-7 + (1L << 20)); // some expired, not polled
        int[] visits = new int[all.size()];
        wheel.forEach(e -> visits[e.id]++);
        for (int v : visits) {
            assertEquals(1, v);
        }
    }

    @Test
    void forEach_toleratesRemovingTheVisitedEntry() {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1, 0);
        for (int i = 0; i < 200; i++) {
            wheel.add(new TestEntry(i, i % 7 == 0 ? 0 : 1L << (i % 62))); // several per slot
        }
        wheel.advance(1L << 12);
        int[] visits = new int[200];
        wheel.forEach(e -> {
            visits[e.id]++;
            if (e.id % 2 == 0) {
                assertTrue(wheel.remove(e));
            }
        });
        for (int v : visits) {
            assertEquals(1, v);
        }
        assertEquals(100, wheel.size());
        int[] left = {0};
        wheel.forEach(e -> {
            assertEquals(1, e.id % 2);
            left[0]++;
            wheel.remove(e);
        });
        assertEquals(100, left[0]);
        assertTrue(wheel.isEmpty());
        assertNull(wheel.poll());
        assertEquals(0, wheel.advance(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE + Long.MAX_VALUE, wheel.nextDeadline());
    }

    // ---------------------------------------------------------------------------------------------
    // Exception safety of expire

    @ParameterizedTest(name = "throws on entry {0}")
    @ValueSource(ints = {1, 2, 5, 10})
    void expire_whenTheActionThrows_handsTheRestOutLater_inOrder_noneLostNoneTwice(int throwOn) {
        TimerWheel<TestEntry> wheel = new TimerWheel<>(1L << 10, Long.MAX_VALUE - 500);
        List<TestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // Five distinct deadlines, two entries each, added in reverse deadline order; they straddle the wrap.
            TestEntry e = new TestEntry(i, Long.MAX_VALUE - 500 + (4 - i / 2) * 300L);
            wheel.add(e);
            entries.add(e);
        }
        TestEntry later = new TestEntry(99, Long.MIN_VALUE + 10_000);
        wheel.add(later);
        entries.sort((a, b) -> a.deadline() != b.deadline() ? Long.compare(a.deadline() - Long.MAX_VALUE, b.deadline() - Long.MAX_VALUE)
                : Integer.compare(a.id, b.id));

        List<TestEntry> handed = new ArrayList<>();
        RuntimeException boom = new RuntimeException("boom");
        long now = Long.MIN_VALUE + 1000; // past all ten, across the wrap
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> wheel.expire(now, e -> {
            handed.add(e);
            assertFalse(e.isInWheel(), "out of the wheel before the action sees it");
            if (handed.size() == throwOn) {
                throw boom;
            }
        }));
        assertSame(boom, thrown);
        assertEquals(throwOn, handed.size());
        assertEquals(11 - throwOn, wheel.size(), "the entries handed out so far are out of the wheel");
        assertTrue(throwOn == 10 || wheel.nextDeadline() - wheel.time() <= 0, "the rest are still due");

        // The rest: first by poll, then by a later expire, in order, each once.
        if (throwOn < 10) {
            handed.add(wheel.poll());
        }
        wheel.expire(now, handed::add);
        assertEquals(entries, handed);
        assertEquals(1, wheel.size());
        assertEquals(1, wheel.expire(Long.MIN_VALUE + 10_000, e -> assertSame(later, e)));
        assertTrue(wheel.isEmpty());
    }
}
