package io.timewheel.executor.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A task of a wheel executor started late by the executor's late threshold or more, or (started false) was
 * found still waiting that long after its deadline by the starvation watch. Committed (Jfr.taskLate) by the
 * worker that took the task, or by the tick thread for the watch, only while a recording has it enabled; its
 * fields are written by the committing thread before commit().
 */
@Name("io.timewheel.TaskLate")
@Label("Task Late")
@Category({"timewheel", "Executor"})
@Description("A scheduled task started (or, started=false, is still waiting) at least the executor's late threshold after its deadline")
@StackTrace(false)
public final class TaskLateEvent extends jdk.jfr.Event {
    @Label("Executor")
    String executor;

    @Label("Task Class")
    @Description("The class of the Runnable or Callable the task runs")
    String taskClass;

    @Label("Deadline")
    @Description("The task's deadline, in System.nanoTime() units")
    long deadline;

    @Label("Lateness")
    @Description("Start (or, for a waiting task, now) minus deadline: handOver + workerWait")
    @Timespan(Timespan.NANOSECONDS)
    long lateness;

    @Label("Hand-over")
    @Description("From the deadline until the task was in the workers' ready queue (0 if it was there before its deadline)")
    @Timespan(Timespan.NANOSECONDS)
    long handOver;

    @Label("Worker Wait")
    @Description("From then until a worker started it (or until now, for a waiting task)")
    @Timespan(Timespan.NANOSECONDS)
    long workerWait;

    @Label("Started")
    @Description("true: committed by the worker that started it; false: still waiting, found by the starvation watch")
    boolean started;

    @Label("Workers")
    @Description("The executor's pool threads")
    int workers;

    @Label("Idle Workers")
    @Description("Workers waiting for a task in the ready queue (0: all busy)")
    int idleWorkers;
}
