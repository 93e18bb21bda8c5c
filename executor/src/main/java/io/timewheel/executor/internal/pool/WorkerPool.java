package io.timewheel.executor.internal.pool;

import io.timewheel.executor.internal.ColdStart;
import io.timewheel.executor.internal.queue.QueueEntry;
import io.timewheel.executor.internal.queue.TaskQueue;
import io.timewheel.executor.jfr.Jfr;

import java.util.HashSet;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The worker threads and the run state of one executor: ThreadPoolExecutor's role, with its semantics,
 * method for method (addWorker, runWorker, getTask, processWorkerExit, tryTerminate, the interrupts and the
 * counters; its ctl word lives in its superclass, RunState, and each thread is a {@link Worker}). What it
 * needs from above (its settings and its hooks) it declares as abstract methods, which the executor's
 * subclass answers. Any thread.
 */
public abstract class WorkerPool extends RunState implements Worker.Loop {
    /*
     * Implementation notes
     *
     * Read this class side by side with java.util.concurrent.ThreadPoolExecutor: the names and the order of
     * the checks are the same, so that every observable behaviour (when a thread is started, when a worker
     * exits, when termination happens, which threads are interrupted) is the same. What differs:
     *
     *   - Tasks come from the executor's TaskQueue (take: a due entry, or null on time-out), and a worker
     *     runs an entry only if its tryTake wins (the entry may have been cancelled or removed meanwhile).
     *   - "The queue is empty" is queue.isEmpty(): the TaskQueue's count of queued tasks read at one instant
     *     (QueuedCount: striped, and linearizable for this question).
     *   - Settings and hooks are declared here, as TPE declares its own, and answered from above (this class
     *     names nothing above it; its one subclass is the executor's, so every call is monomorphic). The
     *     settings stay in one place, TPE's fields, which the executor inherits: corePoolSize(),
     *     maximumPoolSize(), keepAliveNanos() and allowsCoreThreadTimeOut() read them as TPE reads its fields
     *     (the inherited getters, called non-virtually: a subclass overriding getCorePoolSize changes nothing
     *     here, as on the JDK); threadFactory() is the virtual getThreadFactory(), as TPE's Worker calls it;
     *     beforeExecute, afterExecute and terminated are the executor's hooks, called where TPE calls them.
     *   - There is no firstTask: STPE never passes one (ensurePrestart adds workers with none).
     *
     * Run state: ctl, TPE's word of run state and worker count, is inherited from RunState, which holds its
     * encoding, its reads and the list of its transitions; this class makes the transitions (shutdown,
     * shutdownNow, tryTerminate) and moves the count (addWorker, getTask, processWorkerExit).
     *
     * Statistics (the executor's statistics()): each Worker has a WorkerStats cell that only its thread
     * writes, with plain writes, when it takes a task (lateness, its hand-over and worker-wait parts, late,
     * missed fixed-rate periods) and after a fixed-rate run (overruns). The times come from the ready queue
     * with the entry (ReadyQueue.take fills the cell's slot): the start of a task is the clock reading its
     * worker found it due with, so counting costs no clock read; only a fixed-rate run costs one more, after
     * it, for the overrun check. A run late by lateThresholdNanos or more also commits a JFR TaskLate event,
     * if a recording is on (Jfr; nothing else of JFR is touched on this path). statistics() sums the cells of
     * the live workers and the retired one (the counts of workers that exited), under mainLock.
     *
     * Dispatch (dispatcher != null: the builder's virtualThreadPerRun or runOn). The workers take due tasks as
     * above, but hand each to the RunDispatcher (dispatch) instead of running it, and go back for the next.
     * The run happens on the dispatcher's thread (runDispatched), which calls beforeExecute(itself, task) and
     * afterExecute there, and is interrupted if the pool is stopping, as a worker would be. TPE's meanings are
     * kept through the dispatcher's counts (RunDispatcher's notes): tryTerminate also waits for no run in
     * flight, and the last run to finish after shutdown calls it; shutdownNow also interrupts the running
     * runs; activeCount is the runs in flight; completed tasks add the dispatched runs; taskCount counts a run
     * once: held by the worker that took it until it is counted in flight (Worker.holding), then in flight; a
     * worker whose thread has not started holds nothing (TPE counts it, locked at -1, as active and as a
     * task). Overruns are not counted for dispatched runs (the worker's cell has no end time for them);
     * lateness and missed runs are, at the take. With dispatcher null (the default) none of this is on any path.
     *
     * Workers: each pool thread is a Worker (its own file, TPE's nested Worker), a non-reentrant lock that its
     * thread holds while it runs a task, so that the idle workers are those whose lock is free; its thread
     * runs the Worker.Loop it was made with, this class's runWorker, and this class adds, counts, interrupts
     * and retires the workers.
     *
     * Ownership: queue, mainLock, termination, lateThresholdNanos, executorName and dispatcher immutable; ctl
     * (RunState) any thread, via CAS; workers, largestPoolSize, completedTaskCount and retired guarded by
     * mainLock; a Worker's completedTasks written by its own thread while it holds its own lock; a Worker's
     * stats written by its own thread (Worker's and WorkerStats' notes); the dispatcher's counts any thread
     * (RunDispatcher's notes).
     */

