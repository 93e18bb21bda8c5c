package io.timewheel.netty;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * One timer's own thread: runs what is handed to it one at a time, each at or after its deadline, in deadline
 * order (the order handed over for equal deadlines), on a thread from the timer's factory that is started when
 * work comes and ends once none has come for the keep-alive. Any thread hands work over, ahead of its deadline
 * or after it; the rest runs on the runner's thread.
 */
final class SerialRunner implements Runnable {
    /*
     * Implementation notes
     *
     * Why a runner of its own per timer, and not a pool of the wheel executor: a pool keeps its last thread
     * while its queue holds anything, however far ahead (ThreadPoolExecutor's rule), so a timer holding one
     * far timeout (a connection pool's sweep, a read timeout) would hold a thread that wakes once per
     * keep-alive. Here the far timeouts wait in the shared executor's wheel, and this runner sees a timeout
     * only shortly before it is due (WheelTimer.LEAD_NANOS): with nothing that close it holds no thread,
     * whatever the timer has pending.
     *
     * Why items come ahead of their deadline: the runner's thread then waits for the deadline itself, so that
     * at the deadline only this thread has to be on a CPU, not the hand-off thread and then this one. Each
     * item's deadline is Work.deadline(item), a System.nanoTime() value; an item runs once nanoTime() - deadline
     * >= 0, never before.
     *
     * queue: what is handed over and not yet taken (any thread offers, the owner polls). heap: what the owner
     * took, a binary heap by (deadline, order taken), so items of equal deadline run in the order handed over
     * by any one thread. The owner is the runner's thread while state is RUNNING or WAITING, or the thread in
     * runHere or stop() when no thread runs; ownership passes through the state's CAS (happens-before).
     *
     * state (any thread, via CAS):
     *   IDLE      no thread: the next hand-over starts one (IDLE -> RUNNING, then start());
     *   RUNNING   a thread is running or about to look at what is queued; a hand-over only queues;
     *   WAITING   the thread holds items none of which is due, and parks until wakeAt, the earliest deadline:
     *             a hand-over whose deadline is not before wakeAt only queues (the thread takes it at wakeAt,
     *             in time); an earlier one makes it RUNNING and unparks it (WAITING -> RUNNING);
     *   PARKED    the thread holds nothing and waits up to the keep-alive: a hand-over makes it RUNNING and
     *             unparks it (PARKED -> RUNNING).
     * transitions: IDLE -> RUNNING (a hand-over); RUNNING -> WAITING / PARKED (the thread); WAITING -> RUNNING
     * (the thread at wakeAt, or a hand-over); PARKED -> RUNNING (a hand-over, or the thread finding the queue
     * not empty after it wrote PARKED); PARKED -> IDLE (the thread, after a keep-alive with nothing handed over:
     * it ends); RUNNING -> IDLE (start() failed: the hand-over ran the work itself).
     * No hand-over is missed: the thread writes WAITING or PARKED and then reads the queue; a hand-over offers
     * to the queue and then reads the state. Either the thread sees the work, or the hand-over sees the state,
     * and then either wakes the thread or leaves it to wake at wakeAt, which is no later than the work's
     * deadline; a thread in WAITING never ends, it takes what is queued whenever it wakes (volatile accesses are
     * sequentially consistent). A hand-over that sees IDLE after the thread's PARKED -> IDLE starts a new thread.
     *
     * thread: the runner's thread while one runs (any thread reads it: unpark, stop(), isRunnerThread()),
     * written by that thread as it starts and ends.
     */

    private static final int IDLE = 0, RUNNING = 1, PARKED = 2, WAITING = 3;

    /** What runs the work: a timer's way of running one handed-over item. */
    interface Work {
        void run(Object item);

        /** The System.nanoTime() at or after which {@code item} may run. Any thread. */
        long deadline(Object item);

        /** start() could not get a thread (the factory threw or gave null); the caller runs the work. */
        void noThread(Throwable why);
    }

