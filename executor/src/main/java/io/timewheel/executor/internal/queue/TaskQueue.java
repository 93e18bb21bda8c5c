package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.NanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RunnableScheduledFuture;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * The queue of one executor: STPE's DelayedWorkQueue role. It counts the queued tasks, sends each where it
 * waits (the thread that owns its wheel for the far term, the ready queue for the near term), and answers
 * remove, contains and collect; that thread keeps its side of the queue (the wheel) in {@link QueueWheel}.
 * Any thread.
 */
public abstract class TaskQueue {
    /*
     * Implementation notes
     *
     * Where a queued entry waits:
     *
     *   add --(due within HORIZON, before both bounds below: push)--------------------------> ready --> workers
     *    |                                                                                       ^
     *    +--(else: WheelOwner.offer)--> inbox --> wheel --(due within HORIZON: QueueWheel.expire)--+
     *
     *   inbox   the owner's inbox (the tick thread's StripedInbox): new entries, and Commands about entries.
     *           Unordered: the tick thread may read an entry before one offered earlier by another thread, so
     *           order rests on sequences and on the bounds below, never on arrival.
     *   wheel   this queue's TimerWheel, in the tick thread's room for this queue (QueueWheel): created, read
     *           and written by the tick thread only.
     *   ready   the ReadyQueue: the near term, entries due within ReadyQueue.HORIZON_NANOS (2^27 ns = 134 ms),
     *           under its own private lock; the workers make the last, exact wait there, as on STPE. An entry
     *           the tick thread holds from beyond the horizon reaches it, in a batch, at least
     *           TickThread.MARGIN_NANOS - TickThread.DEFER_NANOS (125.8 ms) before its deadline while the
     *           tick thread wakes on time.
     *
     * Whether an entry is still queued is one atomic fact owned by the entry (QueueEntry: isQueued, tryTake,
     * tryRemove), wherever it waits; a place may keep an entry that left the queue until it next looks at it.
     *
     * count (any thread; QueuedCount): the number of queued entries. Whoever puts an entry into the queue
     * counts it first (add, readd); whoever's CAS takes it out (a worker's tryTake, a tryRemove, a direct
     * run's claim, a cancel) counts it out. isEmpty() is what "the queue is empty" means for termination and
     * for the workers' exit rule, true or false at one instant during the call; size() is a monitoring sum.
     * It is striped, so producers do not share its cache line. A cancel counts its entry out in the cancel
     * counter of its cell (cancelled), which is how the executor's statistics count cancels without another
     * write. An entry added by addUncounted is counted by its owner instead, never here (for an executor that
     * is never shut down: the netty module's shared one).
     *
     * The hand-off protocol. An entry that skips the tick thread must not overtake one of this queue with an
     * earlier or equal deadline that the tick thread still holds: deadline order, and FIFO for equal
     * deadlines, as STPE's workers take them. Two bounds say what the tick thread holds (HandOffBounds; each
     * a LowBound that producers lower by CAS):
     *   earliest     a lower bound on the deadlines of this queue's entries that the tick thread holds (in its
     *                inbox, detached, or in the wheel) and has not handed over, except for an offer that
     *                races a raise, which pendingLow covers. Producers lower it after each offer; the tick thread
     *                raises it after each hand-over, by a CAS from the value it read before its drain, so
     *                that a producer's lowering since then stays.
     *   pendingLow   at or before the deadline of every entry of this queue offered since the tick thread's
     *                last reset of it, which comes right before each detachAll of its inbox, for every queue
     *                it serves (a queue it does not serve yet is neither reset nor raised: its bounds only
     *                fall). It covers what the tick thread cannot see yet: an entry offered after its
     *                detachAll whose lowering of earliest was a no-op (earliest was lower already) just
     *                before the tick thread raised earliest past it.
     * The steps:
     *   producer     (dispatch; readd's re-file) offer to the owner (WheelOwner.offer, refile), then
     *                HandOffBounds.offered: lower pendingLow, then lower earliest. Push straight to the ready
     *                queue only if the deadline is within the horizon and strictly before both bounds
     *                (HandOffBounds.mayBypass, which reads pendingLow, then earliest: see Read order).
     *   tick thread  each loop, in QueueWheel: read earliest (beginDrain); reset pendingLow (resetPending),
     *                then detach the inbox and file everything detached; read pendingLow, the limit (expire);
     *                hand over only entries due before the limit (and within the horizon); CAS earliest from
     *                the value read to the lower of the wheel's next deadline and the limit; read pendingLow
     *                again and, if it fell below the limit, lower earliest to it (HandOffBounds.raiseEarliest).
     *
     * Why B does not skip A. Say A's schedule happens before B's, A's deadline is at or before B's, and the
     * tick thread still holds A when B reads the bounds. Let R be the last reset of pendingLow before B reads
     * pendingLow (or the queue's creation).
     *   - A lowered pendingLow after R: B reads pendingLow at or before A's deadline.
     *   - A lowered pendingLow before R: A was offered before the detachAll that follows R. Take the last
     *     raise of earliest that succeeded before B reads earliest (if none, earliest has only been lowered).
     *     (a) The tick thread had detached A before that loop's expiry: A was in the wheel when it computed
     *     the raise (everything detached is filed before expiry), so the raise is at or before A's deadline.
     *     (b) It had not: A lowered pendingLow after that loop's last reset, and so before its limit read
     *     (the raise is at or before the limit), or after its second read (A's own lowering of earliest
     *     comes after the raise), or between the two (the second read sees it: the limit was at or before
     *     that pendingLow already, or the tick thread lowers earliest to it right after the raise).
     *     A failed CAS changes nothing, producers only lower, and A's own lowering of earliest happens before
     *     B's read: B reads earliest at or before A's deadline, unless it reads earliest inside (b)'s last
     *     window, after the raise and before that lowering.
     * Read order. That window comes before R (R follows A's lowering of pendingLow, so it is a later loop's
     * reset), and HandOffBounds.mayBypass reads pendingLow first and earliest second: a producer that reads
     * pendingLow after R reads earliest after the window. Read the other way round, B could read earliest
     * inside the window and pendingLow only after the next reset, and go to the workers while A waits for a
     * later hand-over (jcstress HandOffBypass forbids that outcome).
     *
     * The same limit bounds the hand-over: the tick thread hands over only deadlines before it, so no entry goes
     * to the workers ahead of an earlier or equal one that the tick thread has not read yet and whose offer
     * lowered pendingLow before it read the limit, whoever scheduled the two and in whichever order
     * (ManualClockExecutorTest's anUnreadEarlierDeadline test). Together: B does not run before A, and when the
     * tick thread runs late, the overdue entries offered to it reach the workers earliest first, as STPE's worker
     * takes them. A hold-back lasts until the next loop reads the entry that caused it, within the hand-over's
     * lead; only a stream of new offers due no later than the held entry renews it, and those must run first
     * anyway.
     *
     * An entry cancelled or removed while the tick thread has it filed in the wheel is unlinked by an Unlink
     * command (WheelOwner.unlink); one that is still in the inbox is retracted if it is the last one its
     * canceller's stripe received (a timeout armed and disarmed by one thread never reaches the tick thread),
     * else dropped when the tick thread reads it (its tryFile fails). Either way its memory goes within
     * TickThread.DRAIN_NANOS (2^20 ns = 1.05 ms), not at its deadline: a parked tick thread is woken for it
     * (ParkGate: PARKED_LAZY). One in the ready queue is dropped when it comes to the head.
     *
     * sequence (any thread; Sequencer): every entry takes a number when it is created, as STPE's
     * ScheduledFutureTask takes its sequenceNumber, and keeps it for life (a periodic task across its runs,
     * as on STPE). The wheel (addInSequence) and the ready queue break ties between equal deadlines by it, so
     * equal deadlines run in creation order whatever order the entries reach the tick thread and the ready
     * queue in: if task A's creation happens before task B's and they are due at the same time, A's number
     * is lower. STPE gets that from one counter that every schedule writes; the Sequencer keeps a counter
     * per deadline hash, so threads scheduling different deadlines write different cache lines (its notes).
     *
     * Above and below. This class names nothing of its executor: what its tasks ask of it (what STPE's
     * ScheduledFutureTask asks of STPE: triggerTime, canRunInCurrentRunState, reExecutePeriodic) and what it
     * must tell (taskCancelled: after shutdown, termination may be waiting for a cancelled task;
     * periodicRunFailed) it declares as abstract methods, which the executor's one subclass answers. A task's
     * cancel enters the queue once (cancelled: it counts the task out, has the tick thread forget it, and
     * tells the executor). Below, it reaches the tick thread only through WheelOwner, and its ready queue
     * through ReadyQueue.Waker, both of which TickThread implements.
     */

