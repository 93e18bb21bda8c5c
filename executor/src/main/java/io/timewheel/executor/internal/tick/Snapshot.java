package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.queue.QueueEntry;
import io.timewheel.executor.internal.queue.QueueWheel;
import io.timewheel.executor.internal.queue.TaskEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A queue's entries collected at one instant of the tick thread (wheel and ready queue), and optionally taken
 * out of the queue: TaskQueue.collect's request (getQueue()'s iteration, shutdownNow). The caller waits in
 * await; the tick thread answers (TickThread's SnapshotRequest: collect, then read for each entry it reads
 * from its inbox after that, then done).
 */
final class Snapshot {
    /*
     * Implementation notes
     *
     * One instant. The request is an urgent command, so the tick thread runs it only after a detachAll that
     * started after it read the request, and after filing everything detached: collect then sees every entry
     * offered before the request. That is not yet an instant: an entry Y offered after that detachAll may
     * have been scheduled before the removal of an entry X that collect found gone (schedule Y, then remove X:
     * at every instant X or Y is queued), and a snapshot holding neither would match no instant. So the tick
     * thread then detaches once more and hands each task entry it reads to read, which adds those of this
     * queue still queued (jcstress SnapshotVsProducer). A caller that finds the tick thread ended answers
     * itself (await): nothing can be offered any more.
     *
     * Order. The answer is ordered by (deadline, sequence) keys that the tick thread copies while it collects:
     * the caller sorts after the tick thread has let go of the tasks, and by then a periodic task may have
     * re-armed (its deadline changed), so sorting on the live fields would give an inconsistent comparator
     * (TimSort then throws IllegalArgumentException). Keys are compared relative to the clock reading taken
     * with them, which is a total order whatever their values.
     *
     * Ownership: keys and base are written by the tick thread (or by the caller, once that thread has ended)
     * before done.countDown(), and read by the caller after await returns: the latch orders them.
     */

    /** How often a waiting caller checks that the tick thread is still there: 2^24 ns = 16.8 ms. */
    private static final long DEAD_CHECK_NANOS = 1L << 24;

    /** The tick thread's room for the queue collected. Immutable. */
    private final QueueWheel queue;
    /** Whether the entries are also taken out of the queue (shutdownNow). Immutable. */
    private final boolean take;
    /** Released once the answer is complete. Any thread. */
    private final CountDownLatch done = new CountDownLatch(1);
    /** The entries and their keys (see the notes: Ownership). */
    private final List<Key> keys = new ArrayList<>();
    /** The clock reading the keys are compared relative to. Written and read as keys. */
    private long base;

    Snapshot(QueueWheel queue, boolean take) {
        this.queue = queue;
        this.take = take;
    }

    /** A task and its order key, copied by the tick thread at the snapshot's instant. Immutable. */
    private static final class Key {
        final QueueEntry task;
        final long deadline;
        final int sequence;

        Key(QueueEntry task) {
            this.task = task;
            this.deadline = task.deadline();
            this.sequence = task.sequence();
        }
    }

    private void add(QueueEntry task) {
        keys.add(new Key(task));
    }

    /** The wheel's owner collects the queue's entries now ({@code now}: its clock). */
    void collect(long now) {
        base = now;
        queue.collect(take, this::add);
    }

    /**
     * The owner has just read {@code entry} from its inbox after collect: if it is of this queue and still
     * queued, it goes in too (see the notes: One instant).
     */
    void read(TaskEntry entry) {
        if (entry.queue.wheel == queue) {
            queue.collectRead(entry, take, this::add);
        }
    }

    /** The answer is complete: releases the caller. */
    void done() {
        done.countDown();
    }

    /**
     * Waits for the tick thread's answer (uninterruptibly: monitoring calls do not throw it); returns the tasks
     * earliest first by the keys copied at the snapshot's instant. If {@code tick} has ended (a dedicated tick
     * thread ends once its executor has terminated), the caller answers itself: it owns the queue's room now
     * (the thread's end happens-before isAlive() returning false, and nothing can be offered any more).
     */
    List<QueueEntry> await(Thread tick, NanoClock clock) {
        boolean interrupted = false;
        for (;;) {
            try {
                if (done.await(DEAD_CHECK_NANOS, TimeUnit.NANOSECONDS)) {
                    break;
                }
                if (!tick.isAlive()) {
                    try {
                        collect(clock.nanoTime());
                    } finally {
                        done();
                    }
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        long origin = base;
        keys.sort((a, b) -> {
            int byDeadline = Long.compare(a.deadline - origin, b.deadline - origin);
            return byDeadline != 0 ? byDeadline : Integer.compare(a.sequence, b.sequence);
        });
        List<QueueEntry> tasks = new ArrayList<>(keys.size());
        for (Key key : keys) {
            tasks.add(key.task);
        }
        return tasks;
    }
}
