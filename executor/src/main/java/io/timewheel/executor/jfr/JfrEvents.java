package io.timewheel.executor.jfr;

import io.timewheel.executor.ExecutorStatistics;
import jdk.jfr.FlightRecorder;

/**
 * The executor's only door to jdk.jfr: every class that names a jdk.jfr type is in this package, and the
 * executor loads this class only after it has seen the jdk.jfr module in the boot layer. Any thread. Not
 * part of the API (the package is not exported, except to jdk.jfr).
 */
public final class JfrEvents {
    /*
     * Implementation notes
     *
     * Costs. Loading the first event class before JFR is initialized costs a JVM far more than the executor's
     * whole start (on JDK 17 and 25 alike), so no event class is touched until FlightRecorder.isInitialized()
     * says a recording was made (initialized), which costs a static read; Jfr asks it for its callers. From
     * then on an event is created only on the rare paths (a late task, a late wake-up of the tick thread, a
     * starvation warning, the periodic hook) and committed only if shouldCommit() says a recording wants it.
     */

    private JfrEvents() {
    }

    /** Whether JFR has been initialized in this JVM (a recording was created at some point). */
    public static boolean initialized() {
        return FlightRecorder.isInitialized();
    }

    /** Registers the periodic ExecutorStatistics hook; {@code hook} commits one event per registered source. */
    public static void addStatisticsHook(Runnable hook) {
        FlightRecorder.addPeriodicEvent(ExecutorStatisticsEvent.class, hook);
    }

    /** Whether a recording wants ExecutorStatistics events now (the hook's first question). */
    public static boolean statisticsEnabled() {
        return new ExecutorStatisticsEvent().shouldCommit();
    }

    public static void taskLate(String executor, String taskClass, long deadline, long lateness, long handOver,
                                long workerWait, boolean started, int workers, int idleWorkers) {
        TaskLateEvent e = new TaskLateEvent();
        if (e.shouldCommit()) {
            e.executor = executor;
            e.taskClass = taskClass;
            e.deadline = deadline;
            e.lateness = lateness;
            e.handOver = handOver;
            e.workerWait = workerWait;
            e.started = started;
            e.workers = workers;
            e.idleWorkers = idleWorkers;
            e.commit();
        }
    }

    public static void statistics(ExecutorStatistics s) {
        ExecutorStatisticsEvent e = new ExecutorStatisticsEvent();
        if (e.shouldCommit()) {
            e.executor = s.executorName();
            e.notYetDue = s.notYetDue();
            e.overdue = s.overdue();
            e.oldestOverdue = s.oldestOverdueNanos();
            e.workers = s.workers();
            e.idleWorkers = s.idleWorkers();
            e.tasksRun = s.tasksRun();
            e.tasksCancelled = s.tasksCancelled();
            e.tasksRejected = s.tasksRejected();
            e.tasksLate = s.tasksLate();
            e.lateThreshold = s.lateThresholdNanos();
            e.missedRuns = s.missedRuns();
            e.overruns = s.overruns();
            e.periodicFailures = s.periodicFailures();
            e.latenessP99 = ExecutorStatistics.quantileUpperBound(s.latenessHistogram(), 0.99);
            e.handOverP99 = ExecutorStatistics.quantileUpperBound(s.handOverHistogram(), 0.99);
            e.workerWaitP99 = ExecutorStatistics.quantileUpperBound(s.workerWaitHistogram(), 0.99);
            e.commit();
        }
    }

    public static void tickThreadLate(String thread, long asked, long late) {
        TickThreadLateEvent e = new TickThreadLateEvent();
        if (e.shouldCommit()) {
            e.thread = thread;
            e.asked = asked;
            e.late = late;
            e.commit();
        }
    }
}
