package io.timewheel.executor.internal.pool;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * One pool thread, and the lock it holds while it runs a task: ThreadPoolExecutor's Worker. Idle workers are
 * those whose lock is free. Its thread runs the loop it was made with (the pool's runWorker); the other
 * methods are for the pool, any thread.
 */
final class Worker extends AbstractQueuedSynchronizer implements Runnable {
    /*
     * Implementation notes
     *
     * As TPE's Worker, a non-reentrant lock over AQS state, so that a worker that is running a task cannot be
     * interrupted by the pool's interruptIdleWorkers (which interrupts only the workers whose tryLock
     * succeeds), nor by its own calls to setCorePoolSize and the like from inside a task:
     *   -1   created, its thread not yet running: no interrupts (interruptIfStarted skips it, and
     *        interruptIdleWorkers' tryLock fails);
     *   0    idle, in WorkerPool.getTask;
     *   1    running a task (or, with a dispatcher, handing one over): held by its own thread.
     * Transitions: -1 -> 0 when the thread starts its loop (runWorker's first unlock); 0 -> 1 (lock) and
     * 1 -> 0 (unlock) around each task by its own thread; 0 -> 1 -> 0 briefly by a thread in
     * interruptIdleWorkers (tryLock, interrupt, unlock).
     *
     * Ownership: thread, stats and loop immutable. completedTasks written by the worker's own thread while it
     * holds its own lock, read under the pool's mainLock (volatile: the pool's counts read it while the worker
     * runs). stats written by the worker's own thread only (WorkerStats' notes), summed by any thread. holding
     * (dispatch only) as completedTasks.
     */
    private static final long serialVersionUID = 1L;

    /** What this worker's thread runs: the pool's loop, for this worker. */
    interface Loop {
        void runWorker(Worker w);
    }

    /** The loop this worker's thread runs. Immutable. */
    private final transient Loop loop;
    /** The thread the pool's thread factory made for this worker, or null if it made none. Immutable. */
    final transient Thread thread;
    /** Written by the worker's own thread while it holds its own lock; read under the pool's mainLock. */
    volatile long completedTasks;
    /** This worker's statistics cell. Written by the worker's own thread only. */
    final WorkerStats stats = new WorkerStats();
    /**
     * Dispatch only: true while this worker holds a task it has taken and not yet counted in the
     * dispatcher's inFlight (it waits for a permit, or is about to hand the run over). taskCount counts such
     * a worker as one task, as TPE counts a locked worker; not a worker whose thread has not started yet,
     * nor one whose run is already counted in flight (getActiveCount, the runs in flight, counts neither).
     * Written by the worker's own thread while it holds its own lock; read under the pool's mainLock.
     */
    volatile boolean holding;

    /** Asks {@code factory} for the thread (the pool passes the virtual getThreadFactory(), as TPE's Worker). */
    Worker(Loop loop, ThreadFactory factory) {
        setState(-1); // no interrupts until the thread runs
        this.loop = loop;
        this.thread = factory.newThread(this);
    }

    @Override
    public void run() {
        loop.runWorker(this);
    }

    @Override
    protected boolean isHeldExclusively() {
        return getState() != 0;
    }

    @Override
    protected boolean tryAcquire(int unused) {
        if (compareAndSetState(0, 1)) {
            setExclusiveOwnerThread(Thread.currentThread());
            return true;
        }
        return false;
    }

    @Override
    protected boolean tryRelease(int unused) {
        setExclusiveOwnerThread(null);
        setState(0);
        return true;
    }

    void lock() {
        acquire(1);
    }

    boolean tryLock() {
        return tryAcquire(1);
    }

    void unlock() {
        release(1);
    }

    boolean isLocked() {
        return isHeldExclusively();
    }

    /** Interrupts the thread if it has started its loop (shutdownNow). */
    void interruptIfStarted() {
        Thread t;
        if (getState() >= 0 && (t = thread) != null && !t.isInterrupted()) {
            try {
                t.interrupt();
            } catch (SecurityException ignore) {
                // as ThreadPoolExecutor: nothing more to do
            }
        }
    }
}
