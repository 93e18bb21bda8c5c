package io.timewheel.executor;

/**
 * The management interface of a {@link WheelScheduledExecutorService} that was built with
 * {@code builder().jmx(true)} (or created by the agent with its {@code jmx} option): its
 * {@link ExecutorStatistics}, one attribute each, read fresh on every call. Object name:
 * {@code io.timewheel:type=WheelScheduledExecutorService,name="<executor name>"}. Any thread.
 */
public interface WheelExecutorMXBean {
    /** {@return the executor's name} */
    String getName();

    /** {@return how many queued tasks have their deadline still ahead} See {@link ExecutorStatistics#notYetDue()}. */
    long getNotYetDue();

    /** {@return how many queued tasks are overdue} See {@link ExecutorStatistics#overdue()}. */
    long getOverdue();

    /**
     * {@return how long ago the deadline of the oldest overdue task passed, in nanoseconds} See
     * {@link ExecutorStatistics#oldestOverdueNanos()}.
     */
    long getOldestOverdueNanos();

    /** {@return how many threads the pool has} See {@link ExecutorStatistics#workers()}. */
    int getWorkers();

    /** {@return how many of the pool's threads are idle} See {@link ExecutorStatistics#idleWorkers()}. */
    int getIdleWorkers();

    /** {@return the task runs the workers completed} See {@link ExecutorStatistics#tasksRun()}. */
    long getTasksRun();

    /** {@return the tasks cancelled while queued} See {@link ExecutorStatistics#tasksCancelled()}. */
    long getTasksCancelled();

    /** {@return the tasks handed to the rejected-execution handler} See {@link ExecutorStatistics#tasksRejected()}. */
    long getTasksRejected();

    /**
     * {@return the runs that started the lateness threshold or more after their deadline} See
     * {@link ExecutorStatistics#tasksLate()}.
     */
    long getTasksLate();

    /** {@return the lateness threshold, in nanoseconds} See {@link ExecutorStatistics#lateThresholdNanos()}. */
    long getLateThresholdNanos();

    /** {@return how many fixed-rate runs were missed} See {@link ExecutorStatistics#missedRuns()}. */
    long getMissedRuns();

    /** {@return the fixed-rate runs that took longer than the period} See {@link ExecutorStatistics#overruns()}. */
    long getOverruns();

    /** {@return how many periodic runs threw} See {@link ExecutorStatistics#periodicFailures()}. */
    long getPeriodicFailures();

    /** {@return the lateness histogram} See {@link ExecutorStatistics#latenessHistogram()}. */
    long[] getLatenessHistogram();

    /** {@return the histogram of the hand-over part of lateness} See {@link ExecutorStatistics#handOverHistogram()}. */
    long[] getHandOverHistogram();

    /**
     * {@return the histogram of the worker-wait part of lateness} See
     * {@link ExecutorStatistics#workerWaitHistogram()}.
     */
    long[] getWorkerWaitHistogram();

    /**
     * {@return an upper bound of the 99th percentile of lateness since the start, in nanoseconds} See
     * {@link ExecutorStatistics#quantileUpperBound}.
     */
    long getLatenessP99UpperBoundNanos();
}
