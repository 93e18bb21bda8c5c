/*
 * Implementation notes: the rooms
 *
 * The JDK splits a scheduled executor into three roles: STPE (scheduling, the shutdown policies, the hooks),
 * ThreadPoolExecutor (the workers and the run state) and DelayedWorkQueue (the queue, its lock private).
 * timewheel keeps those roles and adds the one STPE does not have, the tick thread that owns the wheels. Each
 * room is a package; only this one is exported (module-info), and each class starts with its own notes.
 *
 *   io.timewheel.executor                   STPE's role: WheelScheduledExecutorService, its Builder's settings
 *                                           (ExecutorOptions), getQueue()'s view (QueueView) and statistics()
 *                                           with its registrations (Observability); the public value types.
 *   io.timewheel.executor.internal.observe  what watches an executor from outside its hot paths: the
 *                                           starvation warning (StarvationWatch, run by the tick thread) and
 *                                           the MXBean registrar (Jmx).
 *   io.timewheel.executor.internal.pool     ThreadPoolExecutor's role: WorkerPool, its Workers, the run state
 *                                           (RunState), each worker's counts (WorkerStats), and where runs go
 *                                           when they leave the pool's threads (RunDispatcher).
 *   io.timewheel.executor.internal.tick     the tick thread (TickThread), its sleep (ParkGate), the queue
 *                                           snapshots it answers (Snapshot), and the tests' seam (TickProbe).
 *   io.timewheel.executor.internal.queue    DelayedWorkQueue's role: TaskQueue and what it holds: the entries
 *                                           (QueueEntry; TaskEntry knows its queue; ScheduledTask,
 *                                           PeriodicTask, DecoratedEntry), the near term the workers own
 *                                           (ReadyQueue), the tick thread's room for the far term
 *                                           (QueueWheel, HandOverBatch) and the bounds producers and the tick
 *                                           thread share (HandOffBounds).
 *   io.timewheel.executor.internal          what every room uses: NanoClock, Log, LowBound, Pacer, ColdStart.
 *   io.timewheel.executor.jfr               the JFR events and the gate to them (Jfr), exported to jdk.jfr only.
 *   io.timewheel.wheel                      what knows nothing of executors: TimerWheel, TimerEntry,
 *                                           StripedInbox (exported, usable on their own).
 *
 * Naming runs down that list, never up: a room declares what it needs from above and the room above
 * answers, as ThreadPoolExecutor declares its hooks. WorkerPool and TaskQueue declare abstract methods that
 * the executor's private subclasses answer; the queue reaches the thread that owns its wheel through
 * WheelOwner and its workers wake that thread through ReadyQueue.Waker, both of which TickThread implements;
 * the tick thread runs a watch through TickThread.Watch, which StarvationWatch implements; observers get a
 * name and a statistics source, not the executor. The one reference that runs up is an entry's to its queue
 * (TaskEntry.queue): a cancel, a run and a re-arm ask the queue, never the executor.
 *
 * Data flows one way: caller -> TaskQueue -> (tick thread: inbox -> wheel ->) ReadyQueue -> worker, which
 * runs the task and, for a periodic one, hands it back to the queue (reExecutePeriodic). The only signal that
 * runs against the flow is a worker about to block waking the tick thread early for a hand-over it deferred
 * (ReadyQueue.Waker), so that the hand-over takes the CPU the worker leaves.
 */
/**
 * A drop-in {@link java.util.concurrent.ScheduledThreadPoolExecutor} on a hashed hierarchical timing wheel:
 * {@link io.timewheel.executor.WheelScheduledExecutorService}, with its builder of wheel options, its
 * {@link io.timewheel.executor.ExecutorStatistics}, the {@link io.timewheel.executor.PeriodicPolicy} of its
 * periodic tasks and its {@link io.timewheel.executor.WheelExecutorMXBean}.
 */
package io.timewheel.executor;
