package io.timewheel.executor;

/**
 * The management interface of a {@link WheelScheduledExecutorService} that was built with
 * {@code builder().jmx(true)} (or created by the agent with its {@code jmx} option): its
 * {@link ExecutorStatistics}, one attribute each, read fresh on every call. Object name:
 * {@code io.timewheel:type=WheelScheduledExecutorService,name="<executor name>"}. Any thread.
 */
public interface WheelExecutorMXBean {
    /** The executor's name. */
    String getName();

    /** See {@link ExecutorStatistics#notYetDue()}. */
    long getNotYetDue();

    /** See {@link ExecutorStatistics#overdue()}. */
    long getOverdue();

    /** See {@link ExecutorStatistics#oldestOverdueNanos()}. */
    long getOldestOverdueNanos();

    /** See {@link ExecutorStatistics#workers()}. */
    int getWorkers();

    /** See {@link ExecutorStatistics#idleWorkers()}. */
    int getIdleWorkers();

    /** See {@link ExecutorStatistics#tasksRun()}. */
    long getTasksRun();

    /** See {@link ExecutorStatistics#tasksCancelled()}. */
    long getTasksCancelled();

    /** See {@link ExecutorStatistics#tasksRejected()}. */
    long getTasksRejected();

    /** See {@link ExecutorStatistics#tasksLate()}. */
    long getTasksLate();

    /** See {@link ExecutorStatistics#lateThresholdNanos()}. */
    long getLateThresholdNanos();

    /** See {@link ExecutorStatistics#missedRuns()}. */
    long getMissedRuns();

    /** See {@link ExecutorStatistics#overruns()}. */
    long getOverruns();

    /** See {@link ExecutorStatistics#periodicFailures()}. */
    long getPeriodicFailures();

    /** See {@link ExecutorStatistics#latenessHistogram()}. */
    long[] getLatenessHistogram();

    /** See {@link ExecutorStatistics#handOverHistogram()}. */
    long[] getHandOverHistogram();

    /** See {@link ExecutorStatistics#workerWaitHistogram()}. */
    long[] getWorkerWaitHistogram();

    /** An upper bound of the 99th percentile of lateness since the start ({@link ExecutorStatistics#quantileUpperBound}). */
    long getLatenessP99UpperBoundNanos();
}
