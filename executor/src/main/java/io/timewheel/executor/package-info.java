/*
 * Implementation notes: the map of this package
 *
 * The public API is WheelScheduledExecutorService (with its nested Builder), ExecutorStatistics,
 * PeriodicPolicy and WheelExecutorMXBean; every other class here is package-private, and each starts with
 * its own implementation notes (what it owns, which threads touch it).
 *
 * The JDK's three roles, and the classes that share them (one package; package-private access holds it
 * together):
 *   WheelScheduledExecutorService
 *                   STPE's role: constructors, schedule*, execute and submit, delayedExecute,
 *                   reExecutePeriodic, the shutdown policies (onShutdown), remove, purge, getQueue, and
 *                   the configuration setters, which store and then tell the pool; and the answers to
 *                   what the two below declare (its private Pool and Queue). With it:
 *     ExecutorOptions   the settings its public Builder writes, their defaults and checks;
 *     Observability     statistics(), assembled from the counts below, and the JFR (Jfr), JMX (Jmx) and
 *                       starvation-warning (StarvationWatch) registrations.
 *   WorkerPool      ThreadPoolExecutor's role: workers, getTask, termination, the counters. With it:
 *     RunState      its superclass: ctl, the run state and worker count in one word, and its transitions;
 *     Worker        one pool thread, and the lock it holds while it runs a task;
 *     WorkerStats   one worker's punctuality counts, written by that worker alone.
 *   TaskQueue       DelayedWorkQueue's role: the queued count, where each task waits (the tick thread's
 *                   wheel, or the ready queue), remove, contains, collect. It holds:
 *     ReadyQueue    the near term, tasks due within HORIZON_NANOS (134 ms), sorted under a private lock;
 *                   the workers make the last, exact wait there, as on STPE;
 *     QueuedCount   the striped count of queued tasks (size, and the "empty" termination decides on);
 *     Sequencer     (static methods over counters TaskQueue holds) the numbers that break ties between
 *                   equal deadlines.
 *   TickThread      the thread that owns the wheels of the queues it serves (one for the JVM by default):
 *                   it files the tasks and runs the commands that producers offer through its
 *                   StripedInbox, hands due tasks to each queue's ReadyQueue, and touches nothing else of
 *                   an executor. ParkGate decides when it sleeps and when a producer wakes it;
 *     QueueWheel    its room for one queue: the wheel and its side of the queue's protocol;
 *     HandOverBatch the due tasks it gathers outside the ready queue's lock and splices in;
 *     Pacer         its yields during a long stint of work, so that a worker sharing its CPU gets it back;
 *     Snapshot      the command it answers with a queue's tasks at one instant (getQueue, shutdownNow).
 *   QueueEntry      what a queue holds (the wheel node): ScheduledTask, one object that is the future,
 *                   the runnable and the entry of a one-shot task, and the base of PeriodicTask; and
 *                   DecoratedEntry, the holder of a task that decorateTask replaced by another class.
 *   RunDispatcher   only with the builder's virtualThreadPerRun or runOn: where the workers hand due runs
 *                   instead of running them (a new virtual thread each, or an Executor), and the counts the
 *                   pool keeps of those runs (WorkerPool's notes, "Dispatch").
 *   QueueView       what getQueue() returns: a BlockingQueue view of the TaskQueue.
 *   NanoClock       the time source (System.nanoTime, or a manual clock in tests).
 *   Log             the package's logger, looked up by the first report (never at construction).
 * The wheel package holds what knows nothing of executors: TimerWheel (single-threaded, clock-free; its
 * current slot and expired entries wait in a SortedRun, sorted with KeySort), TimerEntry (its node, which QueueEntry extends) and
 * StripedInbox (the lock-free hand-off from any thread to the wheel's owner).
 * Data flows one way: WheelScheduledExecutorService -> TaskQueue -> (TickThread -> wheel ->) ReadyQueue ->
 * WorkerPool's workers, which run the task and, for a periodic one, come back to the executor through the
 * task's queue (reExecutePeriodic).
 */
/**
 * A drop-in {@link java.util.concurrent.ScheduledThreadPoolExecutor} on a hashed hierarchical timing wheel:
 * {@link io.timewheel.executor.WheelScheduledExecutorService}, with its builder of wheel options, its
 * {@link io.timewheel.executor.ExecutorStatistics}, the {@link io.timewheel.executor.PeriodicPolicy} of its
 * periodic tasks and its {@link io.timewheel.executor.WheelExecutorMXBean}.
 */
package io.timewheel.executor;
