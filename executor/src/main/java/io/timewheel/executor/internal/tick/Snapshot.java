package io.timewheel.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The tick thread's command that collects a queue's entries (wheel and ready heap, at one instant of the tick
 * thread), and optionally takes them all out of the queue: TaskQueue.collect's request (getQueue()'s
 * iteration, shutdownNow). The caller waits in await; the tick thread answers in run.
 *
 * The answer is ordered by (deadline, sequence) keys that the tick thread copies while it collects, at
 * that one instant: the caller sorts after the tick thread has let go of the tasks, and by then a
 * periodic task may have re-armed (its deadline changed), so sorting on the live fields would give an
 * inconsistent comparator (TimSort then throws IllegalArgumentException). Keys are compared relative
 * to the clock reading taken with them, which is a total order whatever their values.
 */
final class Snapshot extends TickThread.Command {
    private final QueueWheel queue;
    private final boolean take;
    private final CountDownLatch done = new CountDownLatch(1);
    /** Written by the tick thread before done.countDown(); read by the caller after await. */
    private final List<Key> keys = new ArrayList<>();
    private long base;

    Snapshot(QueueWheel queue, boolean take) {
        super(true);
        this.queue = queue;
        this.take = take;
    }

    /** How often a waiting caller checks that the tick thread is still there: 2^24 ns = 16.8 ms. */
    private static final long DEAD_CHECK_NANOS = 1L << 24;

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

    @Override
    void run(TickThread tick) {
        try {
            base = tick.clock.nanoTime();
            queue.collect(take, this::add);
            // An entry offered while it collected may have been scheduled before one it found gone
            // (schedule Y, then remove X): take everything offered until now too (see the notes).
            tick.detachAndRead(entry -> {
                if (entry.queue.wheel == queue) {
                    queue.collectRead(entry, take, this::add);
                }
            });
        } finally {
            done.countDown();
        }
    }

    /**
     * The caller's own answer once the tick thread has ended: the caller owns the queue's QueueWheel now
     * (the thread's end happens-before isAlive() returning false, and nothing can be offered any more).
     */
    private void runAsNewOwner(TickThread tick) {
        try {
            base = tick.clock.nanoTime();
            queue.collect(take, this::add);
        } finally {
            done.countDown();
        }
    }

    /**
     * Waits for the tick thread's answer (uninterruptibly: monitoring calls do not throw it); returns
     * the tasks earliest first by the keys copied at the snapshot's instant.
     */
    List<QueueEntry> await(TickThread tick) {
        boolean interrupted = false;
        for (;;) {
            try {
                if (done.await(DEAD_CHECK_NANOS, java.util.concurrent.TimeUnit.NANOSECONDS)) {
                    break;
                }
                if (!tick.thread().isAlive()) {
                    // A dedicated tick thread ends once its executor has terminated; a request that
                    // reached its inbox after its last look is answered here, by the wheel's new owner.
                    runAsNewOwner(tick);
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
