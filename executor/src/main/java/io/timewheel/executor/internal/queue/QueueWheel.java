package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.Log;
import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.Pacer;
import io.timewheel.wheel.TimerWheel;

import java.util.function.Consumer;

/**
 * The tick thread's room for one {@link TaskQueue}: the queue's wheel, the earliest bound the tick thread read
 * before its last drain, and everything the tick thread does to them (file, unlink, re-file, expire and hand
 * over, collect). Tick thread only: created with its queue, touched by the thread that owns the queue's wheel
 * ({@link WheelOwner}) alone, or, once that thread has ended, by a caller waiting for a snapshot.
 */
public final class QueueWheel {
    /*
     * Implementation notes
     *
     * Ownership. Every mutable field here is the tick thread's: no other thread reads or writes them, so
     * nothing here is volatile. What the tick thread shares with the queue's producers (earliest, pendingLow,
     * the terminated flag) is in HandOffBounds, and TaskQueue's notes give the protocol; this class runs the
     * tick thread's side of it: resetPending right before each detachAll, beginDrain before the drain, and
     * expire (the hand-over limit, the hand-over, the raise of earliest). The ready queue is the workers'; the
     * tick thread only pushes a batch into it and, for a snapshot, reads or drains it under its lock.
     *
     * A dedicated tick thread ends once its executor has terminated and its wheel is empty; a snapshot whose
     * request reached its inbox after its last look is then answered by the waiting caller (the tick
     * package's Snapshot.await), which owns this room from then on: the thread's end happens-before the
     * caller's isAlive() returning false (JLS 17.4.4), and no thread files anything here any more.
     */

    /** The bounds shared with the queue's producers. Immutable. */
    private final HandOffBounds bounds;
    /** The queue's near term, where hand-overs go. Immutable. */
    private final ReadyQueue ready;
    /** The queue's clock (the wheel's time, a batch's readyAt). Immutable. */
    private final NanoClock clock;
    /** The tick of the wheel, created on the first entry filed. Immutable. */
    private final long tickNanos;
    /** This queue's wheel, or null while the tick thread has none for it. Tick thread only. */
    private TimerWheel<QueueEntry> wheel;
    /**
     * The earliest bound read before the last drain, or when the wheel was created (TaskQueue's notes). Tick
     * thread only.
     */
    private long earliestSeen;
    /** The serving tick thread's pacer (Pacer), once it serves this queue; null before. Tick thread only. */
    private Pacer pacer;

    QueueWheel(HandOffBounds bounds, ReadyQueue ready, NanoClock clock, long tickNanos) {
        this.bounds = bounds;
        this.ready = ready;
        this.clock = clock;
        this.tickNanos = tickNanos;
    }

    /** Resets the queue's pendingLow, right before the tick thread detaches its inbox (TaskQueue's notes). */
    public void resetPending(long value) {
        bounds.resetPending(value);
    }

    /** Before the tick thread drains its inbox: the earliest bound it will raise after the hand-over. */
    public void beginDrain() {
        earliestSeen = bounds.earliest();
    }

    /**
     * Files an entry in the wheel if it is still queued.
     *
     * @return true if this queue had no wheel until now (the tick thread starts serving it)
     */
    public boolean file(QueueEntry entry) {
        if (!entry.tryFile()) {
            return false;
        }
        entry.refreshDeadline();
        return add(entry);
    }

    private boolean add(QueueEntry entry) {
        boolean created = false;
        if (wheel == null) {
            wheel = new TimerWheel<>(tickNanos, clock.nanoTime());
            earliestSeen = bounds.earliest();
            created = true;
        }
        wheel.addInSequence(entry);
        return created;
    }

    /** The tick thread starts serving this queue's new wheel: its advances and hand-overs are paced (Pacer). */
    public void pace(Pacer pacer) {
        this.pacer = pacer;
        wheel.pacer(pacer);
    }

    /** Drops an entry that left the queue from the wheel (an Unlink); one in no wheel, or queued again, stays. */
    public void unlink(QueueEntry entry) {
        if (wheel != null && entry.isInWheel() && !entry.isQueued()) {
            wheel.remove(entry);
        }
    }

    /**
     * Files a re-armed periodic entry again under its new time, wherever it is now (a Refile: it was run
     * directly, so the wheel may still hold it under its old time).
     *
     * @return true if this queue had no wheel until now
     */
    public boolean refile(QueueEntry entry) {
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
     * Hands every entry due by {@code now + HORIZON_NANOS} and before the hand-over limit (pendingLow: at or
     * before every deadline offered since the last reset, which the tick thread may not have read) to the
     * ready queue, and raises the earliest bound (TaskQueue's notes). {@code batch}: the tick thread's scratch
     * for the hand-over (empty on entry and on return). If the splice into the ready queue fails, the batch
     * goes back into the wheel (HandOverBatch's notes); any failure is reported (Log.tickFailure), and the
     * raise still follows.
     *
     * @return the wheel's next deadline, or {@code now + Long.MAX_VALUE} if it is empty
     */
    public long expire(long now, HandOverBatch batch) {
        long limit = bounds.pendingLow();
        try {
            long until = now + ReadyQueue.HORIZON_NANOS;
            if (limit - until <= 0) {
                until = limit - 1;
            }
            // a wheel whose time has passed until would hand out entries due up to its time: wait a loop
            if (until - wheel.time() >= 0 && wheel.advance(until) > 0) {
                try {
                    batch.takeExpired(wheel, pacer);
                    // the batch's readyAt: read now, after the gathering, so that a tick thread descheduled
                    // on its way here shows as a late hand-over (one clock read per batch)
                    ready.pushBatch(batch, clock.nanoTime());
                } catch (Throwable t) {
                    batch.refile(wheel); // the ready queue got nothing: back into the wheel, due (HandOverBatch)
                    throw t;
                }
            }
        } catch (Throwable t) {
            Log.tickFailure("expiring timers", t);
        } finally {
            batch.clear();
        }
        long next = wheel.isEmpty() ? now + Long.MAX_VALUE : wheel.nextDeadline();
        bounds.raiseEarliest(earliestSeen, limit - next < 0 ? limit : next, limit);
        return next;
    }

    /** After expiry: true if the tick thread can stop serving this queue (empty wheel, executor terminated). */
    public boolean retire() {
        if (wheel.isEmpty() && bounds.isTerminated()) {
            wheel = null;
            return true;
        }
        return false;
    }

    /** The wheel's size, for the tests' seam (TickProbe). Tick thread only. */
    public int size() {
        return wheel == null ? 0 : wheel.size();
    }

    /** The wheel's tick, or 0 while there is no wheel, for the tests' seam (TickProbe). Tick thread only. */
    public long wheelTickNanos() {
        return wheel == null ? 0 : wheel.tickNanos();
    }

    /**
     * Collects the queued entries of the wheel and the ready queue (and with {@code take}, takes them out of
     * the queue) for a snapshot; entries that left the queue are dropped from the wheel on the way.
     */
    public void collect(boolean take, Consumer<QueueEntry> into) {
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

    /**
     * For a snapshot's last step: an entry of this queue the tick thread has just read (and filed, if it was
     * still queued) goes into the snapshot if it is still queued; with {@code take}, it is also taken out.
     */
    public void collectRead(QueueEntry entry, boolean take, Consumer<QueueEntry> into) {
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
