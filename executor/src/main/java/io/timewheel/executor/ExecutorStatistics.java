package io.timewheel.executor;

/**
 * What a {@link WheelScheduledExecutorService} can say about its own punctuality, at one call of
 * {@link WheelScheduledExecutorService#statistics()}: how many tasks wait and how many of them are overdue,
 * and, over its life so far, how late its tasks started and why. Immutable; any thread.
 *
 * <p>Lateness is the time from a task's deadline to its start (a worker taking it off the queue; a task never
 * starts early, so it is never negative), in two parts that add up to it:
 * <ul>
 *   <li><b>hand-over</b>: from the deadline until the task was in the workers' ready queue, where a worker
 *       could take it; 0 when it was handed over before its deadline (the usual case: the tick thread hands
 *       tasks over at least 125.8 ms ahead: the workers' near term of 2^27 ns = 134 ms, less two hand-over strides
 *       of 2^22 ns = 4.2 ms). A late hand-over means the tick thread, or for a task due at once the producer,
 *       was late.
 *   <li><b>worker wait</b>: from then until a worker took it. A long worker wait means every worker was busy
 *       (or the pool had no thread to run it).
 * </ul>
 * The three histograms count started tasks (one count per run, periodic runs included) in log2 buckets of
 * nanoseconds: bucket 0 holds 0 ns, bucket {@code i} (1 to 63) holds {@code [2^(i-1), 2^i)} ns
 * ({@link #bucketOf}, {@link #bucketLowerBound}). Runs of tasks taken through {@code getQueue()} or run
 * directly by the caller are not counted.
 */
public final class ExecutorStatistics {
    /** Buckets in each histogram: one for 0 ns, one per power of two up to 2^63 ns. */
    public static final int BUCKETS = 64;

    // Every field is immutable. The histograms' arrays are made for this object alone (Observability.get
    // copies them out of the pool's sum) and never handed out: their getters return clones
    private final String executorName;
    private final long notYetDue;
    private final long overdue;
    private final long oldestOverdueNanos;
    private final int workers;
    private final int idleWorkers;
    private final long tasksRun;
    private final long tasksCancelled;
    private final long tasksRejected;
    private final long tasksLate;
    private final long lateThresholdNanos;
    private final long missedRuns;
    private final long overruns;
    private final long periodicFailures;
    private final long[] lateness;
    private final long[] handOver;
    private final long[] workerWait;

    ExecutorStatistics(String executorName, long notYetDue, long overdue, long oldestOverdueNanos, int workers,
                       int idleWorkers, long tasksRun, long tasksCancelled, long tasksRejected, long tasksLate,
                       long lateThresholdNanos, long missedRuns, long overruns, long periodicFailures, long[] lateness, long[] handOver,
                       long[] workerWait) {
        this.executorName = executorName;
        this.notYetDue = notYetDue;
        this.overdue = overdue;
        this.oldestOverdueNanos = oldestOverdueNanos;
        this.workers = workers;
        this.idleWorkers = idleWorkers;
        this.tasksRun = tasksRun;
        this.tasksCancelled = tasksCancelled;
        this.tasksRejected = tasksRejected;
        this.tasksLate = tasksLate;
        this.lateThresholdNanos = lateThresholdNanos;
        this.missedRuns = missedRuns;
        this.overruns = overruns;
        this.periodicFailures = periodicFailures;
        this.lateness = lateness;
        this.handOver = handOver;
        this.workerWait = workerWait;
    }

    /** {@return the executor's name (the builder's {@code name}, else its class name and identity hash)} */
    public String executorName() {
        return executorName;
    }

    /** {@return how many queued tasks have their deadline still ahead} */
    public long notYetDue() {
        return notYetDue;
    }

    /**
     * Queued tasks whose deadline has come (at or before the call's clock reading) and that no worker has
     * started: those handed over to the workers' ready queue. A task the tick thread still holds past its
     * deadline (the tick thread itself is late: see the {@code TickThreadLate} JFR event) counts as not yet
     * due until it is handed over.
     *
     * @return how many queued tasks are overdue
     */
    public long overdue() {
        return overdue;
    }

    /**
     * {@return how long ago the deadline of the oldest overdue task passed, in nanoseconds; 0 when none is
     * overdue}
     */
    public long oldestOverdueNanos() {
        return oldestOverdueNanos;
    }

    /** {@return how many threads the pool had at the call} */
    public int workers() {
        return workers;
    }

    /** {@return how many of the pool's threads waited in the ready queue for a task (idle) at the call} */
    public int idleWorkers() {
        return idleWorkers;
    }

    /** {@return the task runs the workers completed (TPE's completed task count: periodic runs each count)} */
    public long tasksRun() {
        return tasksRun;
    }

