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
 * the model after every step, earliest() is never later than the earliest entry. Entries are also filed in
 * level-0 slot lists, removed from them, and joined from them (as a slot becoming current, or passed) or
 * listed again (a one-level wheel's rotation); a run kept from ever emptying reuses freed positions, so its
 * arrays stay within a few times the most entries it held at once, without losing or reordering anything.
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

    /** The level-0 slot indexes the test files entries in (any of SortedRun.LISTS). */
    private static final int[] SLOTS = {0, 3, 64, SortedRun.LISTS - 1};

    /**
     * {@code core}: entries far ahead that stay for the whole run, so that it never empties (reuse); without
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
        List<List<TestEntry>> lists = new ArrayList<>(); // per SLOTS index: the entries listed there
        for (int i = 0; i < SLOTS.length; i++) {
            lists.add(new ArrayList<>());
        }
        int nextSequence = 0, olderSequence = -1, nextId = 0, polled = 0, joined = 0, peak = 0;
        // a core of far entries that never leave: the run never empties, so its positions must be reused
        for (int i = 0; i < core; i++) {
            TestEntry e = new TestEntry(nextId++, time + (1L << 30) + i);
            e.sequence = nextSequence++;
            run.append(e, time);
            live.add(e);
        }
        run.merge(time);
        for (int step = 0; step < 200_000; step++) {
            int op = random.nextInt(14);
            if (op >= 12) { // level-0 lists: file an entry, or a slot's list joins the run
                int k = random.nextInt(SLOTS.length);
                List<TestEntry> list = lists.get(k);
                if (op == 12) {
                    TestEntry e = new TestEntry(nextId++, time + random.nextInt(4) * 1_000L - 1_500 + random.nextInt(3));
                    e.sequence = nextSequence++;
                    run.file(e, SLOTS[k]);
                    list.add(e);
                    assertEquals(SLOTS[k], run.listOf(e), "filed in its slot");
                } else {
                    // passed (due ones join, the others are placed again: here, filed back) or current (all join)
                    boolean all = random.nextBoolean();
                    List<TimerEntry> again = new ArrayList<>();
                    int[] steps = {0};
                    long at = time;
                    run.joinSlot(SLOTS[k], time, all, again::add, () -> steps[0]++);
                    int joinedNow = 0;
                    for (TestEntry e : list) {
                        if (all || e.deadline() - at <= 0) {
                            live.add(e);
                            joinedNow++;
                            assertTrue(e.inRun() && run.listOf(e) < 0);
                        } else {
                            assertTrue(again.contains(e), "not due: placed again");
                            assertEquals(TimerEntry.DETACHED, e.location);
                        }
                    }
                    assertEquals(list.size(), joinedNow + again.size(), "each listed entry joins or is placed again");
                    assertEquals(joinedNow, steps[0], "a step per entry joined");
                    joined += joinedNow;
                    list.clear();
                    for (TimerEntry e : again) {
                        run.file(e, SLOTS[k]);
                        list.add((TestEntry) e);
                    }
                }
            } else if (op < 4) { // a newcomer: due already, soon, or tied with others
                long deadline = time + random.nextInt(4) * 1_000L - 1_500 + (random.nextBoolean() ? 0 : random.nextInt(3));
                TestEntry e = new TestEntry(nextId++, deadline);
                // sequences mostly in order, sometimes older (an executor's creation order)
                e.sequence = random.nextInt(8) == 0 ? olderSequence-- : nextSequence++;
                run.append(e, time);
                live.add(e);
            } else if (op == 5 && random.nextBoolean()) { // remove a listed one
                int k = random.nextInt(SLOTS.length);
                List<TestEntry> list = lists.get(k);
                if (!list.isEmpty()) {
                    TestEntry e = list.remove(random.nextInt(list.size()));
                    assertTrue(run.remove(e), "was listed");
                    assertEquals(TimerEntry.DETACHED, e.location);
                }
            } else if (op < 6 && live.size() > core) { // remove one that is not part of the core
                TestEntry e = live.remove(core + random.nextInt(live.size() - core));
                assertTrue(!run.remove(e), "was not listed");
                foundDue.remove(e);
                assertEquals(TimerEntry.DETACHED, e.location);
            } else if (op < 10) { // poll (as often as entries come in, or the run only grows)
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
            assertEquals(live.size() - foundDue.size(), run.pendingCount(), "pending at step " + step);
            int listed = lists.stream().mapToInt(List::size).sum();
            assertEquals(listed, run.listedCount(), "listed at step " + step);
            peak = Math.max(peak, live.size() + listed);
            // freed positions are taken again: the arrays hold the most positions in use at once (entries,
            // tombstones not yet passed, the unfilled rest of each chain's last chunk and the chunks a reserve
            // keeps for one per chain), never one per entry ever added (tens of thousands here)
            int bound = 4 * peak + 4 * SortedRun.CHUNK * (SortedRun.LISTS + 2);
            assertTrue(run.capacity() <= bound, "capacity " + run.capacity() + " for a peak of " + peak);
            if (step % 97 == 0) {
                long earliest = Long.MAX_VALUE;
                for (TestEntry e : live) {
                    earliest = Math.min(earliest, e.deadline());
                    assertEquals(foundDue.contains(e), run.isFoundDue(e), "found-due test at step " + step);
                    assertTrue(e.inRun());
                    assertTrue(run.listOf(e) < 0);
                }
                for (List<TestEntry> list : lists) {
                    for (TestEntry e : list) {
                        assertTrue(run.listOf(e) >= 0 && e.inRun() && !run.isFoundDue(e));
                    }
                }
                assertTrue(run.earliest(time) <= earliest, "earliest() is a lower bound at step " + step);
            }
        }
        
        assertTrue(polled > 10_000, "polled " + polled);
        assertTrue(joined > 5_000, "joined from lists " + joined);
        // drain: far future, every entry due (the listed ones join first)
        for (int k = 0; k < SLOTS.length; k++) {
            run.joinSlot(SLOTS[k], time, true, e -> { throw new AssertionError("all join"); }, () -> { });
            live.addAll(lists.get(k));
        }
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
        assertEquals(0, run.dueCount() + run.pendingCount() + run.listedCount());
    }
}