    /** Where the workers take their tasks. Immutable. */
    private final TaskQueue queue;

    /** TPE's mainLock: guards the fields below that say so. Immutable. */
    private final ReentrantLock mainLock = new ReentrantLock();
    /** Signalled on TERMINATED (awaitTermination). Immutable; waited on under mainLock. */
    private final Condition termination = mainLock.newCondition();
    /** Guarded by mainLock. */
    private final HashSet<Worker> workers = new HashSet<>();
    /** Guarded by mainLock. */
    private int largestPoolSize;
    /** Tasks completed by workers that have exited. Guarded by mainLock. */
    private long completedTaskCount;
    /** The statistics of workers that have exited. Guarded by mainLock. */
    private final WorkerStats retired = new WorkerStats();
    /** A run that starts this late or later counts as late (and commits a TaskLate event). Immutable. */
    private final long lateThresholdNanos;
    /** The executor's name, for the TaskLate event. Immutable. */
    private final String executorName;
    /** Where runs go instead of the workers' own threads, or null (the default). Immutable. */
    private final RunDispatcher dispatcher;

    protected WorkerPool(TaskQueue queue, long lateThresholdNanos, String executorName, RunDispatcher dispatcher) {
        this.queue = queue;
        this.lateThresholdNanos = lateThresholdNanos;
        this.executorName = executorName;
        this.dispatcher = dispatcher;
        // the first worker and the first dispatched run would load these after a deadline (ColdStart)
        ColdStart.initialize(Worker.class);
        if (dispatcher != null) {
            ColdStart.initialize(DispatchedRun.class);
        }
        Thread.State.values(); // the enum addWorker's check of a new thread reads (from the JDK's image, not its archive)
    }

    // ---------------------------------------------------------------------------------------------
    // What the pool needs from above: ThreadPoolExecutor's settings (its fields) and hooks

    /** TPE's corePoolSize field. Any thread. */
    protected abstract int corePoolSize();

    /** TPE's maximumPoolSize field. Any thread. */
    protected abstract int maximumPoolSize();

    /** TPE's keepAliveTime field, in nanoseconds. Any thread. */
    protected abstract long keepAliveNanos();

    /** TPE's allowCoreThreadTimeOut field. Any thread. */
    protected abstract boolean allowsCoreThreadTimeOut();

    /** The thread factory, as TPE's Worker gets it (the virtual getThreadFactory()). */
    protected abstract ThreadFactory threadFactory();

    /**
     * TPE's beforeExecute hook, called by the worker thread {@code t} before it runs {@code r} (with a
     * dispatcher: by the thread {@code t} that runs {@code r}).
     */
    protected abstract void beforeExecute(Thread t, Runnable r);

    /**
     * TPE's afterExecute hook, called by the worker thread after {@code r} ran (or threw {@code t}); with a
     * dispatcher, by the thread that ran it.
     */
    protected abstract void afterExecute(Runnable r, Throwable t);

    /** TPE's terminated hook, called once, on the way from TIDYING to TERMINATED. */
    protected abstract void terminated();

    // ---------------------------------------------------------------------------------------------
    // Run state transitions and termination

    /** TPE's shutdown, less onShutdown and tryTerminate, which the executor calls after it. */
    public void shutdown() {
        mainLock.lock();
        try {
            advanceRunState(SHUTDOWN);
            interruptIdleWorkers(false);
        } finally {
            mainLock.unlock();
        }
    }

