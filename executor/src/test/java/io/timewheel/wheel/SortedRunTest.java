package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sorted run on its own, against a model, with the wheel's protocol (newcomers appended between merges;
 * at a tick's end a merge at the old time, endTick, more newcomers, a merge at the new time): every poll
 * returns the earliest found-due entry by (deadline, sequence), the counts and the found-due test agree with
 * the model after every step, earliest() is never later than the earliest entry, and a run kept from ever
 * emptying is compacted (positions reused) without losing or reordering anything.
 */
class SortedRunTest {

    private static final Comparator<TestEntry> ORDER = (a, b) -> {
        long da = a.deadline(), db = b.deadline(); // the test's times stay far from the wrap
        if (da != db) {
            return Long.compare(da, db);
        }
        return Integer.compare(a.sequence(), b.sequence());
    };

    static Stream<Arguments> runs() {
        Stream.Builder<Arguments> runs = Stream.builder();
        for (long seed : new long[] {1L, 42L, -7L, 0x5EED_5EEDL}) {
            runs.add(Arguments.of(seed, 0));
            runs.add(Arguments.of(seed, 50));
        }
        return runs.build();
    }

    /**
     * {@code core}: entries far ahead that stay for the whole run, so that it never empties (compaction); without
     * them the run's tail is often a newcomer's neighbour (the merge's append path, ties at the tail).
     */
    @ParameterizedTest(name = "seed {0}, core {1}")
    @MethodSource("runs")
    void randomOperations_agreeWithModel(long seed, int core) {
        SplittableRandom random = new SplittableRandom(seed);
        SortedRun run = new SortedRun();
        long time = 1L << 40;
        TreeSet<TestEntry> foundDue = new TreeSet<>(ORDER);
        List<TestEntry> live = new ArrayList<>(); // every entry in the run
        int nextSequence = 0, olderSequence = -1, nextId = 0, polled = 0, compactionsSeen = 0;
        // a core of far entries that never leave: the run never empties, so its positions must be compacted
        for (int i = 0; i < core; i++) {
            TestEntry e = new TestEntry(nextId++, time + (1L << 30) + i);
            e.sequence = nextSequence++;
            run.append(e, time);
            live.add(e);
        }
        run.merge(time);
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(10);
            if (op < 4) { // a newcomer: due already, soon, or tied with others
                long deadline = time + random.nextInt(4) * 1_000L - 1_500 + (random.nextBoolean() ? 0 : random.nextInt(3));
                TestEntry e = new TestEntry(nextId++, deadline);
                // sequences mostly in order, sometimes older (an executor's creation order)
                e.sequence = random.nextInt(8) == 0 ? olderSequence-- : nextSequence++;
                run.append(e, time);
                live.add(e);
            } else if (op < 6 && live.size() > core) { // remove one that is not part of the core
                TestEntry e = live.remove(core + random.nextInt(live.size() - core));
                run.remove(e);
                foundDue.remove(e);
                assertEquals(TimerEntry.DETACHED, e.location);
            } else if (op < 8) { // poll
                TestEntry expected = foundDue.isEmpty() ? null : foundDue.pollFirst();
                TimerEntry got = run.poll();
                assertSame(expected, got, "poll at step " + step);
                if (got != null) {
                    assertTrue(got.deadline() - time <= 0, "never early");
                    live.remove(got);
                    polled++;
                }
            } else { // time moves on, sometimes into a later tick
                long now = time + random.nextInt(2_000);
                if (random.nextBoolean()) {
                    run.merge(time);
                    foundDue.clear();
                    for (TestEntry e : live) {
                        if (e.deadline() - time <= 0) {
                            foundDue.add(e);
                        }
                    }
                    List<TimerEntry> replaced = new ArrayList<>();
                    run.endTick(now, replaced::add);
                    for (TimerEntry r : replaced) { // they left; the wheel would place them again: here, back in
                        assertTrue(r.deadline() - now > 0, "endTick hands back only entries not due");
                        assertEquals(TimerEntry.DETACHED, r.location);
                        run.append(r, now);
                    }
                }
                time = now;
                run.merge(now);
                foundDue.clear();
                for (TestEntry e : live) {
                    if (e.deadline() - now <= 0) {
                        foundDue.add(e);
                    }
                }
            }
            assertEquals(foundDue.size(), run.dueCount(), "found due at step " + step);
            assertEquals(live.size() - foundDue.size(), WheelSeam.pendingCount(run), "pending at step " + step);
            if (step % 97 == 0) {
                long earliest = Long.MAX_VALUE;
                for (TestEntry e : live) {
                    earliest = Math.min(earliest, e.deadline());
                    assertEquals(foundDue.contains(e), WheelSeam.isFoundDue(run, e), "found-due test at step " + step);
                    assertTrue(e.inRun());
                }
                assertTrue(run.earliest(time) <= earliest, "earliest() is a lower bound at step " + step);
            }
            compactionsSeen = WheelSeam.compactions(run);
        }
        assertTrue(polled > 10_000, "polled " + polled);
        if (core > 0) {
            assertTrue(compactionsSeen > 0, "a run that never empties is compacted");
        }
        // drain: far future, every entry due
        run.merge(time);
        run.endTick(time + (1L << 31), r -> { throw new AssertionError("every entry is due"); });
        run.merge(time + (1L << 31));
        TestEntry last = null;
        for (TimerEntry e; (e = run.poll()) != null; ) {
            assertTrue(last == null || ORDER.compare(last, (TestEntry) e) < 0, "order");
            last = (TestEntry) e;
            live.remove(e);
        }
        assertTrue(live.isEmpty(), live.size() + " entries lost");
        assertNull(run.poll());
        assertEquals(0, run.dueCount() + WheelSeam.pendingCount(run));
    }
}