    private final ThreadFactory factory;
    private final long keepAliveNanos;
    private final Work work;
    /** Handed over, not yet taken. Any thread offers; the owner polls (see the notes). */
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    /** Taken, not yet run: a heap by (deadline, taken). The owner alone (see the notes). */
    private Object[] items = new Object[16];
    private long[] deadlines = new long[16];
    private long[] taken = new long[16];
    private int size;
    private long takenCount;
    /** See the notes. Any thread, via CAS. */
    private volatile int state;
    /** While WAITING: the earliest deadline held, when the thread wakes by itself. Written by the thread. */
    private volatile long wakeAt;
    /** The runner's thread while one runs, else null. See the notes. */
    private volatile Thread thread;
    /** Set once by stop(): the thread runs what it holds at once and ends without waiting. */
    private volatile boolean stopping;

    SerialRunner(ThreadFactory factory, long keepAliveNanos, Work work) {
        this.factory = factory;
        this.keepAliveNanos = keepAliveNanos;
        this.work = work;
    }

    /** Hands {@code item} over, to run at its deadline, after what was handed over before it with the same. */
    void handOver(Object item) {
        queue.offer(item);
        for (;;) {
            int s = state;
            if (s == RUNNING) {
                return; // its thread takes it: it reads the queue after it last wrote WAITING or PARKED
            }
            if (s == WAITING) {
                if (work.deadline(item) - wakeAt >= 0) {
                    return; // its thread wakes at wakeAt by itself and takes it, in time (see the notes)
                }
                if (STATE.compareAndSet(this, WAITING, RUNNING)) {
                    LockSupport.unpark(thread);
                    return;
                }
            } else if (s == PARKED) {
                if (STATE.compareAndSet(this, PARKED, RUNNING)) {
                    LockSupport.unpark(thread);
                    return;
                }
            } else if (STATE.compareAndSet(this, IDLE, RUNNING)) {
                start();
                return;
            }
        }
    }

    private void start() {
        Thread t;
        try {
            t = factory.newThread(this);
            if (t == null) {
                throw new IllegalStateException("the thread factory returned null");
            }
            t.start();
        } catch (Throwable e) {
            runHere(e);
        }
    }

    /**
     * No thread: runs what is queued on the calling thread, each at its deadline (waiting for it, at most the
     * lead with which items are handed over), then lets the next hand-over try again.
     */
    private void runHere(Throwable why) {
        work.noThread(why);
        takeQueued();
        while (size > 0) {
            long left = deadlines[0] - System.nanoTime();
            if (left > 0 && !stopping) {
                LockSupport.parkNanos(this, left);
                continue;
            }
            work.run(pollHead());
            takeQueued();
        }
        state = IDLE;
        if (!queue.isEmpty() && STATE.compareAndSet(this, IDLE, RUNNING)) {
            runHere(why); // handed over meanwhile by a thread that saw RUNNING
        }
    }

