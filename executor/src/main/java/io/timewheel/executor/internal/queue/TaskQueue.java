package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.NanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RunnableScheduledFuture;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * The queue of one executor: STPE's DelayedWorkQueue role. It counts the
 * queued tasks, sends each where it waits (the tick thread for the far term, the ready queue for the near
 * term), and answers remove, contains and collect; the tick thread keeps its own side of the queue (the
 * wheel) in {@link QueueWheel}. Producer-side methods: any thread; the tick thread's half of the protocol
 * below: the tick thread only.
 */
public abstract class TaskQueue {
    /*
     * Implementation notes
     *
     * Where a queued entry waits (data flows one way):
     *
     *   executor --add--> TaskQueue --(deadline - now > HORIZON)--> tick inbox --> wheel --(due within HORIZON)--+
     *                        |                                                                                    v
     *                        +-----(due within HORIZON, and before every deadline the tick thread holds)-----> ready --> workers
     *
     *   inbox   the tick thread's lock-free striped inbox (TickThread, StripedInbox): new entries and Commands
     *           about entries. Unordered: the tick thread may read an entry before one offered earlier by
     *           another thread, which is why order rests on sequences (below), not on arrival.
     *   wheel   this queue's TimerWheel, created, read and written by the tick thread only, in its room for
     *           this queue (QueueWheel, field wheel).
     *   ready   the ReadyQueue: the near term, entries due within ReadyQueue.HORIZON_NANOS (134 ms), a heap
     *           under its own private lock; workers wait there for the exact deadline, as on STPE. The tick
     *           thread hands entries over in batches, at least TickThread.MARGIN_NANOS -
     *           TickThread.DEFER_NANOS (125.8 ms) before their deadlines.
     *
     * Whether an entry is still queued is one atomic fact owned by the entry (QueueEntry: isQueued, tryTake,
     * tryRemove), wherever it waits; a place may keep an entry that left the queue until it next looks at it.
     *
     * count (any thread, QueuedCount): the number of queued entries. Whoever puts an entry into the queue
     * counts it first; whoever's CAS takes it out (a worker's tryTake, a tryRemove, a cancel) uncounts it.
     * Its isEmpty() is what "the queue is empty" means for termination and for the workers' exit rule
     * (linearizable); size() is its sum(). It is striped, so producer threads do not share its cache line. A
     * cancel counts its entry out in the cell's cancel counter (decrementCancelled), which is how the
     * executor's statistics count cancels without another write.
     *
     * earliest (any thread: producers lower it by CAS, the tick thread raises it by CAS): a time at or
     * before the deadline of every entry of this queue that the tick thread holds (inbox, detached or wheel)
     * and has not handed over. An entry due within the horizon skips the tick thread only if its deadline
     * is strictly before earliest and before pendingLow, so it never overtakes an earlier or equal one that
     * the tick thread still holds (deadline order, and FIFO for equal deadlines).
     *
     * pendingLow (any thread: producers lower it by CAS, the tick thread resets it right before each
     * detachAll of its inbox): a time at or before the deadline of every entry of this queue offered to
     * the inbox since the last reset. It is what the tick thread cannot see yet: an entry offered after its
     * last detachAll, whose lowering of earliest may have been a no-op (earliest was already lower) just
     * before the tick thread raised earliest past it.
     *
     * Protocol:
     *   producer      offer to the inbox, then lowerPending(deadline), then lowerEarliest(deadline);
     *                 push straight to the ready heap only if deadline < earliest and deadline < pendingLow
     *   tick thread   earliestSeen = earliest before it drains the inbox (QueueWheel.beginDrain); reset
     *                 pendingLow, detachAll; after the hand-over (of deadlines before the limit: pendingLow
     *                 read before it), CAS earliest from
     *                 earliestSeen to the lower of the wheel's next deadline and that limit; then read
     *                 pendingLow again and lower earliest to it if it fell meanwhile.
     * Why it holds: say A's schedule happens before B's, with A's deadline at or before B's, and A is still
     * with the tick thread. If A was offered after the last reset, its lowering of pendingLow happened before
     * B reads pendingLow, so B does not skip. Otherwise the tick thread had A (detached or filed) when it
     * computed its last raise of earliest, which is at or before A's deadline, unless a producer lowered
     * pendingLow between the tick thread's two reads... which the second read catches: either it sees A's
     * lowering of pendingLow and lowers earliest, or A's lowerEarliest (after its lowerPending) reads
     * earliest after the raise and lowers it itself. The raise never passes a deadline the tick thread
     * holds, so if a CAS fails because a producer lowered earliest, the lower value stays: conservative.
     * The same limit bounds the hand-over: the tick thread hands over only deadlines before it, so no entry
     * it has read goes to the workers while one with an earlier or equal deadline is still unread, whoever
     * scheduled the two and in whichever order. So B does not run before A (FIFO for equal deadlines), and
     * when the tick thread runs late, overdue entries still reach the workers earliest first, as STPE's
     * worker takes them: an entry scheduled after the tick thread's detachAll with an earlier deadline than
     * one it read waits for its next loop, and so do the later ones (ManualClockExecutorTest's
     * anUnreadEarlierDeadline test). That hold-back costs one loop of the tick thread, inside the
     * hand-over's lead (TickThread.MARGIN_NANOS), even for one thread flooding the inbox.
     *
     * An entry cancelled or removed while the tick thread has it filed in the wheel is unlinked by an
     * Unlink command; one that is still in the inbox is retracted if it is the last one its canceller's stripe
     * received (a timeout armed and disarmed by one thread never reaches the tick thread), else dropped when
     * the tick thread reads it (its tryFile fails). Either way its memory goes within TickThread.DRAIN_NANOS
     * (1.05 ms), not at its deadline: a parked tick thread is woken for it (ParkGate: PARKED_LAZY).
     *
     * sequence (any thread; Sequencer): every entry takes a number when it is created, as STPE's
     * ScheduledFutureTask takes its sequenceNumber, and keeps it for life (a periodic task across its runs,
     * as on STPE). The wheel (addInSequence) and the ready heap break ties between equal deadlines by it, so
     * equal deadlines run in creation order whatever order the entries reach the tick thread and the heap
     * in: if task A's creation happens before task B's and they are due at the same time, A's number is
     * lower. STPE gets that from one counter that every schedule writes; the Sequencer keeps a counter per
     * deadline hash, so threads scheduling different deadlines write different cache lines (its notes).
     *
     * Above (any thread): this class names nothing of its executor. What its tasks ask of it (what STPE's
     * ScheduledFutureTask asks of STPE: triggerTime, canRunInCurrentRunState, reExecutePeriodic) and what it
     * must tell (taskCancelled: after shutdown, termination may be waiting for a cancelled task) it declares
     * as abstract methods, which the executor's one subclass answers. A task's cancel enters the queue once
     * (cancelled: it uncounts the task, drops it from where it waits, and tells the executor).
     */

