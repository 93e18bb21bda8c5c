package io.timewheel.executor;

import io.timewheel.wheel.TimerWheel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.function.Consumer;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * The queue of one {@link WheelScheduledExecutorService}: STPE's DelayedWorkQueue role. It counts the
 * queued tasks, sends each where it waits (the tick thread for the far term, the ready queue for the near
 * term), owns the executor's wheel on the tick thread's behalf, and answers remove, contains and collect.
 * Producer-side methods: any thread. Methods named {@code ...OnTick}: the tick thread only.
 */
final class TaskQueue {
    /*
     * Implementation notes
     *
     * Where a queued entry waits (data flows one way):
     *
     *   executor --add--> TaskQueue --(deadline - now > HORIZON)--> tick inbox --> wheel --(due within HORIZON)--+
     *                        |                                                                                    v
     *                        +-----(due within HORIZON, and before every deadline the tick thread holds)-----> ready --> workers
     *
     *   inbox   the tick thread's lock-free MPSC queue (TickThread): new entries and Commands about entries.
     *   wheel   this queue's TimerWheel, created, read and written by the tick thread only (field wheel).
     *   ready   the ReadyQueue: the near term, entries due within ReadyQueue.HORIZON_NANOS (8.39 ms), a heap
     *           under its own private lock; workers wait there for the exact deadline, as on STPE. The tick
     *           thread hands entries over in batches, at least TickThread.MARGIN_NANOS before their deadlines.
     *
     * Whether an entry is still queued is one atomic fact owned by the entry (QueueEntry: isQueued, tryTake,
     * tryRemove), wherever it waits; a place may keep an entry that left the queue until it next looks at it.
     *
     * count (any thread, QueuedCount): the number of queued entries. Whoever puts an entry into the queue
     * counts it first; whoever's CAS takes it out (a worker's tryTake, a tryRemove, a cancel) uncounts it.
     * Its isEmpty() is what "the queue is empty" means for termination and for the workers' exit rule
     * (linearizable); size() is its sum(). It is striped, so producer threads do not share its cache line.
     *
     * earliest (any thread: producers lower it by CAS, the tick thread raises it by CAS): a time at or
     * before the deadline of every entry of this queue that the tick thread holds (inbox or wheel) and has
     * not handed over. An entry due within the horizon skips the wheel only if its deadline is strictly before
     * earliest, so it never overtakes an earlier or equal one that a late tick thread still holds (deadline
     * order, and FIFO for equal deadlines). Protocol:
     *   producer      offer to the inbox, then lowerEarliest(deadline)
     *   tick thread   earliestSeen = earliest before it drains the inbox (beginDrainOnTick); after the
     *                 hand-over, CAS earliest from earliestSeen to the wheel's next deadline
     *                 (publishEarliestOnTick): if a producer lowered it meanwhile, the CAS fails and the lower
     *                 value stays, which is conservative.
     *
     * An entry cancelled or removed while the tick thread has it filed in the wheel is unlinked by an
     * Unlink command (so its memory goes at once); one that was still in the inbox is dropped when the tick
     * thread reads it (its tryFile fails).
     */

    final WheelScheduledExecutorService executor;
    final NanoClock clock;
    private final TickThread tick;
    private final long tickNanos;
    private final ReadyQueue ready;

    /** Queued entries. Any thread; see the notes. */
    private final QueuedCount count = new QueuedCount();
    /** See the notes. Any thread: lowered by producers, raised by the tick thread, both by CAS. */
    private volatile long earliest;
    /** The value of earliest the tick thread read before its last drain. Tick thread only. */
    private long earliestSeen;
    /** The executor has terminated. Written once (false to true) by the terminating thread; read by the tick thread. */
    private volatile boolean terminated;
    /** This queue's wheel, or null while the tick thread has none for it. Tick thread only. */
    private TimerWheel<QueueEntry> wheel;

    TaskQueue(WheelScheduledExecutorService executor, NanoClock clock, TickThread tick, long tickNanos) {
        this.executor = executor;
        this.clock = clock;
        this.tick = tick;
        this.tickNanos = tickNanos;
        this.ready = new ReadyQueue(clock);
        this.earliest = clock.nanoTime() + Long.MAX_VALUE;
    }

    TickThread tickThread() {
        return tick;
    }

    // ---------------------------------------------------------------------------------------------
    // Producers: any thread

    /** Puts one of our own tasks into the queue (IDLE to QUEUED), and sends it where it waits. */
    void add(ScheduledTask<?> task, long now) {
        count.increment();
        task.markQueued();
        dispatch(task, now);
    }

    /** Puts a task that decorateTask replaced by a foreign class into the queue, through a holder entry. */
    QueueEntry addDecorated(RunnableScheduledFuture<?> task, long now) {
        count.increment();
        QueueEntry entry = new DecoratedEntry(this, task, deadlineOf(task));
        dispatch(entry, now);
        return entry;
    }