    /** The runner's thread. */
    @Override
    public void run() {
        Thread self = Thread.currentThread();
        thread = self;
        try {
            for (;;) {
                takeQueued();
                if (size > 0) {
                    long head = deadlines[0];
                    if (stopping || head - System.nanoTime() <= 0) {
                        work.run(pollHead());
                        Thread.interrupted(); // an interrupt aimed at one task must not end the next one's wait
                        continue;
                    }
                    wakeAt = head;
                    state = WAITING;
                    if (queue.isEmpty()) {
                        long left;
                        while (state == WAITING && !stopping && (left = head - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(this, left);
                            Thread.interrupted(); // no task runs now: an interrupt here must not make the wait spin
                        }
                    }
                    STATE.compareAndSet(this, WAITING, RUNNING); // or a hand-over did it first
                    continue;
                }
                state = PARKED;
                if (!queue.isEmpty()) {
                    STATE.compareAndSet(this, PARKED, RUNNING); // or a hand-over did it first
                    continue;
                }
                long until = System.nanoTime() + keepAliveNanos;
                while (state == PARKED && !stopping) {
                    long left = until - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(this, left);
                }
                if (state == PARKED && STATE.compareAndSet(this, PARKED, IDLE)) {
                    return; // nothing handed over for the keep-alive (or stopping): end
                }
                // a hand-over made it RUNNING: take what it queued
            }
        } finally {
            THREAD.compareAndSet(this, self, null);
        }
    }

    /** Moves what is queued into the heap, in the order handed over. The owner. */
    private void takeQueued() {
        Object item;
        while ((item = queue.poll()) != null) {
            if (size == items.length) {
                int n = size * 2;
                items = Arrays.copyOf(items, n);
                deadlines = Arrays.copyOf(deadlines, n);
                taken = Arrays.copyOf(taken, n);
            }
            long d = work.deadline(item), t = takenCount++;
            int i = size++;
            while (i > 0) { // sift up
                int parent = (i - 1) >>> 1;
                if (!before(d, t, deadlines[parent], taken[parent])) {
                    break;
                }
                move(parent, i);
                i = parent;
            }
            items[i] = item;
            deadlines[i] = d;
            taken[i] = t;
        }
    }

    /** Removes and returns the earliest item. The owner, with size > 0. */
    private Object pollHead() {
        Object head = items[0];
        int last = --size;
        Object item = items[last];
        long d = deadlines[last], t = taken[last];
        items[last] = null;
        int i = 0;
        for (;;) { // sift down
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(deadlines[child + 1], taken[child + 1], deadlines[child], taken[child])) {
                child++;
            }
            if (!before(deadlines[child], taken[child], d, t)) {
                break;
            }
            move(child, i);
            i = child;
        }
        if (size > 0) {
            items[i] = item;
            deadlines[i] = d;
            taken[i] = t;
        }
        return head;
    }

    private void move(int from, int to) {
        items[to] = items[from];
        deadlines[to] = deadlines[from];
        taken[to] = taken[from];
    }

    /** Whether (d1, t1) runs before (d2, t2): deadlines compared as nanoTime values, overflow-safe. */
    private static boolean before(long d1, long t1, long d2, long t2) {
        long diff = d1 - d2;
        return diff < 0 || (diff == 0 && t1 < t2);
    }

    /** Whether the calling thread is this runner's thread. */
    boolean isRunnerThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Makes the runner's thread run what it holds and what is queued at once, whatever their deadlines, and end
     * without waiting for more, interrupting it (as HashedWheelTimer.stop() interrupts its worker) until it has
     * ended; what is still queued then, or handed over while a thread was starting, runs on the calling thread.
     * Returns once no thread runs and nothing is queued. Not from the runner's thread; nothing may be handed
     * over once it returns (the timer has stopped, and its work withdraws what it is given).
     *
     * @return whether the calling thread was interrupted while it waited
     */
    boolean stop() {
        stopping = true;
        boolean interrupted = false;
        for (;;) {
            Thread t = thread;
            if (t != null && t.isAlive()) {
                LockSupport.unpark(t);
                t.interrupt();
                try {
                    t.join(100);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                continue;
            }
            if (state == IDLE && queue.isEmpty()) {
                return interrupted;
            }
            Object item;
            while ((item = queue.poll()) != null) {
                work.run(item);
            }
            if (state != IDLE) {
                Thread.onSpinWait(); // a thread is starting: with stopping set it runs what it finds and ends
            }
        }
    }

    private static final AtomicIntegerFieldUpdater<SerialRunner> STATE =
            AtomicIntegerFieldUpdater.newUpdater(SerialRunner.class, "state");
    private static final AtomicReferenceFieldUpdater<SerialRunner, Thread> THREAD =
            AtomicReferenceFieldUpdater.newUpdater(SerialRunner.class, Thread.class, "thread");
}
