package io.timewheel.executor.internal.observe;

import io.timewheel.executor.internal.Log;
import io.timewheel.executor.internal.LowBound;
import io.timewheel.executor.internal.pool.WorkerPool;
import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.tick.TickThread;
import io.timewheel.executor.jfr.Jfr;

import java.util.concurrent.ForkJoinPool;

/**
 * The opt-in starvation warning of one executor (builder {@code starvationWarning}): told of every push into
 * the executor's ready queue (a ReadyQueue.PushWatch), it has the tick thread look at that queue once a task
 * could have waited the late threshold past its deadline (a TickThread.Watch), and if one has while no worker
 * was idle, says so through System.Logger, at most once per {@link #QUIET_NANOS}. pushed: the pushing thread;
 * retired and look: the tick thread only.
 */
public final class StarvationWatch implements TickThread.Watch, ReadyQueue.PushWatch {
    /*
     * Implementation notes
     *
     * Who looks, and why the tick thread. A starved executor is one whose workers are all busy: no worker is
     * free to notice that a task is overdue (a pool of one running a long task while a short fixed-rate task
     * waits: a check by the worker that starts the late task would speak only when the long one ends). The
     * tick thread is awake anyway for deadlines, sleeps until the next one, and already owns a wake-up
     * schedule; a watch adds one time to it (look's answer). On the tick thread the watch touches, of its
     * executor, the ready queue (ReadyQueue.scan, under the queue's lock, which pushers and workers hold for
     * short sections only; O(overdue entries)) and the pool's ctl (workerCount, isTerminated: no lock), and
     * commits the JFR TaskLate event when it speaks (JFR never blocks a committer). It runs no user code and
     * never blocks: the log call, which may run a logging backend's code (user code, possibly blocking I/O),
     * is handed to the common pool.
     *
     * When it looks. lookAt holds the next look; the tick thread wakes for it as for a deadline
     * (TickThread.wakeBy, and look's answer after each expiry step).
     *   - A push (a producer's straight push, or a hand-over batch: its earliest deadline d) lowers lookAt to
     *     d + threshold, never before quietUntil (it could not speak before then), and if that lowered it,
     *     wakes the tick thread by then should it sleep past it. A task cannot have waited the threshold
     *     before its deadline + threshold, and every task reaches the ready queue by a push, so no look is
     *     needed in between.
     *   - After each look it sets lookAt from what it found: while starving (an overdue task has waited the
     *     threshold and no worker is idle), quietUntil, when it may speak again; an overdue task not yet
     *     starving, the oldest one's deadline + threshold, or, if that has passed (a worker is idle and about
     *     to take it), a threshold from now; nothing overdue but an entry queued, the earliest one's deadline
     *     + threshold; nothing queued, none (never(now)): the next push sets it, so an idle watched executor
     *     costs the tick thread no wake-up. Never before quietUntil. The tick thread raises lookAt by a CAS
     *     from the value it read before the look (LowBound.raise), so a push's lowering meanwhile stays.
     * A warning needs an overdue task that has waited the threshold or more and no idle worker (ReadyQueue's
     * waiting count; ctl's worker count is the K of "all K workers busy").
     *
     * Cost. A push into a watched queue reads lookAt and quietUntil (two volatile reads), and a push that
     * brings the next look forward adds a CAS and TickThread.wakeBy (an unpark only if the tick thread sleeps
     * past it). An unwatched executor's ready queue pays a volatile read and a null check per push.
     *
     * Ownership: lookAt any thread (LowBound: lowered by pushers, raised by the tick thread); quietUntil
     * written by the tick thread, read by pushers (volatile); scan tick thread only; the rest immutable.
     */

    /** At most one warning per executor per 10 s (10^10 ns). */
    static final long QUIET_NANOS = 10_000_000_000L;

