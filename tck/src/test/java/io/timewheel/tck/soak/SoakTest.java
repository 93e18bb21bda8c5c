package io.timewheel.tck.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.timewheel.tck.BothImpls;
import io.timewheel.tck.Impl;
import io.timewheel.tck.VirtualThreadMode;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The soak suite: rounds of random operations on fresh executors, the same seeded sequence on the JDK's
 * STPE and on the wheel executor, until a budget is spent, with an accounting oracle. CI mode (the default
 * build): about {@code soak.seconds} (12) seconds per implementation. Long mode ({@code -Psoak}, or
 * {@code -Dsoak.ops=N}): rounds until N operations per implementation. {@code -Dsoak.seed=N} replays a
 * run's sequence of operations (the thread interleaving, and so the outcome, may differ); without it the
 * seed is random and printed. See tck/README.md, "Soak".
 */
@ExtendWith(VirtualThreadMode.class) // skips WHEEL_VT, with its reason
class SoakTest {
    /*
     * Implementation notes
     *
     * A round (SoakRound) makes 1 to 3 executors (core size 0 to 3; on the wheel, with the shared tick thread
     * or a dedicated one; random policies, keep-alive and core time-out), starts 1 to 3 producers (Producer)
     * and a controller. Producers make random public calls: schedule (Runnable, Callable), scheduleAtFixedRate,
     * scheduleWithFixedDelay, the three submit forms, execute, invokeAll and invokeAny (timed and untimed),
     * cancel(true/false) of a random task (half the time one of the 64 newest), Future.get with a timeout,
     * remove, purge, every getQueue() operation (size, isEmpty, peek, contains, iterator with and without
     * remove, both toArray, remove(Object), poll, poll(timeout), both drainTo), the getters, the three policy
     * setters (before and after shutdown), setCorePoolSize, prestart, setKeepAliveTime, allowCoreThreadTimeOut,
     * awaitTermination. Delays run from Long.MIN_VALUE to Long.MAX_VALUE in every TimeUnit (Delays; clamped
     * to 2^61 ns on Java < 24, JDK-8338765). Task bodies (SoakTask) follow a plan drawn when they are made:
     * throw at run k, cancel themselves or another task at run k, schedule a new task, purge, read or edit
     * an executor's queue (toArray, iterator, remove) from the worker thread. A third of the executors are
     * subclasses (Impl.subclass) whose hooks count and check beforeExecute / afterExecute / terminated (and
     * whose beforeExecute cancels the task it precedes at the run its plan says), half of them decorating
     * every task with a foreign RunnableScheduledFuture (ForeignTask). The controller shuts
     * each executor down (shutdown, shutdownNow, close on Java 19+, shutdown then shutdownNow, or not at all)
     * when the producers reach a random operation count. When every thread is done, or blocked in a call that
     * may never return (untimed invokeAll/invokeAny whose tasks were taken away, close), the round calls
     * shutdownNow on every executor, interrupts the producers, and waits for all threads and executors.
     *
     * The oracle. Checked on the spot:
     *   - no public call throws what STPE would not: RejectedExecutionException only from an executor that is
     *     shut down; InterruptedException only once the round interrupts; ExecutionException from invokeAny
     *     only if every task failed; TimeoutException only from timed forms;
     *   - cancel: true -> isCancelled() and isDone() at once; false -> isDone() (the future was done);
     *   - get: a normal result is the task's own (the task, the given result, or null), after exactly one
     *     run that did not throw; never for a periodic task; an ExecutionException carries the task's own
     *     planned failure;
     *   - getters: completed <= task count (read in that order), pool <= largest, active <= largest,
     *     sizes >= 0, terminated -> shut down (not largest <= core: TPE's worker replacement races with
     *     setCorePoolSize, the JDK's pool was seen one above every core size asked),
     *     getDelay of a one-shot <= its delay; queue elements are RunnableScheduledFutures of that executor;
     *     remove/contains never see another executor's task.
     * Checked by the task body at each start (flags written by the callers after their call returned, so a
     * body that sees one started after that call):
     *   - never early: start - accept >= delay for one-shots and the first run; fixed rate: the k-th run
     *     >= accept + delay + k * period (saturating); fixed delay: >= the previous run's end + period.
     *     accept is System.nanoTime() read before the scheduling call, so the executor's own trigger time is
     *     never earlier; the elapsed form never overflows, and a Long.MAX_VALUE delay never runs;
     *   - no overlap of a periodic task with itself; no run after it threw; none after it was taken out of
     *     the queue or returned by shutdownNow.
     * Recorded by the body, the canceller and beforeExecute, judged at the end (RunsAfterCancel, with tickets
     * from one counter): no body starts after a cancel of its future returned true, except in FutureTask's
     * race (the state check passed before the cancel, the body's first instruction came after it returned),
     * which is counted; a start after it is a violation where that race is impossible: the run was not due
     * when the cancel returned, or a cancel(true) left the body's thread uninterrupted, or beforeExecute for
     * the run returned after the cancel (on subclasses, beforeExecute cancels one task in 20 at a planned
     * run), or it is the second such start.
     * Checked at the end (Oracle), once every executor has terminated; each task has one fate:
     *   - rejected (never ran); or returned by shutdownNow / taken out by the caller (remove, poll, drainTo:
     *     "removed by the caller", as STPE allows) and not run since, not done unless the caller cancelled it
     *     afterwards; or perhaps taken out (the iterator's remove says nothing) and not done; or cancelled by
     *     a caller whose cancel returned true; or cancelled by the executor only as STPE would (a periodic
     *     task of a shut-down executor; a one-shot that never ran, whose scheduling call raced the first
     *     shutdown, or that a shutdown pass (shutdown, close, or a policy setter after shutdown: STPE's
     *     onShutdown) may have dropped because it read a false delayed-task policy before the task was due
     *     (SoakExecutor tracks the policy each pass acts on), or that was due before the shutdownNow that
     *     stopped the pool returned: a worker that had taken it from the queue then cancels it instead of
     *     running it, ScheduledFutureTask.run with the pool at STOP);
     *     or done normally after exactly one run with its own result, or with its own planned failure. A
     *     periodic task's future never completes normally. Anything else (not done, not returned, not taken
     *     out) is lost. A one-shot never runs twice;
     *   - execute()d commands have no future: each ran at most once. Per executor, the commands that never
     *     ran (not racing a shutdown) plus the one-shots cancelled as the pool stopped are no more than the
     *     queue elements taken out (shutdownNow, remove, poll, drainTo, iterator) that are no known future,
     *     plus one per worker that may have held one when the pool stopped: alive when the first shutdownNow
     *     began or made during it, and not running a body when it returned;
     *   - every executor terminates; then no threads, an empty queue, completed == task count >= the bodies
     *     that ran on it; a subclass saw terminated() once, as many afterExecute as beforeExecute calls
     *     (no fewer than the bodies that ran), and afterExecute never got a Throwable (every task is a future).
     *
     * The same seed drives both implementations, so each sees the same sequence of rounds and calls (each
     * producer draws from its own seeded random); the interleaving is the machine's.
     *
     * CI mode also asserts a minimum volume, so that a soak that did next to nothing (a machine stalled, a
     * round that ends at once) fails instead of passing: per second of budget, MIN_ROUNDS_PER_SECOND rounds,
     * MIN_OPS_PER_SECOND operations and MIN_RUNS_PER_SECOND body runs, about a twentieth of what 2 busy cores
     * do; and every fate the oracle judges (ran, failed, cancelled by a caller and by the executor, returned
     * by shutdownNow, taken out, rejected) seen at least once.
     */