    /** TPE's shutdownNow, less draining the queue and tryTerminate, which the executor does after it. */
    public void shutdownNow() {
        mainLock.lock();
        try {
            advanceRunState(STOP);
            interruptWorkers();
            if (dispatcher != null) {
                for (Thread t : dispatcher.running) {
                    t.interrupt();
                }
            }
        } finally {
            mainLock.unlock();
        }
    }

    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        mainLock.lock();
        try {
            while (runStateLessThan(ctl.get(), TERMINATED)) {
                if (nanos <= 0L) {
                    return false;
                }
                nanos = termination.awaitNanos(nanos);
            }
            return true;
        } finally {
            mainLock.unlock();
        }
    }

    /** Moves to TERMINATED if SHUTDOWN with an empty queue, or STOP, and no worker is left. */
    public void tryTerminate() {
        for (;;) {
            int c = ctl.get();
            if (isRunning(c) || runStateAtLeast(c, TIDYING)
                    || (runStateLessThan(c, STOP) && !queue.isEmpty())) {
                return;
            }
            if (workerCountOf(c) != 0) {
                interruptIdleWorkers(true); // let the exit propagate from worker to worker
                return;
            }
            if (dispatcher != null && dispatcher.inFlight.get() != 0) {
                return; // the last run to finish calls tryTerminate again (runDispatched)
            }
            mainLock.lock();
            try {
                if (ctl.compareAndSet(c, ctlOf(TIDYING, 0))) {
                    try {
                        terminated();
                    } finally {
                        ctl.set(ctlOf(TERMINATED, 0));
                        termination.signalAll();
                        queue.executorTerminated();
                    }
                    return;
                }
            } finally {
                mainLock.unlock();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Workers

    /** STPE's ensurePrestart: one more core thread per schedule, or one thread when the core size is 0. */
    public void ensurePrestart() {
        int wc = workerCountOf(ctl.get());
        if (wc < corePoolSize()) {
            addWorker(true);
        } else if (wc == 0) {
            addWorker(false);
        }
    }

    public boolean prestartCoreThread() {
        return workerCountOf(ctl.get()) < corePoolSize() && addWorker(true);
    }

    public int prestartAllCoreThreads() {
        int n = 0;
        while (addWorker(true)) {
            ++n;
        }
        return n;
    }

    private boolean addWorker(boolean core) {
        retry:
        for (int c = ctl.get(); ; ) {
            if (runStateAtLeast(c, SHUTDOWN) && (runStateAtLeast(c, STOP) || queue.isEmpty())) {
                return false;
            }
            for (;;) {
                int limit = core ? corePoolSize() : maximumPoolSize();
                if (workerCountOf(c) >= (limit & COUNT_MASK)) {
                    return false;
                }
                if (ctl.compareAndSet(c, c + 1)) {
                    break retry;
                }
                c = ctl.get();
                if (runStateAtLeast(c, SHUTDOWN)) {
                    continue retry;
                }
            }
        }
        boolean workerStarted = false;
        Worker w = null;
        try {
            w = new Worker(this, threadFactory());
            Thread t = w.thread;
            if (t != null) {
                boolean workerAdded = false;
                mainLock.lock();
                try {
                    int c = ctl.get();
                    if (runStateLessThan(c, STOP)) {
                        if (t.getState() != Thread.State.NEW) {
                            throw new IllegalThreadStateException();
                        }
                        workers.add(w);
                        workerAdded = true;
                        largestPoolSize = Math.max(largestPoolSize, workers.size());
                    }
                } finally {
                    mainLock.unlock();
                }
                if (workerAdded) {
                    t.start();
                    workerStarted = true;
                }
            }
        } finally {
            if (!workerStarted) {
                addWorkerFailed(w);
            }
        }
        return workerStarted;
    }

    private void addWorkerFailed(Worker w) {
        mainLock.lock();
        try {
            if (w != null) {
                workers.remove(w);
            }
            ctl.decrementAndGet();
            tryTerminate();
        } finally {
            mainLock.unlock();
        }
    }

    /** TPE's runWorker: the loop of worker {@code w}, on its thread (Worker.run). */
    @Override
    public final void runWorker(Worker w) {
        Thread wt = Thread.currentThread();
        w.unlock(); // allow interrupts
        boolean completedAbruptly = true;
        try {
            Runnable task;
            while ((task = getTask(w.stats)) != null) {
                if (dispatcher != null) {
                    w.stats.period = 0; // no overrun check: the run ends on another thread (see the notes)
                    w.lock(); // busy, not idle, while it waits for a permit and hands the run over
                    w.holding = true;
                    try {
                        dispatch(w, task);
                    } finally {
                        w.holding = false;
                        w.unlock();
                    }
                    continue;
                }
                w.lock();
                // If the pool is stopping, the thread must be interrupted; otherwise it must not be (the
                // re-check covers a shutdownNow racing with the clearing of the interrupt).
                if ((runStateAtLeast(ctl.get(), STOP)
                        || (Thread.interrupted() && runStateAtLeast(ctl.get(), STOP)))
                        && !wt.isInterrupted()) {
                    wt.interrupt();
                }
                try {
                    runWithHooks(wt, task);
                } finally {
                    if (w.stats.period != 0) {
                        w.stats.afterRun(queue.clock.nanoTime()); // a fixed-rate run: did it overrun its period?
                    }
                    w.completedTasks++;
                    w.unlock();
                }
            }
            completedAbruptly = false;
        } finally {
            processWorkerExit(w, completedAbruptly);
        }
    }

    /** TPE's run of one task by thread {@code t}: beforeExecute, the task, afterExecute (also when it throws). */
    private void runWithHooks(Thread t, Runnable task) {
        beforeExecute(t, task);
        try {
            task.run();
            afterExecute(task, null);
        } catch (Throwable ex) {
            afterExecute(task, ex);
            throw ex;
        }
    }

    /**
     * Hands {@code task} to the dispatcher (on the worker thread {@code w}, locked); runs it here if the target
     * rejects it. From inFlight's increment on, the run is counted there, so {@code w} no longer holds it for
     * taskCount.
     */
    private void dispatch(Worker w, Runnable task) {
        RunDispatcher d = dispatcher;
        d.acquire();
        d.inFlight.incrementAndGet();
        w.holding = false;
        Runnable run = new DispatchedRun(task);
        try {
            d.target.execute(run);
        } catch (Throwable rejected) {
            run.run(); // the target refused (or could not start a thread): run it here rather than lose it
        }
    }

    /**
     * What dispatch hands over: a class, not a lambda, so that a JVM's first dispatched run does not wait for
     * an invokedynamic bootstrap (tck's fork.VirtualThreadWarmUpTest); initialized by the constructor
     * (ColdStart).
     */
    private final class DispatchedRun implements Runnable {
        private final Runnable task;

        DispatchedRun(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            runDispatched(task);
        }
    }

    /** A dispatched run, on the dispatcher's thread: TPE's runWorker body for one task. */
    private void runDispatched(Runnable task) {
        RunDispatcher d = dispatcher;
        Thread t = Thread.currentThread();
        d.running.add(t);
        try {
            if (runStateAtLeast(ctl.get(), STOP) && !t.isInterrupted()) {
                t.interrupt(); // shutdownNow may have looked at the running set before this run joined it
            }
            runWithHooks(t, task);
        } finally {
            d.running.remove(t);
            d.completed.increment();
            d.release();
            if (d.inFlight.decrementAndGet() == 0 && !isRunning(ctl.get())) {
                tryTerminate();
            }
        }
    }

    /**
     * Blocks for the next task; null when this worker must exit (TPE's getTask rules). Counts the run in the
     * worker's {@code stats}.
     */
    private Runnable getTask(WorkerStats stats) {
        boolean timedOut = false;
        for (;;) {
            int c = ctl.get();
            if (runStateAtLeast(c, SHUTDOWN) && (runStateAtLeast(c, STOP) || queue.isEmpty())) {
                ctl.decrementAndGet();
                return null;
            }
            int wc = workerCountOf(c);
            boolean timed = allowsCoreThreadTimeOut() || wc > corePoolSize();
            if ((wc > maximumPoolSize() || (timed && timedOut)) && (wc > 1 || queue.isEmpty())) {
                if (ctl.compareAndSet(c, c - 1)) {
                    return null;
                }
                continue;
            }
            try {
                QueueEntry entry = queue.take(timed, keepAliveNanos(), stats);
                if (entry == null) {
                    timedOut = true;
                } else if (entry.tryTake()) {
                    long lateness = stats.record(lateThresholdNanos, entry.fixedRatePeriod());
                    if (lateness >= lateThresholdNanos && Jfr.recording()) {
                        Jfr.taskLate(executorName, entry.taskClassName(), stats.deadline, lateness,
                                Jfr.handOver(stats.deadline, stats.readyAt, lateness), true,
                                workerCountOf(ctl.get()), stats.idleWorkers);
                    }
                    return entry.runnable();
                }
            } catch (InterruptedException retry) {
                timedOut = false;
            }
        }
    }

    private void processWorkerExit(Worker w, boolean completedAbruptly) {
        if (completedAbruptly) {
            ctl.decrementAndGet();
        }
        mainLock.lock();
        try {
            completedTaskCount += w.completedTasks;
            long[] sum = WorkerStats.newSum();
            w.stats.addTo(sum);
            retired.add(sum);
            workers.remove(w);
        } finally {
            mainLock.unlock();
        }
        tryTerminate();
        int c = ctl.get();
        if (runStateLessThan(c, STOP)) {
            if (!completedAbruptly) {
                int min = allowsCoreThreadTimeOut() ? 0 : corePoolSize();
                if (min == 0 && !queue.isEmpty()) {
                    min = 1;
                }
                if (workerCountOf(c) >= min) {
                    return;
                }
            }
            addWorker(false);
        }
    }

    private void interruptIdleWorkers(boolean onlyOne) {
        mainLock.lock();
        try {
            for (Worker w : workers) {
                Thread t = w.thread;
                if (!t.isInterrupted() && w.tryLock()) {
                    try {
                        t.interrupt();
                    } catch (SecurityException ignore) {
                        // as ThreadPoolExecutor
                    } finally {
                        w.unlock();
                    }
                }
                if (onlyOne) {
                    break;
                }
            }
        } finally {
            mainLock.unlock();
        }
    }

    /** Interrupts the idle workers, so that they re-read the configuration (TPE's interruptIdleWorkers()). */
    public void interruptIdleWorkers() {
        interruptIdleWorkers(false);
    }

    private void interruptWorkers() {
        for (Worker w : workers) {
            w.interruptIfStarted();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Reactions to configuration changes (the executor has stored the new value)

    /** TPE's setCorePoolSize, after the new size was stored. */
    public void corePoolSizeChanged(int previous, int corePoolSize) {
        int delta = corePoolSize - previous;
        if (workerCountOf(ctl.get()) > corePoolSize) {
            interruptIdleWorkers(false);
        } else if (delta > 0) {
            long k = Math.min(delta, queue.size());
            while (k-- > 0 && addWorker(true)) {
                if (queue.isEmpty()) {
                    break;
                }
            }
        }
    }

    /** TPE's setMaximumPoolSize, after the new size was stored. */
    public void maximumPoolSizeChanged(int maximumPoolSize) {
        if (workerCountOf(ctl.get()) > maximumPoolSize) {
            interruptIdleWorkers(false);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Monitoring

    /** The workers' statistics summed (WorkerStats indices) and the tasks they completed. Any thread. */
    public long[] statistics() {
        long[] sum = WorkerStats.newSum();
        mainLock.lock();
        try {
            retired.addTo(sum);
            for (Worker w : workers) {
                w.stats.addTo(sum);
            }
        } finally {
            mainLock.unlock();
        }
        return sum;
    }

    public int poolSize() {
        mainLock.lock();
        try {
            return runStateAtLeast(ctl.get(), TIDYING) ? 0 : workers.size();
        } finally {
            mainLock.unlock();
        }
    }

    public int activeCount() {
        if (dispatcher != null) {
            return dispatcher.inFlight.get();
        }
        mainLock.lock();
        try {
            int n = 0;
            for (Worker w : workers) {
                if (w.isLocked()) {
                    ++n;
                }
            }
            return n;
        } finally {
            mainLock.unlock();
        }
    }

    public int largestPoolSize() {
        mainLock.lock();
        try {
            return largestPoolSize;
        } finally {
            mainLock.unlock();
        }
    }

    public long taskCount() {
        mainLock.lock();
        try {
            long n = completedTaskCount;
            if (dispatcher != null) {
                // a run handed over is counted in flight; before that, the worker that took it holds it
                n += dispatcher.completed.sum() + dispatcher.inFlight.get();
            }
            for (Worker w : workers) {
                n += w.completedTasks;
                if (dispatcher == null ? w.isLocked() : w.holding) {
                    ++n;
                }
            }
            return n + queue.sizeAsInt();
        } finally {
            mainLock.unlock();
        }
    }

    public long completedTaskCount() {
        mainLock.lock();
        try {
            long n = completedTaskCount + (dispatcher != null ? dispatcher.completed.sum() : 0L);
            for (Worker w : workers) {
                n += w.completedTasks;
            }
            return n;
        } finally {
            mainLock.unlock();
        }
    }

    /** TPE's toString, with the executor's identity. */
    public String describe(String identity) {
        long completed;
        int poolSize;
        int active = 0;
        mainLock.lock();
        try {
            completed = completedTaskCount;
            poolSize = workers.size();
            for (Worker w : workers) {
                completed += w.completedTasks;
                if (w.isLocked()) {
                    ++active;
                }
            }
            if (dispatcher != null) {
                completed += dispatcher.completed.sum();
                active = dispatcher.inFlight.get();
            }
        } finally {
            mainLock.unlock();
        }
        int c = ctl.get();
        String runState = isRunning(c) ? "Running" : runStateAtLeast(c, TERMINATED) ? "Terminated" : "Shutting down";
        return identity
                + "[" + runState
                + ", pool size = " + poolSize
                + ", active threads = " + active
                + ", queued tasks = " + queue.sizeAsInt()
                + ", completed tasks = " + completed
                + "]";
    }
}