    /**
     * Puts a periodic task back after a run (RUNNING to QUEUED). {@code viaWorker}: a worker took it off
     * the queue, so it is in no wheel and the ready queue no longer holds it; otherwise (someone ran it
     * directly) the tick thread may still hold a stale entry, so it re-files it.
     *
     * @return false if it was cancelled while running (nothing was queued)
     */
    boolean readd(PeriodicTask<?> task, boolean viaWorker) {
        count.increment();
        if (!task.rearm(true)) {
            count.decrement();
            return false;
        }
        if (viaWorker) {
            dispatch(task, clock.nanoTime());
        } else {
            tick.command(new TickThread.Refile(task));
            lowerEarliest(task.nextDeadline());
        }
        return true;
    }

    /** As {@link #readd}, for a decorated periodic task: its run leaves it IDLE and a new holder is queued. */
    QueueEntry readdDecorated(PeriodicTask<?> task, RunnableScheduledFuture<?> decorated) {
        count.increment();
        if (!task.rearm(false)) {
            count.decrement();
            return null;
        }
        QueueEntry entry = new DecoratedEntry(this, decorated, deadlineOf(decorated));
        dispatch(entry, clock.nanoTime());
        return entry;
    }

    /** Adds a scheduled future offered through {@code getQueue()}, as STPE's queue would. */
    void offer(RunnableScheduledFuture<?> task) {
        addDecorated(task, clock.nanoTime());
    }

    private long deadlineOf(RunnableScheduledFuture<?> task) {
        return executor.triggerTime(Math.max(0L, task.getDelay(NANOSECONDS)));
    }

    /**
     * Sends a queued entry where it waits: the ready queue if due within the horizon at {@code now} (the
     * workers make the last, exact wait), else the tick thread.
     */
    private void dispatch(QueueEntry entry, long now) {
        long deadline = entry.nextDeadline();
        if (deadline - now <= ReadyQueue.HORIZON_NANOS && deadline - earliest < 0) {
            entry.refreshDeadline();
            ready.push(entry);
        } else {
            // Later than the horizon, or the tick thread still holds an earlier or equal deadline of ours
            // (it is running late): it must hand that one over first, so this one goes through it too.
            tick.schedule(entry);
            lowerEarliest(deadline);
        }
    }

    /** After an entry was offered to the tick thread: keeps earliest a lower bound. Any thread. */
    private void lowerEarliest(long deadline) {
        for (long seen = earliest; deadline - seen < 0; seen = earliest) {
            if (EARLIEST.compareAndSet(this, seen, deadline)) {
                return;
            }
        }
    }

    /** Counts an entry out of the queue. Called by whoever's CAS took it out of the queue. */
    void dequeued() {
        count.decrement();
    }

    /** An entry that the tick thread had filed left the queue: drop it from the wheel now. */
    void unlink(QueueEntry entry) {
        tick.command(new TickThread.Unlink(entry));
    }

    /** Takes an entry out of the queue without running it; true if this call did. */
    boolean remove(QueueEntry entry) {
        int removed = entry.tryRemove();
        if (removed == QueueEntry.REMOVED_FILED) {
            unlink(entry);
        }
        return removed != QueueEntry.NOT_REMOVED;
    }

    /** STPE's queue semantics for remove(Object): our own task by identity, anything else by equals. */
    boolean remove(Object o) {
        if (o == null) {
            return false;
        }
        if (o instanceof QueueEntry && ((QueueEntry) o).queue == this) {
            return remove((QueueEntry) o);
        }
        for (QueueEntry entry : collect(false)) {
            if (entry instanceof DecoratedEntry && o.equals(entry.task()) && remove(entry)) {
                return true;
            }
        }
        return false;
    }