    /** The time source. Immutable. */
    public final NanoClock clock;
    /** The thread that owns this queue's wheel (the tick thread). Immutable. */
    private final WheelOwner owner;
    /** The near term, the workers' (the tick thread pushes hand-overs into it). Immutable. */
    public final ReadyQueue ready;
    /** The bounds producers and the tick thread share (see the notes). Immutable. */
    private final HandOffBounds bounds;
    /** The tick thread's room for this queue: the wheel and the tick thread's side of the protocol. Immutable. */
    public final QueueWheel wheel;

    /** Queued entries. Any thread; see the notes. */
    private final QueuedCount count = new QueuedCount();
    /** Whether an entry outside the count was ever added (addUncounted). Any thread; set once. */
    private volatile boolean uncounted;
    /** The counters of the numbers that break ties between equal deadlines (Sequencer). Any thread; see the notes. */
    final long[] sequenceCounters = Sequencer.newCounters();

    protected TaskQueue(NanoClock clock, WheelOwner owner, long tickNanos) {
        this.clock = clock;
        this.owner = owner;
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
     * STPE's reExecutePeriodic: after a run that set a periodic task's next time, puts it back into this
     * queue (readd, or readdHolder for a decorated one) or cancels it if the run state no longer lets it run.
     * {@code viaWorker}: a worker took it off the queue.
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
     * counts it out, has the tick thread forget it (forget), whatever the remove-on-cancel policy, and tells
     * the executor (taskCancelled).
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
     * the queue, so it is in no wheel and the ready queue no longer holds it, and it is dispatched as new;
     * otherwise (someone ran it directly) the wheel may still hold it under its old time and the ready queue a
     * stale copy, so the tick thread re-files it (WheelOwner.refile), an offer as the protocol counts them.
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

    /**
     * As {@link #add}, for an entry that its owner counts instead of this queue: it is never counted here, in
     * nor out (its tryTake, tryRemove and cancel do not call uncount or cancelled; its cancel calls
     * {@link #forgetUncounted}), so isEmpty() and size() leave it out, and collect() asks the tick thread from
     * then on whatever the count says. For an executor that is never shut down, where "empty" decides
     * nothing (the netty module's shared executor, whose timers each count their own timeouts).
     */
    public void addUncounted(TaskEntry entry, long now) {
        if (!uncounted) {
            uncounted = true;
        }
        entry.markQueued();
        dispatch(entry, now);
    }

    /** An entry added by addUncounted was cancelled (its CAS from QUEUED, or FILED): the tick thread forgets it. */
    public void forgetUncounted(TaskEntry entry, boolean wasFiled) {
        forget(entry, wasFiled);
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
            // Later than the horizon, or the tick thread holds (or was offered) an earlier or equal deadline
            // of ours (it is running late, or has not read it yet): it must hand that one over first, so this
            // one goes through it too (see the notes: the hand-off protocol).
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
     * decorated tasks, whose entry is a holder: its runnable() is not itself).
     */
    public boolean remove(Object o) {
        if (o == null) {
            return false;
        }
        if (o instanceof TaskEntry && ((TaskEntry) o).queue == this) {
            return remove((TaskEntry) o);
        }
        for (QueueEntry entry : collect(false)) {
            if (entry.runnable() != entry && o.equals(entry.runnable()) && remove((TaskEntry) entry)) {
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
            if (o.equals(entry.runnable())) {
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
        if (count.isEmpty() && !uncounted) {
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
     * A worker waits for an entry whose deadline, less any take-ahead it allows, has passed (see ReadyQueue.take;
     * its times go into the worker's {@code slot}); the caller still has to take it.
     */
    public QueueEntry take(boolean timed, long nanos, ReadyQueue.Slot slot) throws InterruptedException {
        return ready.take(timed, nanos, slot);
    }

    /** Takes the earliest due entry out of the queue, or returns null if none is due (getQueue().poll()). */
    public Runnable pollDue() {
        QueueEntry entry;
        while ((entry = ready.pollDue()) != null) {
            if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                return entry.runnable();
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
                return entry.runnable();
            }
            if (entry == null && timed) {
                return null;
            }
        }
    }
}
