package io.timewheel.executor.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A wheel executor's statistics (ExecutorStatistics), once per period (1 s unless a recording's settings say
 * otherwise) per registered executor while a recording has it enabled: committed by Jfr's periodic hook, on
 * JFR's periodic thread, which writes its fields before commit().
 */
@Name("io.timewheel.ExecutorStatistics")
@Label("Executor Statistics")
@Category({"timewheel", "Executor"})
@Description("Queued, overdue and late tasks of a wheel executor; counts since it started")
@StackTrace(false)
@Period("1 s")
public final class ExecutorStatisticsEvent extends jdk.jfr.Event {
    @Label("Executor")
    String executor;

    @Label("Not Yet Due")
    long notYetDue;

    @Label("Overdue")
    @Description("Queued tasks whose deadline has passed and that no worker has started")
    long overdue;

    @Label("Oldest Overdue")
    @Timespan(Timespan.NANOSECONDS)
    long oldestOverdue;

    @Label("Workers")
    int workers;

    @Label("Idle Workers")
    int idleWorkers;

    @Label("Tasks Run")
    long tasksRun;

    @Label("Tasks Cancelled")
    long tasksCancelled;

    @Label("Tasks Rejected")
    long tasksRejected;

    @Label("Tasks Late")
    @Description("Runs that started the late threshold or more after their deadline")
    long tasksLate;

    @Label("Late Threshold")
    @Timespan(Timespan.NANOSECONDS)
    long lateThreshold;

    @Label("Missed Runs")
    @Description("Fixed-rate runs that started a period or more late")
    long missedRuns;

    @Label("Overruns")
    @Description("Fixed-rate runs longer than their period")
    long overruns;

    @Label("Periodic Failures")
    @Description("Periodic runs that threw, whatever the task's failure policy")
    long periodicFailures;

    @Label("Lateness p99 (upper bound)")
    @Description("The upper end of the log2 bucket holding the 99th percentile of lateness since the start")
    @Timespan(Timespan.NANOSECONDS)
    long latenessP99;

    @Label("Hand-over p99 (upper bound)")
    @Timespan(Timespan.NANOSECONDS)
    long handOverP99;

    @Label("Worker Wait p99 (upper bound)")
    @Timespan(Timespan.NANOSECONDS)
    long workerWaitP99;
}