    /** The watched executor's ready queue. Immutable. */
    private final ReadyQueue ready;
    /** The watched executor's workers: its worker count, its run state. Immutable. */
    private final WorkerPool pool;
    /** The tick thread that runs this watch and serves the executor's queue. Immutable. */
    private final TickThread tick;
    /** The executor's name, for the warning and the event. Immutable. */
    private final String executorName;
    /** The executor's late threshold. Immutable. */
    private final long thresholdNanos;
    /**
     * When it looks next (see the notes). Any thread: lowered by pushers (CAS), raised by the tick thread after
     * a look (CAS from the value it read before the look, so that a pusher's lowering meanwhile stays).
     */
    private final LowBound lookAt;
    /** No warning before this time (the rate limit). Written by the tick thread, read by pushers. */
    private volatile long quietUntil;
    /** Scratch for the scan. Tick thread only. */
    private final ReadyQueue.Overdue scan = new ReadyQueue.Overdue();

    /**
     * Watches {@code ready}, whose workers are {@code pool}'s, on {@code tick}; register it with both (as a
     * PushWatch and a Watch) before the executor is used.
     */
    public StarvationWatch(ReadyQueue ready, WorkerPool pool, TickThread tick, String executorName,
                           long thresholdNanos, long now) {
        this.ready = ready;
        this.pool = pool;
        this.tick = tick;
        this.executorName = executorName;
        this.thresholdNanos = thresholdNanos;
        this.lookAt = new LowBound(never(now));
        this.quietUntil = now;
    }

    /** A look time that means none (TickThread.Watch): 2^62 ns ahead. */
    private static long never(long now) {
        return now + (Long.MAX_VALUE >> 1); // 2^62 ns: past TickThread.NEVER_AHEAD, and no difference overflows
    }

    /**
     * A push into the watched ready queue (for a batch, its earliest deadline): look by that deadline + the
     * threshold, not before quietUntil. The pushing thread, after it released the ready queue's lock.
     */
    @Override
    public void pushed(long deadline) {
        long t = deadline + thresholdNanos;
        long quiet = quietUntil;
        if (t - quiet < 0) {
            t = quiet; // it could not speak before then anyway
        }
        if (t - lookAt.get() < 0) {
            lookAt.lower(t);
            tick.wakeBy(t);
        }
    }

    /** Whether its executor has terminated (the tick thread stops watching). Tick thread. */
    @Override
    public boolean retired() {
        return pool.isTerminated();
    }

    /** Looks if it is time, warns if it must, and returns when it wants to look next (the notes). Tick thread only. */
    @Override
    public long look(long now) {
        long seen = lookAt.get();
        if (now - seen < 0) {
            return seen;
        }
        ready.scan(now, scan);
        long next;
        if (scan.count > 0 && now - scan.oldestDeadline >= thresholdNanos && scan.idleWorkers == 0) {
            if (now - quietUntil >= 0) {
                warn(now);
                quietUntil = now + QUIET_NANOS;
            }
            next = quietUntil; // starving: it may speak again then
        } else if (scan.count > 0) {
            next = scan.oldestDeadline + thresholdNanos;
            if (next - now <= 0) {
                next = now + thresholdNanos; // waited long enough, but a worker is idle: it is about to take it
            }
        } else if (scan.any) {
            next = scan.earliestDeadline + thresholdNanos;
        } else {
            next = never(now); // nothing here: the next push says when to look
        }
        if (next - quietUntil < 0) {
            next = quietUntil;
        }
        scan.oldest = null; // do not keep a task reachable between looks
        lookAt.raise(seen, next); // fails if a pusher lowered it meanwhile: its time stays
        return lookAt.get();
    }

    private void warn(long now) {
        int workers = pool.workerCount();
        long overdue = scan.count;
        long lateness = now - scan.oldestDeadline;
        if (Jfr.recording()) {
            Jfr.taskLate(executorName, scan.oldest.taskClassName(), scan.oldestDeadline, lateness,
                    Jfr.handOver(scan.oldestDeadline, scan.oldestReadyAt, lateness), false, workers, scan.idleWorkers);
        }
        String message = overdue + (overdue == 1 ? " task" : " tasks") + " of executor " + executorName
                + (overdue == 1 ? " is" : " are") + " overdue (oldest " + lateness / 1_000_000L + " ms): all " + workers
                + (workers == 1 ? " worker" : " workers") + " busy";
        try {
            ForkJoinPool.commonPool().execute(() -> Log.LOG.log(System.Logger.Level.WARNING, message));
        } catch (RuntimeException rejected) {
            // the common pool refused (it never does, unless being shut down with the JVM): no warning
        }
    }
}
