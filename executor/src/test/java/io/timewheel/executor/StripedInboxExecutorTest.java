package io.timewheel.executor;

import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.queue.ReadyQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The executor over the tick thread's striped (unordered) inbox, driven by a manual clock: equal deadlines
 * still run in creation order when the tasks are scheduled by threads on different stripes that hand over to
 * each other; a task cancelled right after scheduling (retract path) or by another thread never runs and
 * leaves the queue; a snapshot of the queue taken right after another thread's schedule contains the task, and
 * so does one that a task was scheduled into while it collected, before another left.
 */
class StripedInboxExecutorTest extends ManualClockTestBase {

    /**
     * A thread that keeps the tick thread busy (so that it detaches stripes at any moment) with tasks due in
     * an hour, which never run: most cancelled at once by the thread that scheduled them (retract), some
     * later (Unlink). Closing it cancels what is left.
     */
    private static final class Noise implements AutoCloseable {
        private final Thread thread;
        private volatile boolean stop;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final List<ScheduledFuture<?>> kept = new ArrayList<>(); // noise thread, then closer after join
        private final AtomicInteger ran = new AtomicInteger();

        Noise(WheelScheduledExecutorService executor) {
            thread = new Thread(() -> {
                try {
                    for (int i = 0; !stop; i++) {
                        ScheduledFuture<?> f = executor.schedule(ran::incrementAndGet, 1, HOURS);
                        if (i % 4 != 0) {
                            f.cancel(false);
                        } else {
                            kept.add(f);
                            if (kept.size() > 16) {
                                kept.remove(0).cancel(false);
                            }
                        }
                        Thread.yield(); // two cores: let the threads under test run
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "inbox-noise");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join(10_000);
            assertFalse(thread.isAlive(), "noise thread hung");
            assertNull(failure.get(), () -> "noise thread failed: " + failure.get());
            assertEquals(0, ran.get(), "a noise task (due in an hour) ran");
            for (ScheduledFuture<?> f : kept) {
                f.cancel(false);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------

    /**
     * Threads pass a token along (a CountDownLatch per step); the holder schedules one task and passes it on,
     * so every schedule happens-before the next one, on another thread (another stripe: stripes are picked
     * by thread id). All the tasks of a round have one deadline T: the clock only moves at planned steps,
     * by the token holder, and each holder asks for the delay T - now. Mid-round the clock moves to within
     * the horizon of T and then to T itself, so the tick thread hands part of the round over (and the
     * worker starts running it) while later tasks of the round are still on their way through the inbox or
     * go straight to the ready heap. A noise thread keeps the tick thread detaching at any moment. Deadlines
     * never decrease with creation order, so on one worker the run order must be exactly the creation order.
     */
    @Test
    @Timeout(value = 60, unit = SECONDS) // a hang guard only
    void equalDeadlines_runInCreationOrder_acrossThreadsHandingOverToEachOther() throws Exception {
        start(0L, 1);
        int threads = 4, rounds = 4, steps = 400, total = rounds * steps;
        long horizon = ReadyQueue.HORIZON_NANOS;
        long d = 5 * horizon; // 671 ms: beyond the horizon, so the round's first tasks go through the tick thread

        int[] holder = new int[total];
        long[] deadline = new long[total];
        long[] moveTo = new long[total];
        boolean[] moves = new boolean[total];
        SplittableRandom random = new SplittableRandom(42);
        long roundStart = clock.nanoTime();
        for (int r = 0; r < rounds; r++) {
            long t = roundStart + d;
            for (int i = 0; i < steps; i++) {
                int s = r * steps + i;
                holder[s] = s == 0 ? 0 : (holder[s - 1] + 1 + random.nextInt(threads - 1)) % threads; // never the same twice
                deadline[s] = t;
                if (i == steps / 4) {
                    moves[s] = true;
                    moveTo[s] = t - horizon - 1; // still beyond the horizon: through the tick thread
                } else if (i == steps / 2) {
                    moves[s] = true;
                    moveTo[s] = t - horizon / 2; // within the horizon: the tick thread hands T over
                } else if (i == 3 * steps / 4) {
                    moves[s] = true;
                    moveTo[s] = t; // due: the worker runs the round while the rest of it is scheduled
                }
            }
            roundStart = t;
        }

        int[] ranIds = new int[total];
        long[] ranAt = new long[total];
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch allRan = new CountDownLatch(total);
        CountDownLatch[] turn = new CountDownLatch[total + 1];
        for (int s = 0; s <= total; s++) {
            turn[s] = new CountDownLatch(1);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> schedulers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread thread = new Thread(() -> {
                try {
                    for (int s = 0; s < total; s++) {
                        if (holder[s] != me) {
                            continue;
                        }
                        if (!turn[s].await(30, SECONDS)) {
                            throw new AssertionError("step " + s + " never came");
                        }
                        if (moves[s]) {
                            clock.advanceNanos(moveTo[s] - clock.nanoTime());
                        }
                        int id = s;
                        long delay = deadline[s] - clock.nanoTime();
                        executor.schedule(() -> {
                            int k = ran.getAndIncrement(); // one worker: plain array writes, read after allRan
                            ranIds[k] = id;
                            ranAt[k] = clock.nanoTime();
                            allRan.countDown();
                        }, delay, NANOSECONDS);
                        turn[s + 1].countDown();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    for (CountDownLatch l : turn) {
                        l.countDown(); // let the others finish
                    }
                }
            }, "equal-deadline-scheduler-" + t);
            thread.setDaemon(true);
            schedulers.add(thread);
            thread.start();
        }

        try (Noise noise = new Noise(executor)) {
            turn[0].countDown();
            assertTrue(turn[total].await(30, SECONDS), "the token did not go round");
            for (Thread t : schedulers) {
                t.join(10_000);
            }
            assertNull(failure.get(), () -> "a scheduler failed: " + failure.get());
            assertEquals(deadline[total - 1], clock.nanoTime());
            sync(); // the tick thread has read everything and handed over what is due
            assertTrue(allRan.await(20, SECONDS), () -> "only " + ran.get() + " of " + total + " ran");
        }

        for (int k = 0; k < total; k++) {
            if (ranIds[k] != k) {
                int from = Math.max(0, k - 3), to = Math.min(total, k + 4);
                int runOfK = -1;
                for (int j = 0; j < total; j++) {
                    if (ranIds[j] == k) {
                        runOfK = j;
                    }
                }
                fail("run " + k + " was task " + ranIds[k] + " (deadline " + deadline[ranIds[k]] + "), expected task "
                        + k + " (deadline " + deadline[k] + ", ran as run " + runOfK + " at clock "
                        + (runOfK < 0 ? "-" : String.valueOf(ranAt[runOfK])) + "); runs " + from + ".." + (to - 1)
                        + ": tasks " + Arrays.toString(Arrays.copyOfRange(ranIds, from, to)) + " at clock "
                        + Arrays.toString(Arrays.copyOfRange(ranAt, from, to)) + " (clock moves per round of " + steps
                        + " tasks: to T - horizon - 1 at task " + steps / 4 + ", T - horizon/2 at " + steps / 2
                        + ", T at " + 3 * steps / 4 + "; T = " + d + " * (round + 1))");
            }
            assertTrue(ranAt[k] - deadline[k] >= 0, "task " + k + " ran before its deadline");
        }
        assertEquals(0, executor.getQueue().size());
    }

    /**
     * The creation sequence is kept for life by a periodic task, as STPE's sequenceNumber (TaskQueue's notes:
     * "keeps it for life (a periodic task across its runs, as on STPE)"; ReadyQueue's: "by the entry's
     * sequence ... however the entries arrived here"): at an equal deadline a periodic task created first runs
     * before a one-shot task created after it, even though the one-shot reached the ready heap first (the
     * periodic one re-armed into it after its previous run). Every deadline here is within the horizon when it
     * is set, so each task goes straight to the ready heap and the tick thread plays no part: deterministic.
     * STPE: ScheduledFutureTask.compareTo orders equal times by sequenceNumber, which setNextRunTime keeps.
     */
    @Test
    @Timeout(value = 60, unit = SECONDS) // a hang guard only
    void aPeriodicTask_keepsItsCreationSequence_atAnEqualDeadline_asOnStpe() throws Exception {
        start(0L, 1);
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        long ms = MILLISECONDS.toNanos(1);
        ScheduledFuture<?> p = executor.scheduleAtFixedRate(() -> log.add("P@" + clock.nanoTime() / ms), 5, 3, MILLISECONDS);
        executor.schedule(() -> log.add("Q@" + clock.nanoTime() / ms), 8, MILLISECONDS); // created after P
        executor.schedule(() -> log.add("R@" + clock.nanoTime() / ms), 5, MILLISECONDS); // runs after P at 5 ms

        clock.advance(5, MILLISECONDS);
        sync();
        // R ran after P: the worker re-armed P (next at 8 ms, into the ready heap, behind Q) before it took R
        await().atMost(Duration.ofSeconds(10)).until(() -> log.size() == 2);
        assertEquals(List.of("P@5", "R@5"), log);

        clock.advance(3, MILLISECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> log.size() == 4);
        p.cancel(false);
        assertEquals(List.of("P@5", "R@5", "P@8", "Q@8"), new ArrayList<>(log).subList(0, 4),
                "at 8 ms P (created first) must run before Q, as on STPE");
    }

    @Test
    void aTaskCreatedBeforeAPeriodicTask_runsBeforeItsLaterRun_atAnEqualDeadline_asOnStpe() throws Exception {
        // X takes its number from the counter of its own deadline (8 ms); P, created after, must still sort
        // after X when its second run falls due at 8 ms, and before Y, created after P (Sequencer's notes)
        start(0L, 1);
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        long ms = MILLISECONDS.toNanos(1);
        for (int i = 0; i < 40; i++) { // other deadlines move the other counters ahead of X's
            executor.schedule(() -> { }, 100 + i, MILLISECONDS).cancel(false);
        }
        executor.schedule(() -> log.add("X@" + clock.nanoTime() / ms), 8, MILLISECONDS);
        ScheduledFuture<?> p = executor.scheduleAtFixedRate(() -> log.add("P@" + clock.nanoTime() / ms), 5, 3, MILLISECONDS);
        executor.schedule(() -> log.add("Y@" + clock.nanoTime() / ms), 8, MILLISECONDS);

        clock.advance(5, MILLISECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> log.size() == 1);
        clock.advance(3, MILLISECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> log.size() == 4);
        p.cancel(false);
        assertEquals(List.of("P@5", "X@8", "P@8", "Y@8"), new ArrayList<>(log).subList(0, 4),
                "at 8 ms: X (created before P), P, then Y (created after P), as on STPE");
    }

    // ---------------------------------------------------------------------------------------------

    @Test
    @Timeout(value = 60, unit = SECONDS) // a hang guard only
    void aTaskCancelledRightAfterScheduling_neverRuns_theOthersRunOnce_andTheQueueEmpties() throws Exception {
        start(0L, 1);
        AtomicInteger victimsRan = new AtomicInteger();
        Runnable victim = victimsRan::incrementAndGet;

        // 1. same thread, nothing else queued: the queue size is back to 0 after every cancel
        for (int i = 0; i < 2_000; i++) {
            ScheduledFuture<?> f = executor.schedule(victim, 1 + i % 3, SECONDS);
            assertTrue(f.cancel(false));
            assertEquals(0, executor.getQueue().size());
        }
        assertEquals(0, sync(), "cancelled tasks left in the wheel");
        assertEquals(0, executor.getQueue().toArray().length);

        // 2. same thread, with keepers: a retract must not lose the entry below the one it takes back, and
        //    a victim that is no longer the top of the stripe is dropped by the tick thread or unlinked
        int pairs = 2_000;
        AtomicIntegerArray keeperRuns = new AtomicIntegerArray(3 * pairs);
        for (int i = 0; i < pairs; i++) {
            int id = 2 * i;
            executor.schedule(() -> keeperRuns.incrementAndGet(id), 2, SECONDS);
            ScheduledFuture<?> top = executor.schedule(victim, 2, SECONDS);
            assertTrue(top.cancel(false)); // the top of this thread's stripe, unless the tick thread took it
            ScheduledFuture<?> buried = executor.schedule(victim, 2, SECONDS);
            executor.schedule(() -> keeperRuns.incrementAndGet(id + 1), 2, SECONDS);
            assertTrue(buried.cancel(false)); // a keeper is on top of it
        }

        // 3. another thread cancels: X schedules a keeper and a victim, hands the victim over, goes on
        ScheduledFuture<?>[] handed = new ScheduledFuture<?>[pairs];
        CountDownLatch[] ready = new CountDownLatch[pairs];
        for (int i = 0; i < pairs; i++) {
            ready[i] = new CountDownLatch(1);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread x = new Thread(() -> {
            try {
                for (int i = 0; i < pairs; i++) {
                    int id = 2 * pairs + i;
                    executor.schedule(() -> keeperRuns.incrementAndGet(id), 2, SECONDS);
                    handed[i] = executor.schedule(victim, 2, SECONDS);
                    ready[i].countDown();
                }
            } catch (Throwable t) {
                failure.set(t);
                for (CountDownLatch l : ready) {
                    l.countDown();
                }
            }
        }, "inbox-schedule-for-other-canceller");
        x.start();
        for (int i = 0; i < pairs; i++) {
            assertTrue(ready[i].await(10, SECONDS));
            assertNull(failure.get());
            assertTrue(handed[i].cancel(false), "victim " + i);
        }
        x.join(10_000);
        assertNull(failure.get());

        assertEquals(3 * pairs, executor.getQueue().size(), "the keepers only");
        assertEquals(3 * pairs, sync(), "the wheel holds the keepers only");
        assertEquals(3 * pairs, executor.getQueue().toArray().length);

        clock.advance(3, SECONDS);
        CountDownLatch marker = new CountDownLatch(1);
        executor.schedule(marker::countDown, 0, NANOSECONDS); // due after every other task: runs last
        sync();
        assertTrue(marker.await(20, SECONDS), "the marker did not run");
        assertEquals(0, victimsRan.get(), "a cancelled task ran");
        for (int i = 0; i < 3 * pairs; i++) {
            assertEquals(1, keeperRuns.get(i), "keeper " + i + " runs");
        }
        assertEquals(0, executor.getQueue().size());
        assertEquals(0, sync());
    }

    /**
     * A queue snapshot (toArray: a Snapshot command, urgent) is answered only after a detachAll that started
     * after the tick thread read it: so a task scheduled by another thread before the snapshot was asked for
     * (happens-before through a latch) is in it, whichever stripe it was offered on.
     */
    @Test
    @Timeout(value = 60, unit = SECONDS) // a hang guard only
    void queueSnapshot_rightAfterAnotherThreadsSchedule_containsTheTask() throws Exception {
        start(0L, 1);
        int producers = 4, n = 400;
        ScheduledFuture<?>[] futures = new ScheduledFuture<?>[n];
        CountDownLatch[] go = new CountDownLatch[n], done = new CountDownLatch[n];
        for (int i = 0; i < n; i++) {
            go[i] = new CountDownLatch(1);
            done[i] = new CountDownLatch(1);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int me = p;
            Thread t = new Thread(() -> {
                try {
                    for (int i = me; i < n; i += producers) {
                        if (!go[i].await(30, SECONDS)) {
                            throw new AssertionError("turn " + i + " never came");
                        }
                        futures[i] = executor.schedule(() -> { }, 1 + i % 7, SECONDS);
                        done[i].countDown();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    for (CountDownLatch l : done) {
                        l.countDown();
                    }
                }
            }, "inbox-snapshot-producer-" + p);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }

        try (Noise noise = new Noise(executor)) {
            for (int i = 0; i < n; i++) {
                go[i].countDown();
                assertTrue(done[i].await(10, SECONDS));
                assertNull(failure.get());
                ScheduledFuture<?> f = futures[i];
                assertTrue(executor.getQueue().contains(f));
                List<Object> snapshot = Arrays.asList(executor.getQueue().toArray());
                assertTrue(snapshot.contains(f), "task " + i + " missing from a snapshot taken after its schedule");
                for (int j = 0; j < i; j += 37) {
                    assertTrue(snapshot.contains(futures[j]), "older task " + j + " missing from snapshot " + i);
                }
                // the noise tasks come and go; ours are all there
                assertTrue(executor.getQueue().size() >= i + 1, "size " + executor.getQueue().size() + " after " + (i + 1));
            }
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertEquals(n, executor.getQueue().size(), "noise cancelled: ours only");
        Object[] all = executor.getQueue().toArray();
        assertEquals(n, all.length);
        List<Object> expected = new ArrayList<>(Arrays.asList((Object[]) futures));
        for (Object o : all) {
            assertTrue(expected.remove(o), "unexpected or duplicate " + o);
        }
        for (ScheduledFuture<?> f : futures) {
            assertTrue(f.cancel(false));
        }
        assertEquals(0, executor.getQueue().size());
        assertArrayEquals(new Object[0], executor.getQueue().toArray());
    }

    /**
     * A producer schedules Y and then removes X while the tick thread runs a snapshot, after the snapshot's
     * last detach and before it collects (made deterministic by a clock that runs the producer's two steps
     * when the snapshot reads it). At every instant X or Y is queued, so the snapshot holds one of them: here
     * Y (X is gone when it looks). Before the snapshot read what was offered while it collected, it held
     * neither (jcstress SnapshotVsProducer found it too).
     */
    @Test
    @Timeout(30)
    void queueSnapshot_holdsATaskScheduledWhileItCollects_beforeAnotherLeft() throws Exception {
        ManualClock manual = new ManualClock(0);
        AtomicReference<Runnable> duringSnapshot = new AtomicReference<>();
        NanoClock clock = () -> {
            Runnable step = duringSnapshot.get();
            if (step != null && calledFromSnapshotRun() && duringSnapshot.compareAndSet(step, null)) {
                step.run(); // on the tick thread, as if another thread ran it at this moment
            }
            return manual.nanoTime();
        };
        WheelScheduledExecutorService e = WheelScheduledExecutorService.builder().corePoolSize(1).testSeam(clock, null).build();
        executors.add(e);
        ScheduledFuture<?> x = e.schedule(() -> { }, 1, HOURS);
        AtomicReference<ScheduledFuture<?>> y = new AtomicReference<>();
        AtomicReference<Boolean> removed = new AtomicReference<>();
        duringSnapshot.set(() -> {
            y.set(e.schedule(() -> { }, 2, HOURS));
            removed.set(e.remove((Runnable) x));
        });

        Object[] snapshot = e.getQueue().toArray();

        assertNull(duringSnapshot.get(), "the producer's steps ran during the snapshot");
        assertEquals(Boolean.TRUE, removed.get());
        assertEquals(List.of(y.get()), Arrays.asList(snapshot));
        assertEquals(List.of(y.get()), Arrays.asList(e.getQueue().toArray()));
    }

    private static boolean calledFromSnapshotRun() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(
                f -> f.getClassName().equals("io.timewheel.executor.internal.tick.TickThread$SnapshotRequest")
                        && f.getMethodName().equals("run")));
    }
}
