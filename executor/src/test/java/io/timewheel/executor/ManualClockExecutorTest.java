package io.timewheel.executor;

import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.tick.TickProbe;
import io.timewheel.executor.internal.tick.TickThread;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.LogRecord;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tick logic driven by a manual clock: deterministic, no sleeps. {@link #sync()} returns once the tick
 * thread has read the clock (after everything submitted before) and handed every task due then to the
 * workers, so "not run yet" is a fact, not a guess.
 */
class ManualClockExecutorTest extends ManualClockTestBase {

    @ParameterizedTest(name = "start = {0}")
    @ValueSource(longs = {0L, -1L, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 5_000_000L, 123_456_789L})
    void task_runsOnlyOnceTheClockReachesItsDeadline_evenAcrossTheWrap(long startTime) throws Exception {
        start(startTime, 1);
        long deadline = startTime + MILLISECONDS.toNanos(10);
        AtomicLong startedAt = new AtomicLong(Long.MIN_VALUE);
        ScheduledFuture<?> f = executor.schedule(() -> startedAt.set(clock.nanoTime()), 10, MILLISECONDS);

        clock.advanceNanos(MILLISECONDS.toNanos(10) - 1);
        sync();
        assertFalse(f.isDone(), "ran before its deadline");
        assertTrue(executor.getQueue().contains(f));

        clock.advanceNanos(1);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(f::isDone);
        assertTrue(startedAt.get() - deadline >= 0, "started before its deadline");
    }

    @Test
    void aBurstAsWideAsTheHandOverStride_isHandedOverWhole_beforeItStarts_andTheTickThreadSleepsThroughIt()
            throws Exception {
        start(0L, 1);
        long first = SECONDS.toNanos(1);
        long width = ReadyQueue.HORIZON_NANOS - TickThread.MARGIN_NANOS; // the stride, 4.2 ms
        long later = first + SECONDS.toNanos(1);
        int n = 101;
        List<ScheduledFuture<?>> burst = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            burst.add(executor.schedule(() -> { }, first + width * i / (n - 1), NANOSECONDS));
        }
        executor.schedule(() -> { }, later, NANOSECONDS);
        assertEquals(n + 1, sync());
        await().atMost(Duration.ofSeconds(10)).until(() ->
                probe.wakeAt() == first - TickThread.MARGIN_NANOS);

        clock.advanceNanos(first - TickThread.MARGIN_NANOS);
        assertEquals(1, sync(), "part of the burst was still in the wheel MARGIN before it starts");
        for (ScheduledFuture<?> f : burst) {
            assertFalse(f.isDone(), "ran before its deadline");
        }
        // the next look is MARGIN before the next deadline it holds, not in the middle of the burst
        await().atMost(Duration.ofSeconds(10)).until(() ->
                probe.parkState() != TickThread.AWAKE
                        && probe.wakeAt() == later - TickThread.MARGIN_NANOS);

        clock.advanceNanos(TickThread.MARGIN_NANOS + width); // to the burst's last deadline
        await().atMost(Duration.ofSeconds(10)).until(() -> burst.stream().allMatch(ScheduledFuture::isDone));
    }

    @Test
    void aWorkerAboutToBlock_wakesTheTickThreadWhoseHandOverIsDue_beforeItsOwnDeferredWakeUp() throws Exception {
        start(0L, 1);
        long far = SECONDS.toNanos(60);
        ScheduledFuture<?> farTask = executor.schedule(() -> { }, far, NANOSECONDS);
        assertEquals(1, sync());
        // parked (in real time) for about a minute: the manual clock's time to its look, plus the deferral
        await().atMost(Duration.ofSeconds(10)).until(() ->
                probe.parkState() != TickThread.AWAKE
                        && probe.wakeAt() == far - TickThread.MARGIN_NANOS);
        long loops = probe.loops();

        clock.advanceNanos(far - TickThread.MARGIN_NANOS); // its look is due; nothing wakes it yet
        CountDownLatch ran = new CountDownLatch(1);
        executor.execute(ran::countDown); // straight to the worker, which runs it and then blocks
        assertTrue(ran.await(10, SECONDS));
        // the blocking worker woke it: it looped and handed the far task over, long before its own timer
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.loops() > loops);
        assertEquals(0, sync(), "the far task was handed over by the loop the worker woke");
        assertFalse(farTask.isDone(), "handed over, not run: its deadline is 130 ms away");
    }

    @Test
    void aLongHandOver_isPaced_theTickThreadYieldsDuringIt() throws Exception {
        start(0L, 1, b -> b.dedicatedTickThread(true)); // its pacer counts this executor's work alone
        long far = SECONDS.toNanos(60);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            executor.schedule(() -> { }, far + i, NANOSECONDS); // one tick's slot
        }
        TickProbe.Seen filed = syncPoint();
        assertEquals(n, filed.wheelSize());
        clock.advanceNanos(far + n - TickThread.MARGIN_NANOS); // every one of them is due for a hand-over
        TickProbe.Seen handedOver = syncPoint();
        assertEquals(0, handedOver.wheelSize());
        // Moving 20,000 entries (gathered, sorted, expired, taken: over 60,000 paced steps) takes far more
        // than the pacer's 16.4 us of real time on any machine: it yielded during the hand-over.
        assertTrue(handedOver.pacerYields() > filed.pacerYields(),
                "yields: " + filed.pacerYields() + " after filing, " + handedOver.pacerYields() + " after the hand-over");
    }

    @Test
    void sameDeadline_runsInSubmissionOrder_onOneWorker() throws Exception {
        start(0L, 1);
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(200);
        for (int i = 0; i < 200; i++) {
            int id = i;
            executor.schedule(() -> {
                order.add(id);
                done.countDown();
            }, 5, SECONDS); // the manual clock does not move: every task has the same deadline
        }
        clock.advance(5, SECONDS);
        sync();
        assertTrue(done.await(10, SECONDS));
        for (int i = 0; i < 200; i++) {
            assertEquals(i, order.get(i));
        }
    }

    @Test
    void overdueTasks_runInDeadlineOrder_onOneWorker() throws Exception {
        start(1_000L, 1);
        List<Long> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(100);
        for (int i = 100; i > 0; i--) {
            long delay = i * 7_919L % 1_000L + i; // scrambled, distinct
            executor.schedule(() -> {
                order.add(delay);
                done.countDown();
            }, delay, MILLISECONDS);
        }
        clock.advance(2, SECONDS);
        sync();
        assertTrue(done.await(10, SECONDS));
        List<Long> sorted = new ArrayList<>(order);
        Collections.sort(sorted);
        assertEquals(sorted, order);
    }

    /**
     * The race the test above can lose: the tick thread has detached its inbox, the same thread that scheduled
     * a task it has read schedules one with an earlier deadline, and the clock passes both before the tick
     * thread reads it. A hand-over that passed the unread entry would let the worker run the later deadline
     * first (STPE's worker takes the earliest). The command holds the tick thread at that point; after the
     * loop's expiry the worker takes whatever was handed over before the tick thread reads the rest.
     */
    @Test
    void anUnreadEarlierDeadline_isNotOvertakenByOneReadBeforeIt_evenFromTheSameThread() throws Exception {
        start(0L, 1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(2);
        executor.schedule(() -> {
            order.add("later");
            done.countDown();
        }, 500, MILLISECONDS);
        sync();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        probe.tickThread().command(new TickThread.Command(true) {
            @Override
            protected void run(TickThread tick) {
                held.countDown(); // the inbox is detached: what this thread schedules now stays unread
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                // the worker takes what this loop handed over before the tick thread reads the inbox again
                probe.runAfterExpiry(() -> await().atMost(Duration.ofSeconds(10))
                        .until(() -> executor.statistics().overdue() == 0));
            }
        });
        assertTrue(held.await(10, SECONDS));
        executor.schedule(() -> {
            order.add("earlier");
            done.countDown();
        }, 300, MILLISECONDS);
        clock.advance(1, SECONDS);
        release.countDown();
        sync();
        assertTrue(done.await(10, SECONDS));
        assertEquals(List.of("earlier", "later"), order);
    }

    /**
     * The tick thread parks for a time reckoned from the clock as it parks, not as it read it for the expiry
     * step: time spent in that step (here the command advances the clock during it, as a slow hand-over on
     * a busy CPU or a stopped process does) must not be slept again.
     */
    @Test
    void theTickThreadsPark_countsFromWhenItParks_notFromItsExpiryStep() throws Exception {
        start(0L, 1);
        long deadline = SECONDS.toNanos(1);
        executor.schedule(() -> { }, deadline, NANOSECONDS);
        assertEquals(1, sync());
        long spent = MILLISECONDS.toNanos(300);
        CountDownLatch advanced = new CountDownLatch(1);
        AtomicLong loop = new AtomicLong(-1);
        probe.tickThread().command(new TickThread.Command(true) {
            @Override
            protected void run(TickThread tick) {
                probe.runAfterExpiry(() -> {
                    clock.advanceNanos(spent); // the loop's work took this long
                    loop.set(probe.loops());
                    advanced.countDown();
                });
            }
        });
        assertTrue(advanced.await(10, SECONDS));
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.parkedInLoop() == loop.get());
        assertEquals(deadline - TickThread.MARGIN_NANOS, probe.wakeAt());
        assertEquals(deadline - TickThread.MARGIN_NANOS - spent, probe.lastParkDelay(),
                "parked as if no time had passed since the loop read the clock");
    }

    @Test
    void cascadingTimers_fireAtTheirExactDeadline_neverEarly() throws Exception {
        start(Long.MAX_VALUE - HOURS.toNanos(1), 1);
        long origin = clock.nanoTime();
        long[] delays = {1, 999_999, 1_048_576, 1_048_577, 67_108_863, 67_108_865, 4_294_967_297L,
                SECONDS.toNanos(30), HOURS.toNanos(2), HOURS.toNanos(30), TimeUnit.DAYS.toNanos(400)};
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        List<AtomicLong> starts = new ArrayList<>();
        for (long d : delays) {
            AtomicLong at = new AtomicLong();
            starts.add(at);
            futures.add(executor.schedule(() -> at.set(clock.nanoTime()), d, NANOSECONDS));
        }
        for (int i = 0; i < delays.length; i++) {
            clock.advanceNanos(origin + delays[i] - 1 - clock.nanoTime());
            sync();
            assertFalse(futures.get(i).isDone(), "timer " + delays[i] + " ns ran early");
            clock.advanceNanos(1);
            sync();
            int k = i;
            await().atMost(Duration.ofSeconds(10)).until(() -> futures.get(k).isDone());
            assertEquals(origin + delays[i], starts.get(i).get());
        }
    }

    /**
     * A periodic task removed from the queue while the ready heap holds it, then run directly (which queues
     * it again for its next period): the heap's copy, with the old deadline, is stale and must not hand the
     * task out early, neither to getQueue().poll() nor to a worker.
     */
    @Test
    void staleReadyHeapCopy_ofARequeuedPeriodicTask_neverHandsItOutEarly() throws Exception {
        start(0L, 1);
        List<Long> runTimes = Collections.synchronizedList(new ArrayList<>());
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> runTimes.add(clock.nanoTime()), 5, 100, MILLISECONDS);
        sync(); // 5 ms: within the ready horizon, so in the heap
        assertTrue(executor.getQueue().remove(f), "removed from the queue");
        ((Runnable) f).run(); // runs now, and queues the next period (105 ms) through the tick thread
        assertEquals(1, runTimes.size());
        assertFalse(f.isDone());
        clock.advanceNanos(MILLISECONDS.toNanos(10)); // past the heap copy's deadline, before the next period's
        sync();
        assertEquals(null, executor.getQueue().poll(), "the stale copy handed the task out early");
        assertTrue(executor.getQueue().contains(f), "still queued for its next period");
        clock.advanceNanos(MILLISECONDS.toNanos(105) - clock.nanoTime());
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> runTimes.size() == 2);
        assertEquals(List.of(0L, MILLISECONDS.toNanos(105)), runTimes, "run times");
        f.cancel(false);
    }

    @Test
    void fixedRate_keepsItsCadence_withoutDrift() throws Exception {
        start(0L, 1);
        List<Long> runTimes = Collections.synchronizedList(new ArrayList<>());
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(() -> {
            runTimes.add(clock.nanoTime());
            clock.advanceNanos(MILLISECONDS.toNanos(3)); // each run "takes" 3 ms
        }, 10, 10, MILLISECONDS);
        for (int run = 1; run <= 20; run++) {
            long due = MILLISECONDS.toNanos(10L * run);
            clock.advanceNanos(due - clock.nanoTime());
            sync();
            int expected = run;
            await().atMost(Duration.ofSeconds(10)).until(() -> runTimes.size() == expected);
            assertEquals(due, runTimes.get(run - 1), "run " + run + " not at its fixed-rate time");
        }
        f.cancel(false);
    }

    @Test
    void fixedDelay_measuresFromTheEndOfTheRun() throws Exception {
        start(0L, 1);
        List<Long> runTimes = Collections.synchronizedList(new ArrayList<>());
        executor.scheduleWithFixedDelay(() -> {
            runTimes.add(clock.nanoTime());
            clock.advanceNanos(MILLISECONDS.toNanos(3));
        }, 10, 10, MILLISECONDS);
        long expected = MILLISECONDS.toNanos(10);
        for (int run = 1; run <= 10; run++) {
            clock.advanceNanos(expected - 1 - clock.nanoTime());
            sync();
            assertEquals(run - 1, runTimes.size(), "fixed-delay run came early");
            clock.advanceNanos(1);
            sync();
            int count = run;
            await().atMost(Duration.ofSeconds(10)).until(() -> runTimes.size() == count);
            assertEquals(expected, runTimes.get(run - 1));
            expected += MILLISECONDS.toNanos(13); // 3 ms of run + 10 ms of delay
        }
    }

    @Test
    void cancel_removesTheTaskFromTheWheel_underBothPolicies() throws Exception {
        for (boolean removeOnCancel : new boolean[]{false, true}) {
            start(0L, 1);
            executor.setRemoveOnCancelPolicy(removeOnCancel);
            List<ScheduledFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                futures.add(executor.schedule(() -> { }, 30 + i % 1000, SECONDS));
            }
            assertEquals(10_000, sync());
            for (ScheduledFuture<?> f : futures) {
                assertTrue(f.cancel(false));
            }
            assertEquals(0, executor.getQueue().size());
            assertEquals(0, sync(), "cancelled tasks still held by the wheel, removeOnCancel=" + removeOnCancel);
        }
    }

    @Test
    void idleTickThread_parksUntilTheNextDeadline_notPerTick() throws Exception {
        start(0L, 1);
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, HOURS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() ->
                probe.parkState() == TickThread.PARKED_LONG
                        && probe.wakeAt() == HOURS.toNanos(1) - TickThread.MARGIN_NANOS);
        long loops = probe.loops();
        assertFalse(f.isDone());
        // nothing to do: it stays parked until it is told something, whatever the real time does
        assertEquals(TickThread.PARKED_LONG, probe.parkState());
        assertEquals(loops, probe.loops());
    }

    @Test
    void cancelOfAFiledTask_isReadByTheParkedTickThread_withNothingOfferedAfterIt() throws Exception {
        start(0L, 1);
        ScheduledFuture<?> cancelled = executor.schedule(() -> { }, 1, HOURS);
        executor.schedule(() -> { }, 2, HOURS);
        assertEquals(2, sync());
        TickProbe tick = probe;
        await().atMost(Duration.ofSeconds(10)).until(() -> tick.parkState() == TickThread.PARKED_LONG);
        long loops = tick.loops();
        // the manual clock stands still: the thread parked "just now", and its next look is an hour away.
        // The Unlink this cancel sends must still be read (and the task's memory freed) within DRAIN_NANOS
        // of real time, with nothing offered after it: once it waited for the look an hour away.
        assertTrue(cancelled.cancel(false));
        await().atMost(Duration.ofSeconds(10)).until(() -> tick.loops() > loops
                && tick.parkState() == TickThread.PARKED_LONG);
        assertEquals(1, sync(), "the cancelled task is still in the wheel");
    }

    @Test
    void cancelOfATaskStillInTheInbox_notRetractable_isDroppedByTheParkedTickThread() throws Exception {
        start(0L, 1);
        executor.schedule(() -> { }, 1, HOURS);
        assertEquals(1, sync());
        TickProbe tick = probe;
        await().atMost(Duration.ofSeconds(10)).until(() -> tick.parkState() == TickThread.PARKED_LONG);
        long loops = tick.loops();
        // two offers soon after it parked, later than what it holds: neither wakes it (read at its next look,
        // or with what follows)
        ScheduledFuture<?> cancelled = executor.schedule(() -> { }, 2, HOURS);
        executor.schedule(() -> { }, 3, HOURS);
        assertEquals(TickThread.PARKED_LONG, tick.parkState());
        assertEquals(loops, tick.loops());
        // the first is below the second on this thread's stripe: the cancel cannot take it back, so the tick
        // thread must read (and drop) it within DRAIN_NANOS, not hold it until its next look
        assertTrue(cancelled.cancel(false));
        await().atMost(Duration.ofSeconds(10)).until(() -> tick.loops() > loops
                && tick.parkState() == TickThread.PARKED_LONG);
        assertEquals(2, sync(), "the cancelled task was filed, or the live one was not read");
    }

    @Test
    void tickThread_withNothingLeftAfterAHandOver_parksIndefinitely_insteadOfSpinning() throws Exception {
        start(0L, 1);
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, SECONDS); // far: through the inbox and the wheel
        sync();
        clock.advance(1, SECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(f::isDone);
        // nothing pending: it must park without a timeout (WAITING), not return from park() at once (once it
        // compared the reset value of pendingLow with an indefinite wake-up time and never parked)
        Thread tick = probe.tickThread().thread();
        await().atMost(Duration.ofSeconds(10)).until(() -> tick.getState() == Thread.State.WAITING
                && probe.parkState() == TickThread.PARKED_LONG);
        long loops = probe.loops();
        assertEquals(Thread.State.WAITING, tick.getState());
        assertEquals(loops, probe.loops());
    }

    @Test
    void tickThread_survivesAFailureInItsLoop() throws Exception {
        start(0L, 1);
        probe.tickThread().command(new TickThread.Command(true) {
            @Override
            protected void run(TickThread tick) {
                throw new IllegalStateException("injected failure (expected in this test's log)");
            }
        });
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, SECONDS);
        clock.advance(1, SECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(f::isDone);
        assertTrue(probe.tickThread().thread().isAlive());
        List<LogRecord> reports = UnexpectedReports.take("injected failure", 1);
        assertTrue(reports.get(0).getMessage().contains("tick thread"), reports.get(0).getMessage());
    }

    @Test
    void dedicatedTickThread_endsAfterItsExecutorTerminates() throws Exception {
        start(0L, 1);
        executor.schedule(() -> { }, 1, SECONDS);
        Thread tick = probe.tickThread().thread();
        assertTrue(tick.isAlive());
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(10, SECONDS));
        tick.join(10_000);
        assertFalse(tick.isAlive());
    }

    @Test
    void sharedTickThread_servesEveryExecutor() throws Exception {
        java.util.Set<Thread> before = tickThreads();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            WheelScheduledExecutorService e = new WheelScheduledExecutorService(1);
            executors.add(e);
            // beyond the ready queue's horizon: each goes through a tick thread
            e.schedule(ran::incrementAndGet, ReadyQueue.HORIZON_NANOS + 1_000_000, NANOSECONDS);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 10);
        java.util.Set<Thread> added = tickThreads();
        added.removeAll(before);
        assertTrue(added.stream().allMatch(t -> t.getName().equals("timewheel-tick")), "tick threads added: " + added);
        assertEquals(1, tickThreads().stream().filter(t -> t.getName().equals("timewheel-tick")).count());
    }

    private static java.util.Set<Thread> tickThreads() {
        java.util.Set<Thread> threads = new java.util.HashSet<>(Thread.getAllStackTraces().keySet());
        threads.removeIf(t -> !t.getName().startsWith("timewheel-tick"));
        return threads;
    }

    @Test
    void interruptedTickThread_clearsTheInterrupt_andParksAgain() throws Exception {
        start(0L, 1);
        ScheduledFuture<?> f = executor.schedule(() -> { }, 1, HOURS);
        sync();
        TickProbe tick = probe;
        for (int i = 0; i < 3; i++) {
            tick.thread().interrupt();
            // left set, the interrupt would make every park return at once: the thread would spin, never parked
            await().atMost(Duration.ofSeconds(10)).until(() -> tick.parkState() == TickThread.PARKED_LONG
                    && tick.thread().getState() == Thread.State.TIMED_WAITING);
        }
        assertFalse(tick.thread().isInterrupted());
        clock.advance(1, HOURS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(f::isDone);
    }

    /** A scheduled future of a class the executor does not know, due at once. */
    private static final class DueForeignTask extends java.util.concurrent.FutureTask<Void>
            implements java.util.concurrent.RunnableScheduledFuture<Void> {
        DueForeignTask() {
            super(() -> { }, null);
        }

        @Override
        public boolean isPeriodic() {
            return false;
        }

        @Override
        public long getDelay(java.util.concurrent.TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(java.util.concurrent.Delayed other) {
            return 0;
        }
    }

    @Test
    void queueSnapshot_afterTheDedicatedTickThreadEnded_isAnsweredByTheCaller() throws Exception {
        start(0L, 1);
        Thread tick = probe.tickThread().thread();
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(10, SECONDS));
        tick.join(10_000);
        assertFalse(tick.isAlive());
        DueForeignTask due = new DueForeignTask();
        assertTrue(executor.getQueue().offer(due)); // a queued task after the end: the snapshot must still answer
        assertEquals(List.of(due), List.of(executor.getQueue().toArray()));
    }
}
