package io.timewheel.netty;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * One timer's own thread: runs what is handed to it one at a time, in the order handed, on a thread from the
 * timer's factory that is started when work comes and ends once none has come for the keep-alive. Any thread
 * hands work over; the rest runs on the runner's thread.
 */
final class SerialRunner implements Runnable {
    /*
     * Implementation notes
     *
     * Why a runner of its own per timer, and not a pool of the wheel executor: a pool keeps its last thread
     * while its queue holds anything, however far ahead (ThreadPoolExecutor's rule), so a timer holding one
     * far timeout (a connection pool's sweep, a read timeout) would hold a thread that wakes once per
     * keep-alive. Here the far timeouts wait in the shared executor's wheel, and this runner sees a timeout
     * only once it is due: with nothing due it holds no thread, whatever the timer has pending.
     *
     * state (any thread, via CAS):
     *   IDLE      no thread: the next hand-over starts one (IDLE -> RUNNING, then start());
     *   RUNNING   a thread is running or about to run what is queued; a hand-over only queues;
     *   PARKED    the thread found nothing to run and waits up to the keep-alive: a hand-over makes it
     *             RUNNING and unparks it (PARKED -> RUNNING).
     * transitions: IDLE -> RUNNING (a hand-over); RUNNING -> PARKED (the thread, queue empty); PARKED ->
     * RUNNING (a hand-over, or the thread finding the queue not empty after it wrote PARKED); PARKED -> IDLE
     * (the thread, after a keep-alive with nothing handed over: it ends); RUNNING -> IDLE (start() failed: the
     * hand-over ran the work itself).
     * No hand-over is missed: the thread writes PARKED and then reads the queue; a hand-over offers to the
     * queue and then reads the state. Either the thread sees the work, or the hand-over sees PARKED and wakes
     * it (volatile accesses are sequentially consistent). A hand-over that sees IDLE after the thread's
     * PARKED -> IDLE starts a new thread.
     *
     * thread: the runner's thread while one runs (any thread reads it: unpark, stop(), isRunnerThread()),
     * written by that thread as it starts and ends.
     */

    private static final int IDLE = 0, RUNNING = 1, PARKED = 2;

    /** What runs the work: a timer's way of running one handed-over item. */
    interface Work {
        void run(Object item);

        /** start() could not get a thread (the factory threw or gave null); the caller runs the work. */
        void noThread(Throwable why);
    }

    private final ThreadFactory factory;
    private final long keepAliveNanos;
    private final Work work;
    /** Handed over, not yet run. Any thread offers; the runner's thread polls. */
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    /** See the notes. Any thread, via CAS. */
    private volatile int state;
    /** The runner's thread while one runs, else null. See the notes. */
    private volatile Thread thread;
    /** Set once by stop(): the thread runs what is queued and ends without waiting. */
    private volatile boolean stopping;

    SerialRunner(ThreadFactory factory, long keepAliveNanos, Work work) {
        this.factory = factory;
        this.keepAliveNanos = keepAliveNanos;
        this.work = work;
    }

    /** Hands {@code item} over to run after everything handed over before it. Any thread. */
    void handOver(Object item) {
        queue.offer(item);
        for (;;) {
            int s = state;
            if (s == RUNNING) {
                return; // its thread runs it: it reads the queue after it last wrote PARKED (see the notes)
            }
            if (s == PARKED) {
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

    /** No thread: runs what is queued on the calling thread, then lets the next hand-over try again. */
    private void runHere(Throwable why) {
        work.noThread(why);
        Object item;
        while ((item = queue.poll()) != null) {
            work.run(item);
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
                Object item;
                while ((item = queue.poll()) != null) {
                    work.run(item);
                    Thread.interrupted(); // an interrupt aimed at one task must not end the next one's wait
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
                // a hand-over made it RUNNING: run what it queued
            }
        } finally {
            THREAD.compareAndSet(this, self, null);
        }
    }

    /** Whether the calling thread is this runner's thread. */
    boolean isRunnerThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Makes the runner's thread run what is queued and end without waiting for more, interrupting it (as
     * HashedWheelTimer.stop() interrupts its worker) until it has ended; what is still queued then, or handed
     * over while a thread was starting, runs on the calling thread. Returns once no thread runs and nothing is
     * queued. Not from the runner's thread; nothing may be handed over once it returns (the timer has stopped).
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