    private static final long DEFAULT_SECONDS = 12;
    private static final long MIN_ROUNDS_PER_SECOND = 2;
    private static final long MIN_OPS_PER_SECOND = 3_000;
    private static final long MIN_RUNS_PER_SECOND = 1_500;
    private static final long SEED = seed();

    @BothImpls
    void randomOperations_everyTaskAccountedFor(Impl impl) throws Exception {
        String only = System.getProperty("soak.impls", "").trim();
        Assumptions.assumeTrue(only.isEmpty() || Arrays.asList(only.split(",")).contains(impl.name()),
                () -> "soak.impls=" + only + " leaves out " + impl);
        long opsBudget = opsBudget();
        long nanosBudget = opsBudget > 0 ? Long.MAX_VALUE
                : TimeUnit.SECONDS.toNanos(Long.getLong("soak.seconds", DEFAULT_SECONDS));
        String mode = opsBudget > 0 ? "long mode, " + opsBudget + " ops" : "CI mode, " + nanosBudget / 1_000_000_000 + " s";
        System.out.printf("[soak %s] %s, seed=%d (replay: -Dsoak.seed=%d), Java %d%n", impl, mode, SEED, SEED,
                Runtime.version().feature());
        Violations violations = new Violations(impl.name(), SEED);
        Tally tally = new Tally();
        SplittableRandom seeds = new SplittableRandom(SEED);
        long began = System.nanoTime();
        long lastReport = began;
        int round = 0;
        while (opsBudget > 0 ? tally.ops.sum() < opsBudget : System.nanoTime() - began < nanosBudget) {
            long roundSeed = seeds.nextLong();
            int roundOps = 1_000 + seeds.nextInt(4_000);
            violations.round = round;
            new SoakRound(impl, roundSeed, roundOps, tally, violations).run();
            round++;
            if (opsBudget > 0 && System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(60)) {
                lastReport = System.nanoTime();
                System.out.printf("[soak %s] progress: %d s, %s, violations=%d%n", impl,
                        (lastReport - began) / 1_000_000_000, tally.summary(), violations.count());
            }
            if (violations.count() > 0 && opsBudget == 0) {
                break; // CI: stop at the first bad round, its seed and number are in the report
            }
        }
        System.out.printf("[soak %s] seed=%d %s violations=%d in %d ms%n", impl, SEED, tally.summary(),
                violations.count(), (System.nanoTime() - began) / 1_000_000);
        assertEquals(0, violations.count(), violations::report);
        assertTrue(tally.ran.sum() > 0 && tally.runs.sum() > 0, "nothing ran: " + tally.summary());
        if (opsBudget == 0) {
            assertMinimumVolume(tally, nanosBudget / 1_000_000_000);
        }
    }

