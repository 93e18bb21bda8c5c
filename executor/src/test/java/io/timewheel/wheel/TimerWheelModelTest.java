package io.timewheel.wheel;

import static io.timewheel.wheel.WheelChecks.logUniform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wheel against a reference model: random add / remove / advance / poll / expire sequences, checked
 * after every step against sorted sets of (deadline, sequence).
 *
 * <p>The model keeps three sets: pending (deadline after the model's time), found-due (in the wheel's
 * sorted run, found by an advance, not yet polled) and added-due (added at or before the time since the
 * last advance, so no advance has found them yet). Every poll must return exactly the first found-due
 * entry, so entries come out never early, in (deadline, sequence) order, each exactly once, and never
 * after being removed. Deadlines are nanoTime values: every comparison is a difference.
 *
 * <p>Volume: {@link #STEPS} steps for each of {@link #TICK_SHIFTS} x {@link #SEEDS}. Seeds are printed.
 */
class TimerWheelModelTest {

    /** Tick sizes 2^k ns: 1 ns (7 levels), 1 us (6), the default 1.05 ms (4), 1.07 s (2), the max 68.7 s (1). */
    static final int[] TICK_SHIFTS = {0, 10, 20, 30, 36};
    static final long[] SEEDS = {0x7157_7E57L, 42L, -3_141_592_653L};
    static final int STEPS = 2_000_000;
    /** Full forEach + placement checks every this many steps (they are O(size)). */
    private static final int FULL_CHECK_EVERY = 2_000;

    static Stream<Arguments> runs() {
        Stream.Builder<Arguments> runs = Stream.builder();
        for (int tickShift : TICK_SHIFTS) {
            for (int i = 0; i < SEEDS.length; i++) {
                runs.add(Arguments.of(tickShift, SEEDS[i], i));
            }
        }
        return runs.build();
    }

    @ParameterizedTest(name = "tick 2^{0} ns, seed {1}")
    @MethodSource("runs")
    void randomOperations_agreeWithSortedModel(int tickShift, long seed, int seedIndex) {
        long started = System.nanoTime();
        Run run = new Run(tickShift, seed, seedIndex);
        run.go();
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("TimerWheelModelTest tick=2^%d seed=%d start=%d pool=%d levels=%d: %,d steps in %d ms; %s%n",
                tickShift, seed, run.start, run.pool.length, run.wheel.levels(), STEPS, millis, run.coverage());
        run.assertCoverage();
    }

    /** Thrown by an expire action to test that an exception leaves the wheel consistent. */
    private static final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Interrupted() {
            super("action failure injected by the test", null, false, false);
        }
    }

    private static final byte DETACHED = 0, PENDING = 1, ADDED_DUE = 2, FOUND_DUE = 3;

    private static final class Run {
        final SplittableRandom random;
        final int tickShift;
        final long start;
        final TimerWheel<TestEntry> wheel;
        final int levels;
        final TestEntry[] pool;
        final byte[] state;
        final long[] modelSequence;
        final boolean[] addedWithRounds;
        long nextSequence;
        long time;

        final Comparator<TestEntry> order;
        final TreeSet<TestEntry> pending;
        final TreeSet<TestEntry> addedDue;
        final TreeSet<TestEntry> foundDue;

        // Coverage counters, asserted at the end so the random walk provably reached every part of the wheel.
        final long[] addsByLevel;
        long addsDue, addsPast, addsTied, handedOut, removedPending, removedExpired, removedDetached;
        long roundCountFires, hugeJumps, backwardsAdvances, throwingExpires, drainsForRange, sideEffectAdds;

        Run(int tickShift, long seed, int seedIndex) {
            this.random = new SplittableRandom(seed);
            this.tickShift = tickShift;
            long[] starts = {random.nextLong(), 0, -1, Long.MIN_VALUE, Long.MAX_VALUE - (1L << 40)};
            this.start = starts[(seedIndex + tickShift) % starts.length];
            this.wheel = new TimerWheel<>(1L << tickShift, start);
            this.levels = wheel.levels();
            this.time = start;
            int[] poolSizes = {1_000, 100, 5_000};
            this.pool = new TestEntry[poolSizes[seedIndex % poolSizes.length]];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = new TestEntry(i);
            }
            this.state = new byte[pool.length];
            this.modelSequence = new long[pool.length];
            this.addedWithRounds = new boolean[pool.length];
            this.order = (a, b) -> {
                long byDeadline = a.deadline() - b.deadline();
                if (byDeadline != 0) {
                    return byDeadline < 0 ? -1 : 1;
                }
                return Long.compare(modelSequence[a.id], modelSequence[b.id]);
            };
            this.pending = new TreeSet<>(order);
            this.addedDue = new TreeSet<>(order);
            this.foundDue = new TreeSet<>(order);
            this.addsByLevel = new long[levels];
        }

        void go() {
            for (int step = 0; step < STEPS; step++) {
                int op = random.nextInt(100);
                if (op < 34) {
                    addRandom(false);
                } else if (op < 38) {
                    addRandom(true);
                } else if (op < 48) {
                    remove(pool[random.nextInt(pool.length)]);
                } else if (op < 51) {
                    removeSomeExpired();
                } else if (op < 72) {
                    advance(nextTarget());
                } else if (op < 90) {
                    for (int n = 1 + random.nextInt(3); n > 0; n--) {
                        poll();
                    }
                } else if (op < 93) {
                    expireAll(nextTarget());
                } else if (op < 96) {
                    expireWithSideEffects(nextTarget());
                } else {
                    expireThrowing(nextTarget(), 1 + random.nextInt(3));
                }
                checkSizeAndNextDeadline();
                if (step % FULL_CHECK_EVERY == 0) {
                    fullCheck();
                }
            }
            fullCheck();
            expireAll(time);
            assertEquals(nextSequence, handedOut + removedPending + removedExpired + wheel.size(),
                    "every add is handed out once, removed once, or still in the wheel");
        }

        // ---------------------------------------------------------------------------------------------
        // Operations, each applied to the wheel and to the model

        void addRandom(boolean tie) {
            TestEntry e = pool[random.nextInt(pool.length)];
            if (state[e.id] != DETACHED) {
                remove(e);
                return;
            }
            long deadline;
            if (tie) {
                TestEntry other = someEntryInWheel();
                if (other == null) {
                    return;
                }
                deadline = other.deadline();
                addsTied++;
            } else {
                deadline = time + nextDelay();
            }
            add(e, deadline);
        }

        void add(TestEntry e, long deadline) {
            e.at(deadline);
            wheel.add(e);
            long sequence = nextSequence++;
            modelSequence[e.id] = sequence;
            assertEquals((int) sequence, e.sequence(), "the wheel numbers adds in order");
            assertTrue(e.isInWheel());
            long delay = deadline - time;
            addedWithRounds[e.id] = delay > 0 && (delay >>> WheelChecks.spanBits(tickShift, levels)) > 0;
            if (delay > 0) {
                state[e.id] = PENDING;
                pending.add(e);
                WheelChecks.checkWaiting(wheel, e);
                addsByLevel[e.level()]++;
            } else {
                state[e.id] = ADDED_DUE;
                addedDue.add(e);
                WheelChecks.checkWaiting(wheel, e);
                if (delay < 0) {
                    addsPast++;
                } else {
                    addsDue++;
                }
            }
        }

        void remove(TestEntry e) {
            byte was = state[e.id];
            boolean removed = wheel.remove(e);
            assertEquals(was != DETACHED, removed, () -> "remove answer for " + e + " in model state " + was);
            assertFalse(e.isInWheel());
            switch (was) {
                case PENDING -> {
                    assertTrue(pending.remove(e));
                    removedPending++;
                }
                case ADDED_DUE -> {
                    assertTrue(addedDue.remove(e));
                    removedPending++;
                }
                case FOUND_DUE -> {
                    assertTrue(foundDue.remove(e));
                    removedExpired++;
                }
                default -> removedDetached++;
            }
            state[e.id] = DETACHED;
        }

        void removeSomeExpired() {
            if (foundDue.isEmpty()) {
                return;
            }
            // The first, the last, or a random one of the expired-not-yet-polled entries.
            TestEntry e = switch (random.nextInt(3)) {
                case 0 -> foundDue.first();
                case 1 -> foundDue.last();
                default -> {
                    TestEntry found = null;
                    for (int tries = 0; tries < 20 && found == null; tries++) {
                        TestEntry candidate = pool[random.nextInt(pool.length)];
                        if (state[candidate.id] == FOUND_DUE) {
                            found = candidate;
                        }
                    }
                    yield found == null ? foundDue.first() : found;
                }
            };
            assertTrue(WheelSeam.isFoundDue(wheel, e), () -> "model says expired, wheel disagrees: " + e);
            remove(e);
        }

        void advance(long target) {
            target = keepExpiredInRange(target);
            int expectedExpired = modelAdvance(target);
            assertEquals(expectedExpired, wheel.advance(target), "advance answers the number of entries waiting to be polled");
            assertEquals(time, wheel.time());
        }

        void poll() {
            TestEntry got = wheel.poll();
            TestEntry want = foundDue.isEmpty() ? null : foundDue.first();
            assertSame(want, got, () -> "poll at time " + time + ": want " + want + ", got " + got);
            if (got != null) {
                expectHandedOut(got);
            }
        }

        void expireAll(long target) {
            target = keepExpiredInRange(target);
            int expected = modelAdvance(target);
            int handed = wheel.expire(target, this::expectHandedOut);
            assertEquals(expected, handed, "expire answers the number handed out");
            assertTrue(foundDue.isEmpty());
            assertEquals(time, wheel.time());
            assertSame(null, wheel.poll());
        }

        /** An action that cancels and schedules timers while it is handed the expired ones, like a task would. */
        void expireWithSideEffects(long target) {
            target = keepExpiredInRange(target);
            modelAdvance(target);
            long handedBefore = handedOut;
            int handed = wheel.expire(target, e -> {
                expectHandedOut(e);
                int what = random.nextInt(4);
                if (what == 0) {
                    remove(pool[random.nextInt(pool.length)]); // may be an expired entry not yet handed out
                } else if (what == 1) {
                    addRandom(false); // a due one waits for the next advance, not for this expire
                } else if (what == 2) {
                    sideEffectAdds++;
                    add(e, time + nextDelay()); // the entry just handed out, rescheduled
                }
            });
            assertEquals(handedOut - handedBefore, handed, "expire answers the number handed out");
            assertTrue(foundDue.isEmpty());
            assertEquals(time, wheel.time());
        }

        void expireThrowing(long target, int throwAt) {
            target = keepExpiredInRange(target);
            int expected = modelAdvance(target);
            int[] seen = {0};
            try {
                int handed = wheel.expire(target, e -> {
                    expectHandedOut(e);
                    if (++seen[0] == throwAt) {
                        throw new Interrupted();
                    }
                });
                assertTrue(expected < throwAt, "expire finished although the action threw");
                assertEquals(expected, handed);
            } catch (Interrupted expectedFailure) {
                throwingExpires++;
                assertEquals(throwAt, seen[0]);
                assertEquals(expected - throwAt, foundDue.size());
            }
            assertEquals(time, wheel.time());
        }

        // ---------------------------------------------------------------------------------------------
        // The model

        /** Moves the model's clock and returns how many entries the wheel must now hold as expired. */
        int modelAdvance(long target) {
            if (target - time < 0) {
                backwardsAdvances++;
                target = time; // no time passes, but the entries added at or before it are found due
            }
            if (target - time > 1L << WheelChecks.spanBits(tickShift, levels)) {
                hugeJumps++;
            }
            time = target;
            while (!pending.isEmpty() && pending.first().deadline() - time <= 0) {
                TestEntry e = pending.pollFirst();
                state[e.id] = FOUND_DUE;
                foundDue.add(e);
            }
            for (TestEntry e : addedDue) {
                state[e.id] = FOUND_DUE;
                foundDue.add(e);
            }
            addedDue.clear();
            return foundDue.size();
        }

        /** An entry the wheel just handed out must be the model's first expired entry, and due. */
        void expectHandedOut(TestEntry got) {
            assertNotNull(got);
            TestEntry want = foundDue.pollFirst();
            assertSame(want, got, () -> "handed out at time " + time + ": want " + want + ", got " + got);
            assertTrue(got.deadline() - wheel.time() <= 0, () -> "handed out early: " + got + " at time " + wheel.time());
            assertFalse(got.isInWheel(), "an entry is out of the wheel before the action sees it");
            state[got.id] = DETACHED;
            handedOut++;
            if (addedWithRounds[got.id]) {
                roundCountFires++;
            }
        }

        /**
         * The wheel compares deadlines as differences, so entries that wait unpolled in the sorted run must
         * stay within 2^63 - 1 ns behind its time (the nanoTime contract: 292 years). Before a jump that would
         * break that, the test drains the expired entries, as any driver would long before.
         */
        long keepExpiredInRange(long target) {
            TestEntry oldest = earliestDue();
            if (oldest != null && target - time > 0 && target - oldest.deadline() < 0) {
                drainsForRange++;
                expireAll(time);
            }
            return target;
        }

        TestEntry earliestDue() {
            TestEntry a = foundDue.isEmpty() ? null : foundDue.first();
            TestEntry b = addedDue.isEmpty() ? null : addedDue.first();
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            return a.deadline() - time <= b.deadline() - time ? a : b;
        }

        // ---------------------------------------------------------------------------------------------
        // Checks

        void checkSizeAndNextDeadline() {
            int modelSize = pending.size() + addedDue.size() + foundDue.size();
            assertEquals(modelSize, wheel.size(), "size");
            assertEquals(modelSize == 0, wheel.isEmpty());
            assertEquals(time, wheel.time());
            long next = wheel.nextDeadline();
            if (modelSize == 0) {
                assertEquals(time + Long.MAX_VALUE, next, "nextDeadline of an empty wheel");
                return;
            }
            TestEntry due = earliestDue();
            TestEntry first = due != null ? due : pending.first();
            long earliest = first.deadline();
            // Relative to the wheel's time both values lie in range, so the differences compare correctly.
            assertTrue(next - time <= earliest - time,
                    () -> "nextDeadline " + next + " is later than the earliest deadline " + earliest + " at time " + time
                            + " (earliest " + first + " in model state " + state[first.id] + ", tick 2^" + tickShift + ")" + dump());
            if (due != null) {
                assertTrue(next - time <= 0, () -> "an entry is due at " + time + " but nextDeadline is " + next);
            }
        }

        /** The wheel's entries, for a failure message. */
        String dump() {
            StringBuilder b = new StringBuilder("\nentries (deadline - time):\n");
            wheel.forEach(e -> b.append("  ").append(e).append(" ").append(e.deadline() - time).append('\n'));
            return b.toString();
        }

        void fullCheck() {
            int[] visits = new int[pool.length];
            wheel.forEach(e -> visits[e.id]++);
            for (TestEntry e : pool) {
                byte s = state[e.id];
                assertEquals(s == DETACHED ? 0 : 1, visits[e.id], () -> "forEach visits of " + e + " in model state " + s);
                assertEquals(s != DETACHED, e.isInWheel());
                assertEquals(s == FOUND_DUE, WheelSeam.isFoundDue(wheel, e), () -> "expired-list membership of " + e);
                if (s == PENDING || s == ADDED_DUE) {
                    WheelChecks.checkWaiting(wheel, e);
                }
            }
        }

        // ---------------------------------------------------------------------------------------------
        // Random draws

        TestEntry someEntryInWheel() {
            for (int tries = 0; tries < 20; tries++) {
                TestEntry e = pool[random.nextInt(pool.length)];
                if (state[e.id] != DETACHED) {
                    return e;
                }
            }
            return null;
        }

        TestEntry somePendingEntry() {
            for (int tries = 0; tries < 20; tries++) {
                TestEntry e = pool[random.nextInt(pool.length)];
                if (state[e.id] == PENDING) {
                    return e;
                }
            }
            return pending.isEmpty() ? null : pending.first();
        }

        /** Log-uniform in [0, Long.MAX_VALUE], with the boundary values and some past deadlines mixed in. */
        long nextDelay() {
            int kind = random.nextInt(20);
            if (kind == 0) {
                return specialDelay();
            }
            if (kind == 1) {
                return boundary() - time;
            }
            if (kind == 2) {
                return -logUniform(random, 62); // a deadline in the past: fires at the next advance
            }
            return logUniform(random, 63);
        }

        long specialDelay() {
            long tick = 1L << tickShift;
            int k = 1 + random.nextInt(levels + 1);
            int bits = WheelChecks.spanBits(tickShift, k);
            long span = bits >= 63 ? Long.MAX_VALUE : 1L << bits;
            long[] choices = {0, 1, tick - 1, tick, tick + 1, span - 1, span, span + 1, 2 * span - 1, 3 * span + 1,
                    Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE - tick};
            long delay = choices[random.nextInt(choices.length)];
            return delay < 0 ? Long.MAX_VALUE : delay;
        }

        /** The next boundary of a random level's slot (or of a top rotation), give or take one nanosecond. */
        long boundary() {
            int bits = WheelChecks.spanBits(tickShift, random.nextInt(levels + 1));
            long next = ((time >>> bits) + 1) << bits;
            return next + random.nextInt(3) - 1;
        }

        /** Small steps most of the time, exact deadlines and boundaries often, huge jumps sometimes. */
        long nextTarget() {
            int kind = random.nextInt(100);
            if (kind < 3) {
                return time - 1 - logUniform(random, 40); // backwards: no time passes
            }
            if (kind < 6) {
                return time;
            }
            if (kind < 14) {
                long next = wheel.nextDeadline();
                return next - time > 0 ? next : time;
            }
            if (kind < 22) {
                TestEntry e = somePendingEntry();
                return e == null ? time + 1 : e.deadline() - 1 + random.nextInt(2);
            }
            if (kind < 28) {
                return boundary();
            }
            if (kind < 88) {
                return time + logUniform(random, Math.min(62, tickShift + 13));
            }
            return time + logUniform(random, 63);
        }

        // ---------------------------------------------------------------------------------------------
        // Coverage

        String coverage() {
            StringBuilder levelsHit = new StringBuilder();
            for (long n : addsByLevel) {
                levelsHit.append(levelsHit.length() == 0 ? "" : "/").append(n);
            }
            return String.format("adds=%,d (by level %s, due %,d, past %,d, tied %,d), handed out=%,d, "
                            + "removed pending=%,d expired=%,d detached=%,d, round-count fires=%,d, "
                            + "jumps beyond the wheel=%,d, backwards=%,d, throwing expires=%,d, re-adds from an action=%,d, range drains=%,d",
                    nextSequence, levelsHit, addsDue, addsPast, addsTied, handedOut, removedPending, removedExpired,
                    removedDetached, roundCountFires, hugeJumps, backwardsAdvances, throwingExpires, sideEffectAdds, drainsForRange);
        }

        void assertCoverage() {
            for (int k = 0; k < levels; k++) {
                if (addsByLevel[k] == 0) {
                    fail("no add reached level " + k + ": " + coverage());
                }
            }
            assertTrue(roundCountFires > 0, "no entry with round counts fired");
            assertTrue(hugeJumps > 0 && backwardsAdvances > 0 && throwingExpires > 0 && removedExpired > 0
                    && addsTied > 0 && addsPast > 0 && sideEffectAdds > 0, this::coverage);
        }
    }
}
