package io.timewheel.executor;

import io.timewheel.wheel.TimerWheel;

import java.util.function.Consumer;

/**
 * The tick thread's room for one {@link TaskQueue}: the queue's wheel, the earliest bound the tick thread read
 * before its last drain, and everything the tick thread does to them (file, unlink, re-file, expire and hand
 * over, collect). Tick thread only: created with its queue, touched by the queue's {@link TickThread} alone,
 * or (Snapshot's last resort) by a caller that has seen that thread end.
 */
final class QueueWheel {
    /*
     * Implementation notes
     *
     * Ownership. Every field here is the tick thread's: no other thread reads or writes them, so nothing here
     * is volatile. What the tick thread shares with producers (earliest, pendingLow, the terminated
     * flag) stays in TaskQueue, whose notes give the protocol; this class runs the tick thread's
     * half of it (beginDrain, resetPending via the queue, expire). The ready queue is the workers'; the tick
     * thread only pushes a batch into it and, for a Snapshot, reads or drains it under its lock.
     *
     * A dedicated tick thread ends once its executor has terminated and its wheel is empty; a Snapshot that
     * reached its inbox after its last look is then answered by the waiting caller (Snapshot.await),
     * which owns this room from then on: the thread's end happens-before the caller's isAlive() returning false
     * (JLS 17.4.4), and nothing can be offered any more.
     */

    private final TaskQueue queue;
    /** This queue's wheel, or null while the tick thread has none for it. */
    private TimerWheel<QueueEntry> wheel;
    /** The value of the queue's earliest bound read before the last drain (TaskQueue's notes). */
    private long earliestSeen;
    /** The serving tick thread's pacer (Pacer), once it serves this queue; null before. */
    private Pacer pacer;

    QueueWheel(TaskQueue queue) {
        this.queue = queue;
    }

    /** Right before the tick thread detaches its inbox: the queue's pendingLow (TaskQueue's notes). */
    void resetPending(long value) {
        queue.resetPending(value);
    }

    /** Before the tick thread drains its inbox: the earliest bound it will raise after the hand-over. */
    void beginDrain() {
        earliestSeen = queue.earliest();
    }

    /**
     * Files an entry in the wheel if it is still queued.
     *
     * @return true if this queue had no wheel until now (the tick thread starts serving it)
     */
    boolean file(QueueEntry entry) {
        if (!entry.tryFile()) {
            return false;
        }
        entry.refreshDeadline();
        return add(entry);
    }

    private boolean add(QueueEntry entry) {
        boolean created = false;
        if (wheel == null) {
            wheel = new TimerWheel<>(queue.tickNanos, queue.clock.nanoTime());
            earliestSeen = queue.earliest();
            created = true;
        }
        wheel.addInSequence(entry);
        return created;
    }

    /** The tick thread starts serving this queue's new wheel: its advances and hand-overs are paced (Pacer). */
    void pace(Pacer pacer) {
        this.pacer = pacer;
        wheel.pacer(pacer);
    }

    /** Drops an entry that left the queue from the wheel. */
    void unlink(QueueEntry entry) {
        if (wheel != null && entry.isInWheel() && !entry.isQueued()) {
            wheel.remove(entry);
        }
    }

    /**
     * Files a re-armed periodic entry again, wherever it is now.
     *
     * @return true if this queue had no wheel until now
     */
    boolean refile(QueueEntry entry) {
        if (entry.isInInbox()) {
            return false; // not read yet: filed, with its new deadline, when the tick thread reads it
        }
        boolean wasInWheel = wheel != null && entry.isInWheel();
        if (wasInWheel) {
            wheel.remove(entry); // filed at its previous time, or a stale entry from before the run
        }
        if (entry.tryFile() || (wasInWheel && entry.isQueued())) {
            entry.refreshDeadline();
            return add(entry);
        }
        return false;
    }

    /**
     * Hands every entry due by {@code now + HORIZON_NANOS} and before the hand-over limit (pendingLow: the
     * earliest deadline offered since the last detachAll, which the tick thread has not read) to the ready
     * queue, and publishes the earliest bound (TaskQueue's notes). {@code batch}: the tick thread's scratch
     * for the hand-over (empty on entry and on return).
     *
     * @return the wheel's next deadline, or {@code now + Long.MAX_VALUE} if it is empty
     */
    long expire(long now, HandOverBatch batch) {
        long limit = queue.pendingLow();
        try {
            long until = now + ReadyQueue.HORIZON_NANOS;
            if (limit - until <= 0) {
                until = limit - 1;
            }
            // a wheel whose time has passed until would hand out entries due up to its time: wait a loop
            if (until - wheel.time() >= 0 && wheel.advance(until) > 0) {
                batch.takeExpired(wheel, pacer);
                try {
                    // the batch's readyAt: read now, after the gathering, so that a tick thread descheduled
                    // on its way here shows as a late hand-over (one clock read per batch)
                    queue.ready.pushBatch(batch, queue.clock.nanoTime());
                } catch (Throwable t) {
                    batch.refile(wheel); // nothing was added: back into the wheel, due (HandOverBatch)
                    throw t;
                }
            }
        } catch (Throwable t) {
            TickThread.report("expiring timers", t);
        } finally {
            batch.clear();
        }
        long next = wheel.isEmpty() ? now + Long.MAX_VALUE : wheel.nextDeadline();
        queue.raiseEarliest(earliestSeen, limit - next < 0 ? limit : next, limit);
        return next;
    }

    /** After expiry: true if the tick thread can stop serving this queue (empty wheel, executor terminated). */
    boolean retire() {
        if (wheel.isEmpty() && queue.isTerminated()) {
            wheel = null;
            return true;
        }
        return false;
    }

    /** For tests only (the tests' Sync): the wheel's size. */
    int size() {
        return wheel == null ? 0 : wheel.size();
    }

    /** For tests only (the tests' Sync): the wheel's tick, or 0 while there is no wheel. */
    long tickNanos() {
        return wheel == null ? 0 : wheel.tickNanos();
    }

    /** Collects the queued entries (and with {@code take}, takes them out of the queue) for a Snapshot. */
    void collect(boolean take, Consumer<QueueEntry> into) {
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
            queue.ready.drain(entry -> {
                if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
                    into.accept(entry);
                }
            });
        } else {
            queue.ready.forEach(entry -> {
                if (entry.isQueued()) {
                    into.accept(entry);
                }
            });
        }
    }

    /**
     * For a Snapshot's last step: an entry of this queue the tick thread has just read (and filed, if it was
     * still queued) goes into the snapshot if it is still queued; with {@code take}, it is also taken out.
     */
    void collectRead(QueueEntry entry, boolean take, Consumer<QueueEntry> into) {
        if (!take) {
            if (entry.isQueued()) {
                into.accept(entry);
            }
        } else if (entry.tryRemove() != QueueEntry.NOT_REMOVED) {
            if (wheel != null && entry.isInWheel()) {
                wheel.remove(entry);
            }
            into.accept(entry);
        }
    }
}