    boolean contains(Object o) {
        if (o instanceof QueueEntry && ((QueueEntry) o).queue == this) {
            return ((QueueEntry) o).isQueued();
        }
        if (o == null) {
            return false;
        }
        for (QueueEntry entry : collect(false)) {
            if (o.equals(entry.task())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The queued entries, earliest deadline first, at one instant of the tick thread; with {@code take},
     * each is also taken out of the queue (shutdownNow).
     */
    List<QueueEntry> collect(boolean take) {
        if (count.isEmpty()) {
            return new ArrayList<>();
        }
        TickThread.Snapshot request = new TickThread.Snapshot(this, take);
        tick.command(request);
        return request.await(tick);
    }

    /** The number of queued entries (see QueuedCount.sum). */
    long size() {
        return count.sum();
    }

    /** Whether no entry is queued, at one instant during the call: what termination decides on. */
    boolean isEmpty() {
        return count.isEmpty();
    }

    /** size() as STPE's queue reports it: an int, never negative. */
    int sizeAsInt() {
        return (int) Math.min(Integer.MAX_VALUE, count.sum());
    }

    /** The executor has terminated: the tick thread may drop this queue's wheel once it is empty. */
    void executorTerminated() {
        terminated = true;
        tick.queueTerminated();
    }

    // ---------------------------------------------------------------------------------------------
    // Consumers: the executor's workers, and getQueue()'s poll/take/drainTo

    /** Waits for an entry whose deadline has passed (see ReadyQueue.take); the caller still has to take it. */
    QueueEntry take(boolean timed, long nanos) throws InterruptedException {
        return ready.take(timed, nanos);
    }

    /** Takes the earliest due entry out of the queue, or returns null if none is due. */
    Runnable pollDue() {
        QueueEntry entry;
        while ((entry = ready.pollDue()) != null) {
            if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                return entry.task();
            }
        }
        return null;
    }

    // ---------------------------------------------------------------------------------------------
    // The tick thread's side: tick thread only

    /** Before the tick thread drains its inbox: the earliest bound it will raise after the hand-over. */
    void beginDrainOnTick() {
        earliestSeen = earliest;
    }

    /**
     * Files an entry in the wheel if it is still queued.
     *
     * @return true if this queue had no wheel until now (the tick thread starts serving it)
     */
    boolean fileOnTick(QueueEntry entry) {
        if (!entry.tryFile()) {
            return false;
        }
        entry.refreshDeadline();
        return addOnTick(entry);
    }

    private boolean addOnTick(QueueEntry entry) {
        boolean created = false;
        if (wheel == null) {
            wheel = new TimerWheel<>(tickNanos, clock.nanoTime());
            earliestSeen = earliest;
            created = true;
        }
        wheel.add(entry);
        return created;
    }

    /** Drops an entry that left the queue from the wheel. */
    void unlinkOnTick(QueueEntry entry) {
        if (wheel != null && entry.isInWheel() && !entry.isQueued()) {
            wheel.remove(entry);
        }
    }

    /**
     * Files a re-armed periodic entry again, wherever it is now.
     *
     * @return true if this queue had no wheel until now
     */
    boolean refileOnTick(QueueEntry entry) {
        boolean wasInWheel = wheel != null && entry.isInWheel();
        if (wasInWheel) {
            wheel.remove(entry); // filed at its previous time, or a stale entry from before the run
        }
        if (entry.tryFile() || (wasInWheel && entry.isQueued())) {
            entry.refreshDeadline();
            return addOnTick(entry);
        }
        return false;
    }

    /**
     * Hands every entry due by {@code now + HORIZON_NANOS} to the ready queue and publishes the earliest bound.
     *
     * @return the wheel's next deadline, or {@code now + Long.MAX_VALUE} if it is empty
     */
    long expireOnTick(long now) {
        try {
            if (wheel.advance(now + ReadyQueue.HORIZON_NANOS) > 0) {
                ready.pushExpired(wheel);
            }
        } catch (Throwable t) {
            // an entry being handed over is back in the wheel (ReadyQueue.pushExpired): none is lost
            TickThread.report("expiring timers", t);
        }
        long next = wheel.isEmpty() ? now + Long.MAX_VALUE : wheel.nextDeadline();
        EARLIEST.compareAndSet(this, earliestSeen, next);
        return next;
    }

    /** After expiry: true if the tick thread can stop serving this queue (empty wheel, executor terminated). */
    boolean retireOnTick() {
        if (wheel.isEmpty() && terminated) {
            wheel = null;
            return true;
        }
        return false;
    }

    /** For tests only (TickThread.Sync): the wheel's size. */
    int wheelSizeOnTick() {
        return wheel == null ? 0 : wheel.size();
    }

    /** Collects the queued entries (and with {@code take}, takes them out of the queue) for a Snapshot. */
    void collectOnTick(boolean take, Consumer<QueueEntry> into) {
        TimerWheel<QueueEntry> w = wheel;
        if (w != null) {
            w.forEach(entry -> {
                if (!entry.isQueued()) {
                    w.remove(entry);
                } else if (!take) {
                    into.accept(entry);
                } else if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                    w.remove(entry);
                    into.accept(entry);
                }
            });
        }
        if (take) {
            ready.drain(entry -> {
                if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                    into.accept(entry);
                }
            });
        } else {
            ready.forEach(entry -> {
                if (entry.isQueued()) {
                    into.accept(entry);
                }
            });
        }
    }

    // VarHandles
    private static final java.lang.invoke.VarHandle EARLIEST;

    static {
        try {
            EARLIEST = java.lang.invoke.MethodHandles.lookup().findVarHandle(TaskQueue.class, "earliest", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
