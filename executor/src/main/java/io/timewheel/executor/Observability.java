package io.timewheel.executor;

import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.observe.Jmx;
import io.timewheel.executor.internal.observe.StarvationWatch;
import io.timewheel.executor.internal.pool.WorkerPool;
import io.timewheel.executor.internal.pool.WorkerStats;
import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.queue.TaskQueue;
import io.timewheel.executor.internal.tick.TickThread;
import io.timewheel.executor.jfr.Jfr;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What one executor shows of itself beyond STPE's getters: its statistics ({@link ExecutorStatistics},
 * assembled when asked from the counts its queue and pool keep, and the two counts kept here), and its
 * registrations with JFR, JMX and the starvation watch, made when it is built and undone when it terminates.
 * Any thread.
 */
final class Observability implements Supplier<ExecutorStatistics> {
    /*
     * Implementation notes
     *
     * Where each number of statistics() comes from, and who writes it:
     *   notYetDue, overdue, oldest overdue, idle workers
     *                                        computed when asked: the queued count (QueuedCount.sum) and a
     *                                        scan of the ready queue's due entries and its count of waiting
     *                                        workers (ReadyQueue.scan, under its lock);
     *   workers                              the pool's ctl (RunState.workerCount, no lock);
     *   lateness and its parts, late, missed runs, overruns
     *                                        each worker's WorkerStats cell, plain writes by that worker as it
     *                                        takes a task (overruns: after a fixed-rate run), the times coming
     *                                        with the entry from the ready queue, which keeps each entry's
     *                                        hand-over time beside its deadline; summed when asked
     *                                        (WorkerPool.statistics, under the pool's mainLock);
     *   tasks run                            WorkerPool.completedTaskCount: TPE's count, plus the dispatched runs;
     *   cancelled                            QueuedCount's cancel counter: a cancel counts its task out there
     *                                        anyway, in its own cell (no extra write);
     *   rejected                             a LongAdder here, the rejection path only (never a schedule's path);
     *   periodic failures                    a LongAdder here, only on the path of a periodic run that threw
     *                                        (PeriodicTask.continueAfter through TaskQueue.periodicRunFailed).
     * Nothing here is on a schedule's, a cancel's, a worker's or the tick thread's path: the executor touches
     * this object on the rejection path, on a failed periodic run, in statistics(), when it is built and when
     * it terminates.
     *
     * Registrations. This object is the executor's statistics source (a Supplier<ExecutorStatistics>): Jfr's
     * periodic hook and Jmx's bean call get() directly and never name the executor. JFR: Jfr (the gate; its
     * notes say how jdk.jfr stays optional and free without a recording). JMX: Jmx, loaded only when the
     * builder asks for it. The starvation warning: a StarvationWatch, told of every push by the ready queue
     * (ReadyQueue.PushWatch) and run by the tick thread (TickThread.Watch). Jfr's hook may call get() from the
     * moment Jfr.register returns, so register is called last in the executor's constructor, once every field
     * get() reads is set.
     *
     * Ownership: name, lateThresholdNanos, clock, queue and pool immutable; rejected and periodicFailures any
     * thread (LongAdder); mxBeanName written once, by the constructing thread inside the executor's
     * constructor (register), read by the thread that runs terminated() (unregister), which sees it through
     * the executor's final field that holds this object (JLS 17.5).
     */

    /** The name in statistics, events, the MXBean and the warning. Immutable. */
    private final String name;
    /** A run that starts this late or later is late. Immutable. */
    private final long lateThresholdNanos;
    /** The executor's time source. Immutable. */
    private final NanoClock clock;
    /** The executor's queue: its count, its ready queue. Immutable. */
    private final TaskQueue queue;
    /** The executor's workers: their counts. Immutable. */
    private final WorkerPool pool;
    /** Tasks handed to the rejected-execution handler. Any thread (the rejection path only). */
    final LongAdder rejected = new LongAdder();
    /** Periodic runs that threw. Any thread (the path of a run that threw only). */
    final LongAdder periodicFailures = new LongAdder();
    /** The registered MXBean's name (a javax.management.ObjectName), or null. Written once, in register (notes). */
    private Object mxBeanName;

    Observability(String name, long lateThresholdNanos, NanoClock clock, TaskQueue queue, WorkerPool pool) {
        this.name = name;
        this.lateThresholdNanos = lateThresholdNanos;
        this.clock = clock;
        this.queue = queue;
        this.pool = pool;
    }

    /**
     * Registers this executor's statistics with JFR, with JMX if {@code jmx}, and, if {@code starvationWarning},
     * a starvation watch on its ready queue and on {@code tick}. Once, at the end of the executor's constructor.
     */
    void register(boolean jmx, boolean starvationWarning, TickThread tick) {
        Jfr.register(this);
        this.mxBeanName = jmx ? Jmx.register(name, this) : null;
        if (starvationWarning) {
            StarvationWatch watch = new StarvationWatch(queue.ready, pool, tick, name, lateThresholdNanos,
                    clock.nanoTime());
            queue.ready.watch(watch);
            tick.watch(watch);
        }
    }

    /** Undoes register's JFR and JMX registrations. Once, when the executor terminates (after terminated()). */
    void unregister() {
        Jfr.unregister(this);
        if (mxBeanName != null) {
            Jmx.unregister(mxBeanName);
        }
    }

    /** The executor's statistics now (WheelScheduledExecutorService.statistics() says what it costs). */
    @Override
    public ExecutorStatistics get() {
        long now = clock.nanoTime();
        ReadyQueue.Overdue scan = new ReadyQueue.Overdue();
        queue.ready.scan(now, scan);
        long queued = queue.size();
        long[] sum = pool.statistics();
        long overdue = scan.count;
        return new ExecutorStatistics(name,
                Math.max(0L, queued - overdue),
                overdue,
                overdue > 0 ? now - scan.oldestDeadline : 0L,
                pool.workerCount(),
                scan.idleWorkers,
                pool.completedTaskCount(),
                queue.cancelledCount(),
                rejected.sum(),
                sum[WorkerStats.LATE],
                lateThresholdNanos,
                sum[WorkerStats.MISSED],
                sum[WorkerStats.OVERRUNS],
                periodicFailures.sum(),
                Arrays.copyOfRange(sum, WorkerStats.LATENESS, WorkerStats.LATENESS + WorkerStats.BUCKETS),
                Arrays.copyOfRange(sum, WorkerStats.HAND_OVER, WorkerStats.HAND_OVER + WorkerStats.BUCKETS),
                Arrays.copyOfRange(sum, WorkerStats.WORKER_WAIT, WorkerStats.WORKER_WAIT + WorkerStats.BUCKETS));
    }
}