    /** {@return the tasks cancelled through their future while queued (they never ran)} */
    public long tasksCancelled() {
        return tasksCancelled;
    }

    /** {@return the tasks handed to the rejected-execution handler} */
    public long tasksRejected() {
        return tasksRejected;
    }

    /** {@return the runs that started {@link #lateThresholdNanos()} or more after their deadline} */
    public long tasksLate() {
        return tasksLate;
    }

    /** {@return the executor's lateness threshold (builder {@code lateThreshold}), in nanoseconds} */
    public long lateThresholdNanos() {
        return lateThresholdNanos;
    }

    /**
     * Fixed-rate runs that started a period or more after their deadline, i.e. after the next period had
     * begun (STPE then runs the next one at once: runs bunch up, none is skipped).
     *
     * @return how many fixed-rate runs were missed
     */
    public long missedRuns() {
        return missedRuns;
    }

    /** {@return the fixed-rate runs that took longer than the period (from start to end of the run)} */
    public long overruns() {
        return overruns;
    }

    /**
     * Periodic runs that threw, whatever their task's failure policy ({@link PeriodicPolicy}): under STOP each
     * stopped its task, under REPORT_AND_CONTINUE each was reported to the handler and the task went on.
     *
     * @return how many periodic runs threw
     */
    public long periodicFailures() {
        return periodicFailures;
    }

    /** {@return the lateness histogram (start minus deadline), a copy: {@link #BUCKETS} counts} */
    public long[] latenessHistogram() {
        return lateness.clone();
    }

    /** {@return the histogram of the hand-over part of each run's lateness, a copy: {@link #BUCKETS} counts} */
    public long[] handOverHistogram() {
        return handOver.clone();
    }

    /** {@return the histogram of the worker-wait part of each run's lateness, a copy: {@link #BUCKETS} counts} */
    public long[] workerWaitHistogram() {
        return workerWait.clone();
    }

    /**
     * {@return the bucket of a non-negative number of nanoseconds: 0 for 0, else {@code 64 -
     * numberOfLeadingZeros(nanos)}}
     *
     * @param nanos a duration in nanoseconds, not negative
     */
    public static int bucketOf(long nanos) {
        // the workers count with their own copy of this line (WorkerStats.bucketOf): calling this one would
        // load this class on a fresh JVM's first run, between a deadline and the run
        return nanos <= 0 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(nanos);
    }

    /**
     * {@return the least value of a bucket, in nanoseconds: 0 for bucket 0, else {@code 2^(bucket-1)}}
     *
     * @param bucket a bucket index, 0 to {@code BUCKETS - 1}
     */
    public static long bucketLowerBound(int bucket) {
        return bucket == 0 ? 0L : 1L << (bucket - 1);
    }

    /**
     * An upper bound of the {@code fraction} quantile (0 to 1) of a histogram: the upper end of the bucket it
     * falls in ({@code 2^bucket - 1} ns), or 0 for an empty histogram.
     *
     * @param histogram one of this class's histograms (counts per bucket)
     * @param fraction  the quantile, from 0 to 1 ({@code 0.99} for the p99)
     * @return the upper bound, in nanoseconds
     */
    public static long quantileUpperBound(long[] histogram, double fraction) {
        long total = 0;
        for (long c : histogram) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(fraction * total);
        long seen = 0;
        for (int i = 0; i < histogram.length; i++) {
            seen += histogram[i];
            if (seen >= Math.max(1, rank)) {
                return i == 0 ? 0 : (i == 63 ? Long.MAX_VALUE : (1L << i) - 1);
            }
        }
        return Long.MAX_VALUE;
    }

    @Override
    public String toString() {
        return "ExecutorStatistics[" + executorName
                + ", notYetDue=" + notYetDue
                + ", overdue=" + overdue
                + ", oldestOverdueNanos=" + oldestOverdueNanos
                + ", workers=" + workers
                + ", idleWorkers=" + idleWorkers
                + ", tasksRun=" + tasksRun
                + ", tasksCancelled=" + tasksCancelled
                + ", tasksRejected=" + tasksRejected
                + ", tasksLate=" + tasksLate + " (>= " + lateThresholdNanos + " ns)"
                + ", missedRuns=" + missedRuns
                + ", overruns=" + overruns
                + ", periodicFailures=" + periodicFailures
                + ", lateness=" + nonZero(lateness)
                + ", handOver=" + nonZero(handOver)
                + ", workerWait=" + nonZero(workerWait)
                + "]";
    }

    /** The non-empty buckets as {bucket:count, ...}. */
    private static String nonZero(long[] histogram) {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < histogram.length; i++) {
            if (histogram[i] != 0) {
                if (b.length() > 1) {
                    b.append(", ");
                }
                b.append(i).append(':').append(histogram[i]);
            }
        }
        return b.append('}').toString();
    }
}