    /** CI mode: enough rounds, operations and runs for the budget, and every fate seen (see the notes). */
    private static void assertMinimumVolume(Tally tally, long seconds) {
        String summary = tally.summary();
        assertTrue(tally.rounds.sum() >= MIN_ROUNDS_PER_SECOND * seconds, () -> "too few rounds for " + seconds
                + " s (at least " + MIN_ROUNDS_PER_SECOND * seconds + "): " + summary);
        assertTrue(tally.ops.sum() >= MIN_OPS_PER_SECOND * seconds, () -> "too few operations for " + seconds
                + " s (at least " + MIN_OPS_PER_SECOND * seconds + "): " + summary);
        assertTrue(tally.runs.sum() >= MIN_RUNS_PER_SECOND * seconds, () -> "too few task runs for " + seconds
                + " s (at least " + MIN_RUNS_PER_SECOND * seconds + "): " + summary);
        long[] fates = {tally.ran.sum(), tally.failed.sum(), tally.cancelledByCaller.sum(),
                tally.cancelledByExecutor.sum(), tally.returned.sum(), tally.removed.sum(), tally.rejected.sum()};
        assertTrue(Arrays.stream(fates).allMatch(n -> n > 0), () -> "a fate never seen: " + summary);
    }

    private static long opsBudget() {
        String value = System.getProperty("soak.ops", "").trim();
        return value.isEmpty() ? 0 : (long) Double.parseDouble(value);
    }

    private static long seed() {
        String value = System.getProperty("soak.seed", "").trim();
        if (value.isEmpty() || value.equals("random")) {
            return ThreadLocalRandom.current().nextLong();
        }
        return value.startsWith("0x") ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value);
    }
}