    /** The time source. Immutable. */
    public final NanoClock clock;
    /** The thread that owns this queue's wheel (the tick thread). Immutable. */
    private final WheelOwner owner;
    /** The tick of this queue's wheel (the tick thread creates the wheel). Immutable. */
    final long tickNanos;
    /** The near term, the workers' (the tick thread pushes hand-overs into it). Immutable. */
    public final ReadyQueue ready;
    /** The bounds producers and the tick thread share (see the notes). Immutable. */
    private final HandOffBounds bounds;
    /** The tick thread's room for this queue: the wheel and the tick thread's side of the protocol. Immutable. */
    public final QueueWheel wheel;

    /** Queued entries. Any thread; see the notes. */
    private final QueuedCount count = new QueuedCount();
    /** The counters of the numbers that break ties between equal deadlines (Sequencer). Any thread; see the notes. */
    final long[] sequenceCounters = Sequencer.newCounters();

    protected TaskQueue(NanoClock clock, WheelOwner owner, long tickNanos) {
        this.clock = clock;
        this.owner = owner;
        this.tickNanos = tickNanos;
        this.ready = new ReadyQueue(clock, owner);
        this.bounds = new HandOffBounds(clock.nanoTime());
        this.wheel = new QueueWheel(bounds, ready, clock, tickNanos);
    }

