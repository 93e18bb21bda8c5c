package io.timewheel.executor;

import io.timewheel.executor.internal.tick.TickThread;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.LogRecord;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The executor's statistics and JFR events on a manual clock: exact lateness and its parts, the queued
 * counts against a model, the starvation warning in spring-framework#33856's scenario. Deterministic: the
 * clock moves only when a test moves it, and {@link #sync()} waits until the tick thread has acted on it.
 */
class ExecutorStatisticsTest extends ManualClockTestBase {

    private static final long SECOND = SECONDS.toNanos(1);

    /** A worker that runs nothing else until released. */
    private CountDownLatch block(WheelScheduledExecutorService e) {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        e.execute(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertTrue(running.await(10, SECONDS));
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
        return release;
    }

    static {
        // known to JFR before the recordings enable them by name
        jdk.jfr.FlightRecorder.register(io.timewheel.executor.jfr.TaskLateEvent.class);
    }

    /** The events of that name of this test's executor (named by the test), from the recording. */
    private List<RecordedEvent> events(Recording recording, Path dir, String name) throws Exception {
        recording.stop();
        Path file = dir.resolve("events.jfr");
        recording.dump(file);
        List<RecordedEvent> events = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(name)
                    && e.getString("executor").equals(executor.statistics().executorName())) {
                events.add(e);
            }
        }
        return events;
    }

    @Test
    void taskDueAtT_startedAtTPlusD_recordsDInItsBucket_andItsTwoPartsSumToD(@TempDir Path dir) throws Exception {
        long t = SECOND;                      // far: filed in the wheel, handed over by the tick thread
        long handOverPart = MILLISECONDS.toNanos(3);
        long d = MILLISECONDS.toNanos(50);
        try (Recording recording = new Recording()) {
            recording.enable("io.timewheel.TaskLate");
            recording.start();
            start(0L, 1, b -> b.lateThreshold(10, MILLISECONDS).name("exact"));
            CountDownLatch release = block(executor);   // started at its deadline, 0: lateness 0
            ScheduledFuture<?> task = executor.schedule(() -> { }, t, NANOSECONDS);

            clock.advanceNanos(t + handOverPart);       // the tick thread is late: hands it over at T + 3 ms
            sync();
            clock.advanceNanos(d - handOverPart);       // the worker is busy until T + d
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(task::isDone);

            ExecutorStatistics s = executor.statistics();
            long[] lateness = s.latenessHistogram();
            long[] handOver = s.handOverHistogram();
            long[] wait = s.workerWaitHistogram();
            int bucket = ExecutorStatistics.bucketOf(d);
            assertTrue(ExecutorStatistics.bucketLowerBound(bucket) <= d && d < 2 * ExecutorStatistics.bucketLowerBound(bucket));
            assertEquals(1, lateness[bucket], s.toString());
            assertEquals(1, lateness[0], "the blocker started on time: " + s);
            assertEquals(2, sum(lateness), s.toString());
            assertEquals(1, handOver[ExecutorStatistics.bucketOf(handOverPart)], s.toString());
            assertEquals(1, wait[ExecutorStatistics.bucketOf(d - handOverPart)], s.toString());
            assertEquals(1, s.tasksLate(), s.toString());
            assertEquals(2, s.tasksRun(), s.toString());

            List<RecordedEvent> late = events(recording, dir, "io.timewheel.TaskLate");
            assertEquals(1, late.size(), late.toString());
            RecordedEvent e = late.get(0);
            assertEquals(d, e.getLong("lateness"));
            assertEquals(handOverPart, e.getLong("handOver"));
            assertEquals(d - handOverPart, e.getLong("workerWait"));
            assertEquals(d, e.getLong("handOver") + e.getLong("workerWait"));
            assertEquals(t, e.getLong("deadline"));
            assertTrue(e.getBoolean("started"));
            assertEquals("exact", e.getString("executor"));
            assertTrue(e.getString("taskClass").startsWith(ExecutorStatisticsTest.class.getName()), e.toString());
        }
    }

    @Test
    void taskHandedOverBeforeItsDeadline_hasNoHandOverPart_andWaitsForTheWorkerAlone() throws Exception {
        start(0L, 1);
        CountDownLatch release = block(executor);
        ScheduledFuture<?> task = executor.schedule(() -> { }, 10, MILLISECONDS); // near: straight to the ready queue
        clock.advance(17, MILLISECONDS);
        sync();
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(task::isDone);
        ExecutorStatistics s = executor.statistics();
        assertEquals(2, s.handOverHistogram()[0], s.toString());
        assertEquals(1, s.workerWaitHistogram()[ExecutorStatistics.bucketOf(MILLISECONDS.toNanos(7))], s.toString());
        assertEquals(0, s.tasksLate(), "under the 100 ms default threshold: " + s);
    }

    @Test
    void notYetDueAndOverdue_matchAModel_atEveryStepOfARandomRun() throws Exception {
        start(1L << 40, 1);
        CountDownLatch release = block(executor); // nothing runs: every due task stays overdue in the queue
        SplittableRandom random = new SplittableRandom(25);
        Map<ScheduledFuture<?>, Long> live = new HashMap<>(); // future -> deadline
        List<ScheduledFuture<?>> order = new ArrayList<>();
        long cancelled = 0;
        for (int step = 0; step < 400; step++) {
            int op = random.nextInt(10);
            long now = clock.nanoTime();
            if (op < 5) {
                long delay = random.nextInt(4) == 0
                        ? random.nextLong(0, MILLISECONDS.toNanos(40))     // near: may go straight to the ready queue
                        : random.nextLong(0, SECONDS.toNanos(3));         // far: through the wheel
                ScheduledFuture<?> f = executor.schedule(() -> { }, delay, NANOSECONDS);
                live.put(f, now + delay);
                order.add(f);
            } else if (op < 7 && !order.isEmpty()) {
                ScheduledFuture<?> f = order.remove(random.nextInt(order.size()));
                assertTrue(f.cancel(false));
                live.remove(f);
                cancelled++;
            } else {
                clock.advanceNanos(random.nextLong(0, MILLISECONDS.toNanos(120)));
            }
            sync();
            long at = clock.nanoTime();
            long overdue = live.values().stream().filter(deadline -> deadline - at <= 0).count();
            long oldest = live.values().stream().filter(deadline -> deadline - at <= 0)
                    .mapToLong(deadline -> at - deadline).max().orElse(0);
            ExecutorStatistics s = executor.statistics();
            String where = "step " + step + ": " + s;
            assertEquals(overdue, s.overdue(), where);
            assertEquals(live.size() - overdue, s.notYetDue(), where);
            assertEquals(oldest, s.oldestOverdueNanos(), where);
            assertEquals(cancelled, s.tasksCancelled(), where);
            assertEquals(0, s.idleWorkers(), where);
        }
        release.countDown();
    }

    @Test
    void rejectedTasks_areCounted() {
        start(0L, 1);
        executor.shutdown();
        for (int i = 0; i < 3; i++) {
            try {
                executor.execute(() -> { });
            } catch (java.util.concurrent.RejectedExecutionException expected) {
                // AbortPolicy
            }
        }
        assertEquals(3, executor.statistics().tasksRejected());
    }

    @Test
    void fixedRate_countsMissedRunsAndOverruns() throws Exception {
        start(0L, 1);
        AtomicInteger runs = new AtomicInteger();
        executor.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 1) {
                clock.advance(2500, MILLISECONDS); // the first run takes 2.5 periods: an overrun
            }
        }, 0, 1, SECONDS);
        // run 2 (due at 1 s) starts at 2.5 s, after the next period began: missed; run 3 (due at 2 s) starts
        // at 2.5 s too, half a period late: not missed; run 4 (due at 3 s) waits for the clock
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.statistics().tasksRun() == 3);
        clock.advance(500, MILLISECONDS);
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.statistics().tasksRun() == 4);
        ExecutorStatistics s = executor.statistics();
        assertEquals(1, s.overruns(), s.toString());
        assertEquals(1, s.missedRuns(), s.toString());
        assertEquals(4, runs.get());
    }

    /**
     * spring-framework#33856: a pool of one, a task that runs 5 s, a 1 s fixed-rate task. Within 1.5 s of the
     * fixed-rate task's first missed deadline: one warning and one TaskLate event (lateness >= 1 s, all
     * workers busy); with a pool of two, none.
     */
    @Test
    void springScenario_poolOfOne_warnsOnce_andCommitsOneTaskLate(@TempDir Path dir) throws Exception {
        List<RecordedEvent> late = springScenario(1, dir);
        List<LogRecord> warnings = UnexpectedReports.take("overdue (oldest", 1);
        assertEquals("1 task of executor spring is overdue (oldest 1000 ms): all 1 worker busy",
                warnings.get(0).getMessage());
        assertEquals(1, late.size(), late.toString());
        RecordedEvent e = late.get(0);
        assertTrue(e.getLong("lateness") >= SECOND, e.toString());
        assertEquals(e.getLong("lateness"), e.getLong("handOver") + e.getLong("workerWait"));
        assertEquals(SECOND, e.getLong("deadline"));
        assertEquals(1, e.getInt("workers"));
        assertEquals(0, e.getInt("idleWorkers"));
        assertTrue(!e.getBoolean("started"));
    }

    @Test
    void springScenario_poolOfTwo_staysQuiet(@TempDir Path dir) throws Exception {
        List<RecordedEvent> late = springScenario(2, dir);
        assertEquals(List.of(), late);
        // and no warning: UnexpectedReports fails the test on any
    }

    private List<RecordedEvent> springScenario(int threads, Path dir) throws Exception {
        try (Recording recording = new Recording()) {
            recording.enable("io.timewheel.TaskLate");
            recording.start();
            start(0L, threads, b -> b.name("spring").lateThreshold(1, SECONDS).starvationWarning(true));
            AtomicLong runs = new AtomicLong();
            executor.scheduleAtFixedRate(runs::incrementAndGet, 0, 1, SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 1);
            CountDownLatch release = block(executor); // the "5 s" task
            long[] steps = {SECOND, SECOND + SECOND / 2, 2 * SECOND, 2 * SECOND + SECOND / 2};
            for (long at : steps) {
                clock.advanceNanos(at - clock.nanoTime());
                sync();
                if (threads > 1) {
                    long expected = 1 + at / SECOND;
                    await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == expected);
                }
            }
            List<RecordedEvent> late = events(recording, dir, "io.timewheel.TaskLate");
            release.countDown();
            return late;
        }
    }

    /**
     * The only worker is blocked; a task due within the ready queue's near term goes from its producer straight
     * to the workers, so no hand-over of the tick thread's tells the watch. The warning must still speak when
     * the task has waited the late threshold, not at a later periodic look.
     */
    @Test
    void starvationWarning_speaksWhenATaskPushedStraightToTheWorkers_hasWaitedTheThreshold() throws Exception {
        long threshold = MILLISECONDS.toNanos(100);
        start(0L, 1, b -> b.name("starved").lateThreshold(threshold, NANOSECONDS).starvationWarning(true));
        CountDownLatch release = block(executor);
        long delay = MILLISECONDS.toNanos(10); // near term: straight to the ready queue
        executor.schedule(() -> { }, delay, NANOSECONDS);

        clock.advanceNanos(delay + threshold - 1 - clock.nanoTime());
        sync();
        ForkJoinPool.commonPool().awaitQuiescence(10, SECONDS); // the watch logs through the common pool
        assertEquals(0, UnexpectedReports.count("overdue (oldest"), "spoke before the threshold");

        clock.advanceNanos(1);
        sync();
        List<LogRecord> warnings = UnexpectedReports.take("overdue (oldest", 1);
        assertEquals("1 task of executor starved is overdue (oldest 100 ms): all 1 worker busy",
                warnings.get(0).getMessage());
        release.countDown();
    }

    /** The same, for a task handed over by the tick thread, and a second task later: one warning per quiet time. */
    @Test
    void starvationWarning_speaksAtTheThresholdOfAHandedOverTask_thenKeepsQuiet() throws Exception {
        long threshold = MILLISECONDS.toNanos(100);
        start(0L, 1, b -> b.name("starved").lateThreshold(threshold, NANOSECONDS).starvationWarning(true));
        CountDownLatch release = block(executor);
        long delay = SECONDS.toNanos(2); // far: through the tick thread's wheel
        executor.schedule(() -> { }, delay, NANOSECONDS);
        executor.schedule(() -> { }, delay + SECONDS.toNanos(1), NANOSECONDS);

        clock.advanceNanos(delay + threshold - 1 - clock.nanoTime());
        sync();
        ForkJoinPool.commonPool().awaitQuiescence(10, SECONDS);
        assertEquals(0, UnexpectedReports.count("overdue (oldest"), "spoke before the threshold");
        clock.advanceNanos(1);
        sync();
        UnexpectedReports.take("overdue (oldest 100 ms)", 1);
        // a second task starves too, within the quiet time: no second warning
        clock.advanceNanos(SECONDS.toNanos(2));
        sync();
        ForkJoinPool.commonPool().awaitQuiescence(10, SECONDS);
        assertEquals(0, UnexpectedReports.count("overdue (oldest"), "spoke twice within the quiet time");
        release.countDown();
    }

    /**
     * After a look that found nothing queued the watch waits for the next push: that push must still make it
     * look when its task has waited the threshold, and meanwhile the tick thread parks until what it holds.
     */
    @Test
    void starvationWarning_afterALookThatFoundNothing_stillSpeaks_andTheTickThreadParksMeanwhile() throws Exception {
        long threshold = MILLISECONDS.toNanos(100);
        start(0L, 1, b -> b.name("starved").lateThreshold(threshold, NANOSECONDS).starvationWarning(true));
        long far = SECONDS.toNanos(3600);
        executor.schedule(() -> { }, far, NANOSECONDS); // held by the tick thread throughout
        executor.schedule(() -> { }, 0, NANOSECONDS).get(10, SECONDS); // a push: a look is due at 100 ms
        clock.advance(1, SECONDS); // past it: the look finds nothing queued
        sync();
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.parkedInLoop() == probe.loops()
                && probe.wakeAt() == far - TickThread.MARGIN_NANOS);

        CountDownLatch release = block(executor);
        long due = clock.nanoTime() + MILLISECONDS.toNanos(10);
        executor.schedule(() -> { }, 10, MILLISECONDS);
        clock.advanceNanos(due + threshold - 1 - clock.nanoTime());
        sync();
        ForkJoinPool.commonPool().awaitQuiescence(10, SECONDS);
        assertEquals(0, UnexpectedReports.count("overdue (oldest"), "spoke before the threshold");
        clock.advanceNanos(1);
        sync();
        UnexpectedReports.take("overdue (oldest 100 ms)", 1);
        release.countDown();
    }

    /** A watched executor with nothing queued costs the tick thread no wake-up: it parks with no timeout. */
    @Test
    void starvationWarning_onAnIdleExecutor_leavesTheTickThreadParkedIndefinitely() throws Exception {
        start(0L, 1, b -> b.lateThreshold(100, MILLISECONDS).starvationWarning(true));
        executor.schedule(() -> { }, 0, NANOSECONDS).get(10, SECONDS); // a push: the watch's look is due later
        clock.advance(1, SECONDS); // past that look: it finds nothing queued
        sync();
        sync();
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.parkedInLoop() == probe.loops());
        assertEquals(Long.MAX_VALUE, probe.lastParkDelay(), "a watch with nothing to watch set a timed wake-up");
    }

    @Test
    void workerAllocatesNothingPerTask_whileRecordingStatistics() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        if (!threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
        start(0L, 1);
        int n = 20_000;
        AtomicLong first = new AtomicLong(), last = new AtomicLong();
        Runnable noop = () -> { };
        for (int round = 0; round < 3; round++) { // warm-up rounds, then the measured one
            CountDownLatch release = block(executor);
            executor.execute(() -> first.set(threads.getCurrentThreadAllocatedBytes()));
            for (int i = 0; i < n; i++) {
                executor.schedule(noop, i % 7, MILLISECONDS); // near deadlines: the ready queue's ring and heap
            }
            CountDownLatch done = new CountDownLatch(1);
            executor.schedule(() -> {
                last.set(threads.getCurrentThreadAllocatedBytes());
                done.countDown();
            }, 7, MILLISECONDS);
            clock.advance(7, MILLISECONDS);
            release.countDown(); // the worker finds every task due: it runs them all without waiting
            assertTrue(done.await(30, SECONDS));
            clock.advance(1, SECONDS);
        }
        long bytes = last.get() - first.get();
        System.out.printf("ExecutorStatisticsTest: the worker allocated %d bytes over %,d tasks%n", bytes, n);
        assertTrue(bytes < 1024, bytes + " bytes allocated by the worker over " + n + " tasks");
        // the last run is counted just after it returns
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.statistics().tasksRun() == 3 * (n + 3));
    }

    private static long sum(long[] counts) {
        long s = 0;
        for (long c : counts) {
            s += c;
        }
        return s;
    }
}
