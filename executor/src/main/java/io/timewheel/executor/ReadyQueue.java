package io.timewheel.executor;

import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The due and nearly due tasks of one executor, waiting for a worker: a binary min-heap on (deadline,
 * arrival), under one lock. Only tasks due within {@link #LEAD_NANOS} are here, so it stays small; the
 * later ones wait in the wheel, which is where the O(1) matters.
 *
 * <pre>
 * Implementation notes
 *
 * Producers: the tick thread (a batch of expired tasks, already in (deadline, sequence) order, under one
 * lock acquisition) and submitting threads (tasks due within the lead, which skip the wheel). Consumers:
 * the executor's workers, blocking in take. The heap orders by deadline so that a single worker runs
 * overdue tasks earliest first, as on STPE, and by arrival (a sequence assigned under the lock) so that
 * equal deadlines run in the order they became ready.
 *
 * The lead: the tick thread hands a task over up to LEAD_NANOS before its deadline, and the worker makes
 * the last, exact wait itself (leader/follower, as STPE's queue: one worker waits timed for the head, the
 * others untimed), so a task starts one timed wake-up after its deadline, as on STPE, not a tick-thread
 * wake-up plus a hand-off. A worker never takes a task before its deadline.
 *
 * Entries that left the queue another way (cancelled, removed) stay in the heap until a worker pops
 * and skips them: they are due within the lead, so that is soon. All fields are guarded by lock.
 * </pre>
 */
final class ReadyQueue {

    /** How long before its deadline a task may be handed to the workers: 2^18 ns = 262 us. */
    static final long LEAD_NANOS = 1L << 18;

    final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    private QueuedTask[] tasks = new QueuedTask[16];
    private long[] arrivals = new long[16];
    private int size;
    private long nextArrival;
    /** The worker waiting timed for the head's deadline, if any. */
    private Thread leader;
    private final NanoClock clock;

    ReadyQueue(NanoClock clock) {
        this.clock = clock;
    }

    /** Adds a due task and wakes one waiting worker. Any thread. */
    void push(QueuedTask task) {
        lock.lock();
        try {
            pushLocked(task);
        } finally {
            lock.unlock();
        }
    }

    /** Adds a task; caller holds the lock. */
    void pushLocked(QueuedTask task) {
        if (size == tasks.length) {
            int capacity = size + (size >> 1);
            tasks = Arrays.copyOf(tasks, capacity);
            arrivals = Arrays.copyOf(arrivals, capacity);
        }
        siftUp(size++, task, nextArrival++);
        if (tasks[0] == task) {
            leader = null; // a new head: whoever waits for the old one must look again
        }
        available.signal();
    }

    /** Removes the head, or returns null. Caller holds the lock. */
    QueuedTask pollLocked() {
        if (size == 0) {
            return null;
        }
        QueuedTask head = tasks[0];
        int last = --size;
        QueuedTask moved = tasks[last];
        long movedArrival = arrivals[last];
        tasks[last] = null;
        if (last > 0) {
            siftDown(0, moved, movedArrival);
        }
        return head;
    }

    /** Removes the head if its deadline has passed, else returns null. Caller holds the lock. */
    QueuedTask pollDueLocked() {
        return size > 0 && tasks[0].deadline() - clock.nanoTime() <= 0 ? pollLocked() : null;
    }

    /**
     * Waits for a task whose deadline has passed: up to {@code nanos} if {@code timed}, else indefinitely.
     *
     * @return the head, or null on timeout
     * @throws InterruptedException if interrupted while waiting
     */
    QueuedTask take(boolean timed, long nanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            for (;;) {
                if (size == 0) {
                    if (!timed) {
                        available.await();
                    } else if (nanos <= 0L) {
                        return null;
                    } else {
                        nanos = available.awaitNanos(nanos);
                    }
                    continue;
                }
                QueuedTask head = tasks[0];
                if (!head.isQueued()) {
                    pollLocked(); // cancelled or removed meanwhile: drop it
                    continue;
                }
                long delay = head.deadline() - clock.nanoTime();
                if (delay <= 0L) {
                    return pollLocked();
                }
                if (timed && nanos <= 0L) {
                    return null;
                }
                if (leader != null) {
                    if (timed) {
                        nanos = available.awaitNanos(nanos);
                    } else {
                        available.await();
                    }
                    continue;
                }
                Thread self = Thread.currentThread();
                leader = self;
                try {
                    long wait = timed ? Math.min(delay, nanos) : delay;
                    long left = available.awaitNanos(wait);
                    if (timed) {
                        nanos -= wait - left;
                    }
                } finally {
                    if (leader == self) {
                        leader = null;
                    }
                }
            }
        } finally {
            if (leader == null && size > 0) {
                available.signal(); // pass the wake-up on: more work, or a new leader needed
            }
            lock.unlock();
        }
    }

    /** Calls {@code action} for each task in the heap. Caller holds the lock; the action must not modify it. */
    void forEachLocked(Consumer<? super QueuedTask> action) {
        for (int i = 0; i < size; i++) {
            action.accept(tasks[i]);
        }
    }

    /**
     * Removes every task, handing each to {@code action} in heap order (deadline, then arrival). Popping
     * the heap rather than sorting a copy: the order is the heap's own, with no comparator over fields
     * that other threads may change. Caller holds the lock.
     */
    void drainLocked(Consumer<? super QueuedTask> action) {
        QueuedTask task;
        while ((task = pollLocked()) != null) {
            action.accept(task);
        }
    }

    /** Removes tasks that already left the queue (cancelled, removed). Caller holds the lock. */
    void purgeLocked() {
        int kept = 0;
        QueuedTask[] all = Arrays.copyOf(tasks, size);
        long[] allArrivals = Arrays.copyOf(arrivals, size);
        Arrays.fill(tasks, 0, size, null);
        size = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i].isQueued()) {
                siftUp(size++, all[i], allArrivals[i]);
                kept++;
            }
        }
        if (kept > 0) {
            available.signal();
        }
    }

    private void siftUp(int k, QueuedTask task, long arrival) {
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (!less(task, arrival, tasks[parent], arrivals[parent])) {
                break;
            }
            tasks[k] = tasks[parent];
            arrivals[k] = arrivals[parent];
            k = parent;
        }
        tasks[k] = task;
        arrivals[k] = arrival;
    }

    private void siftDown(int k, QueuedTask task, long arrival) {
        int half = size >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < size && less(tasks[right], arrivals[right], tasks[child], arrivals[child])) {
                child = right;
            }
            if (!less(tasks[child], arrivals[child], task, arrival)) {
                break;
            }
            tasks[k] = tasks[child];
            arrivals[k] = arrivals[child];
            k = child;
        }
        tasks[k] = task;
        arrivals[k] = arrival;
    }

    private static boolean less(QueuedTask a, long arrivalA, QueuedTask b, long arrivalB) {
        long diff = a.deadline() - b.deadline();
        return diff < 0 || (diff == 0 && arrivalA < arrivalB);
    }
}