    // ---------------------------------------------------------------------------------------------
    // Entries: what a task asks of its queue, and what the queue asks of its executor for it (any thread;
    // see the notes: the executor's one subclass answers the abstract methods, so each call is monomorphic)

    /** STPE's triggerTime: the deadline {@code delayNanos} (not negative) from now. */
    protected abstract long triggerTime(long delayNanos);

    /** STPE's canRunInCurrentRunState: whether the run state lets this task run (or stay queued). */
    protected abstract boolean canRunInCurrentRunState(RunnableScheduledFuture<?> task);

    /**
     * STPE's reExecutePeriodic: puts a periodic task (a PeriodicTask) back into this queue after a run that
     * re-armed it, or cancels it if the run state no longer lets it run. {@code viaWorker}: a worker took it
     * off the queue.
     */
    protected abstract void reExecutePeriodic(TaskEntry task, boolean viaWorker);

    /**
     * A queued task was cancelled and has left this queue (see cancelled): after shutdown, termination may
     * be waiting for it (as on STPE after a cancel under removeOnCancel, whose remove tries to terminate;
     * here every cancel takes the task out of the queue).
     */
    protected abstract void taskCancelled();

    /** A periodic run threw (on the thread that ran it): count it in the executor's statistics. */
    protected abstract void periodicRunFailed();

    /**
     * A task's cancel took it out of the queue (its CAS from QUEUED, or from FILED: {@code wasFiled}):
     * uncounts it, drops it from where it waits, whatever the remove-on-cancel policy, and tells the executor
     * (taskCancelled).
     */
    final void cancelled(TaskEntry entry, boolean wasFiled) {
        count.decrementCancelled();
        forget(entry, wasFiled);
        taskCancelled();
    }

    // ---------------------------------------------------------------------------------------------
    // Producers: any thread

    /** Puts an entry into the queue and sends it where it waits. {@code now}: the caller's clock reading. */
    public void add(TaskEntry entry, long now) {
        count.increment();
        entry.markQueued();
        dispatch(entry, now);
    }

    /**
     * Puts a periodic task back after a run (RUNNING to QUEUED). {@code viaWorker}: a worker took it off
     * the queue, so it is in no wheel and the ready queue no longer holds it; otherwise (someone ran it
     * directly) the tick thread may still hold a stale entry, so it re-files it.
     *
     * @return false if it was cancelled while running (nothing was queued)
     */
    public boolean readd(TaskEntry task, boolean viaWorker) {
        count.increment();
        if (!task.rearm(true)) {
            count.decrement();
            return false;
        }
        if (viaWorker) {
            dispatch(task, clock.nanoTime());
        } else {
            owner.refile(wheel, task, task.nextDeadline());
            bounds.offered(task.nextDeadline());
        }
        return true;
    }

    /**
     * As {@link #readd}, for a periodic task that decorateTask replaced: the task goes out of the queue
     * (RUNNING to IDLE) and {@code holder}, the decorated task's new entry, goes in.
     *
     * @return false if it was cancelled while running (nothing was queued)
     */
    public boolean readdHolder(TaskEntry task, TaskEntry holder) {
        count.increment();
        if (!task.rearm(false)) {
            count.decrement();
            return false;
        }
        dispatch(holder, clock.nanoTime());
        return true;
    }

    /** The deadline of a foreign scheduled future queued now: its delay from now, capped as triggerTime caps it. */
    public long deadlineOf(RunnableScheduledFuture<?> task) {
        return triggerTime(Math.max(0L, task.getDelay(NANOSECONDS)));
    }

    /**
     * Sends a queued entry where it waits: the ready queue if due within the horizon at {@code now} (the
     * workers make the last, exact wait), else the tick thread.
     */
    private void dispatch(TaskEntry entry, long now) {
        long deadline = entry.nextDeadline();
        if (deadline - now <= ReadyQueue.HORIZON_NANOS && bounds.mayBypass(deadline)) {
            entry.refreshDeadline();
            ready.push(entry, now);
        } else {
            // Later than the horizon, or the tick thread still holds an earlier or equal deadline of ours
            // (it is running late, or has not read it yet): it must hand that one over first, so this one
            // goes through it too.
            owner.offer(entry, deadline, now);
            bounds.offered(deadline);
        }
    }

    /** Counts an entry out of the queue. Called by whoever's CAS took it out of the queue. */
    void uncount() {
        count.decrement();
    }

    /**
     * An entry left the queue (the caller's CAS took it out): the tick thread forgets it. {@code unlink}: it
     * may be in the wheel (the tick thread filed it, or a holder: tryRemove answered REMOVED_UNLINK), so an
     * Unlink drops it from there; else, if it is still in the inbox, take it back from there if it is on top
     * of the caller's stripe (else the tick thread drops it when it reads it).
     */
    private void forget(TaskEntry entry, boolean unlink) {
        if (unlink) {
            owner.unlink(wheel, entry);
        } else {
            owner.retract(entry);
        }
    }

    /** Takes an entry out of the queue without running it; true if this call did. */
    public boolean remove(TaskEntry entry) {
        int removed = entry.tryRemove();
        if (removed != QueueEntry.NOT_REMOVED) {
            forget(entry, removed == QueueEntry.REMOVED_UNLINK);
        }
        return removed != QueueEntry.NOT_REMOVED;
    }

    /**
     * STPE's queue semantics for remove(Object): our own task by identity, anything else by equals (the
     * decorated tasks, whose entry is a holder: its task() is not itself).
     */
    public boolean remove(Object o) {
        if (o == null) {
            return false;
        }
        if (o instanceof TaskEntry && ((TaskEntry) o).queue == this) {
            return remove((TaskEntry) o);
        }
        for (QueueEntry entry : collect(false)) {
            if (entry.task() != entry && o.equals(entry.task()) && remove((TaskEntry) entry)) {
                return true;
            }
        }
        return false;
    }

    public boolean contains(Object o) {
        if (o instanceof TaskEntry && ((TaskEntry) o).queue == this) {
            return ((TaskEntry) o).isQueued();
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
    public List<QueueEntry> collect(boolean take) {
        if (count.isEmpty()) {
            return new ArrayList<>();
        }
        return owner.collect(wheel, take);
    }

    /** The number of queued entries (see QueuedCount.sum). */
    public long size() {
        return count.sum();
    }

    /** Entries that left this queue through a cancel of their future (see QueuedCount.cancelled). */
    public long cancelledCount() {
        return count.cancelled();
    }

    /** Whether no entry is queued, at one instant during the call: what termination decides on. */
    public boolean isEmpty() {
        return count.isEmpty();
    }

    /** size() as STPE's queue reports it: an int, never negative. */
    public int sizeAsInt() {
        return (int) Math.min(Integer.MAX_VALUE, count.sum());
    }

    /** The executor has terminated: the tick thread may drop this queue's wheel once it is empty. */
    public void executorTerminated() {
        bounds.terminate();
        owner.queueTerminated();
    }

    /** Whether the executor has terminated. Any thread. */
    public boolean isTerminated() {
        return bounds.isTerminated();
    }

    // ---------------------------------------------------------------------------------------------
    // Consumers: the executor's workers, and getQueue()'s poll/take/drainTo

    /**
     * A worker waits for an entry whose deadline has passed (see ReadyQueue.take; its times go into the
     * worker's {@code slot}); the caller still has to take it.
     */
    public QueueEntry take(boolean timed, long nanos, ReadyQueue.Slot slot) throws InterruptedException {
        return ready.take(timed, nanos, slot);
    }

    /** Takes the earliest due entry out of the queue, or returns null if none is due (getQueue().poll()). */
    public Runnable pollDue() {
        QueueEntry entry;
        while ((entry = ready.pollDue()) != null) {
            if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                return entry.task();
            }
        }
        return null;
    }

    /**
     * Waits for a due entry and takes it out of the queue (getQueue()'s take and timed poll): untimed, until
     * there is one; timed, at most {@code nanos}, then null. An entry that left the queue meanwhile is skipped.
     */
    public Runnable removeDue(boolean timed, long nanos) throws InterruptedException {
        long until = System.nanoTime() + nanos;
        for (;;) {
            QueueEntry entry = ready.take(timed, timed ? until - System.nanoTime() : 0L, null);
            if (entry != null && entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                return entry.task();
            }
            if (entry == null && timed) {
                return null;
            }
        }
    }
}
