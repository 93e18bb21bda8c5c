package io.timewheel.tck.soak;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A producer's monitoring calls: remove, every getQueue() operation (what the caller takes out is "removed
 * by the caller" for the oracle) and the getters, each checked for what its result alone says.
 */
final class Monitoring {
    private final SoakRound round;
    private final SplittableRandom r;
    private final Violations violations;

    Monitoring(SoakRound round, SplittableRandom r) {
        this.round = round;
        this.r = r;
        this.violations = round.violations;
    }

    void remove(SoakExecutor ex) {
        SoakTask t = round.pick(r.nextLong());
        Future<?> f = t == null ? null : t.future;
        if (!(f instanceof Runnable runnable)) {
            return; // invokeAll's futures are FutureTasks: Runnable too; others not yet published
        }
        String what = "remove(task " + t.id + ") on " + ex;
        try {
            boolean removed = ex.executor.remove(runnable);
            if (removed) {
                if (t.owner != ex) {
                    violations.add(what + ": removed a task of another executor: " + t.describe());
                }
                round.taken(ex, runnable);
            }
        } catch (Throwable x) {
            violations.threw(what, x);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // getQueue(): a live view; what the caller takes out is "removed by the caller"

    void queueOp(SoakExecutor ex) throws InterruptedException {
        BlockingQueue<Runnable> q;
        try {
            q = ex.executor.getQueue();
        } catch (Throwable x) {
            violations.threw("getQueue on " + ex, x);
            return;
        }
        int op = r.nextInt(13);
        String what = "getQueue()." + op + " on " + ex;
        try {
            switch (op) {
                case 0 -> violations.check(q.size() >= 0, what + ": size() < 0");
                case 1 -> q.isEmpty();
                case 2 -> element(ex, q.peek(), what + " peek", true);
                case 3 -> {
                    SoakTask t = round.pick(r.nextLong());
                    if (t != null && t.future != null) {
                        boolean contains = q.contains(t.future);
                        violations.check(!contains || t.owner == ex, what + ": contains a task of another executor");
                    }
                }
                case 4, 5 -> {
                    Iterator<Runnable> it = q.iterator();
                    int removeAt = op == 5 ? r.nextInt(8) : -1;
                    for (int i = 0; it.hasNext(); i++) {
                        Runnable e = it.next();
                        element(ex, e, what + " iterator", false);
                        if (i == removeAt) {
                            it.remove();
                            round.maybeTaken(ex, e);
                        }
                    }
                }
                case 6 -> {
                    for (Object e : q.toArray()) {
                        element(ex, e, what + " toArray()", false);
                    }
                }
                case 7 -> {
                    // A longer array than the queue gets a null after the last element (Collection.toArray).
                    for (Runnable e : q.toArray(new Runnable[r.nextInt(3)])) {
                        if (e == null) {
                            break;
                        }
                        element(ex, e, what + " toArray(T[])", false);
                    }
                }
                case 8 -> {
                    SoakTask t = round.pick(r.nextLong());
                    Future<?> f = t == null ? null : t.future;
                    if (f != null && q.remove(f)) {
                        violations.check(t.owner == ex, what + ": removed a task of another executor");
                        round.taken(ex, f);
                    }
                }
                case 9 -> taken(ex, q.poll(), what + " poll()");
                case 10 -> taken(ex, q.poll(r.nextLong(50), TimeUnit.MICROSECONDS), what + " poll(timeout)");
                default -> {
                    List<Runnable> sink = new ArrayList<>();
                    int n = op == 11 ? q.drainTo(sink) : q.drainTo(sink, 1 + r.nextInt(3));
                    violations.check(n == sink.size(), what + ": drainTo returned " + n + " but added " + sink.size());
                    for (Runnable e : sink) {
                        taken(ex, e, what + " drainTo");
                    }
                }
            }
        } catch (InterruptedException x) {
            throw x;
        } catch (Throwable x) {
            violations.threw(what, x);
        }
    }

    /** An element of {@code ex}'s queue: a RunnableScheduledFuture, and if it is a known task, one of ex's. */
    private void element(SoakExecutor ex, Object e, String what, boolean nullable) {
        if (e == null) {
            violations.check(nullable, what + ": a null element");
            return;
        }
        violations.check(e instanceof RunnableScheduledFuture, what + ": an element that is no "
                + "RunnableScheduledFuture: " + e.getClass());
        SoakTask t = round.taskOf(e);
        violations.check(t == null || t.owner == ex, what + ": an element of another executor: " + t);
    }

    private void taken(SoakExecutor ex, Runnable e, String what) {
        if (e != null) {
            element(ex, e, what, false);
            round.taken(ex, e);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Getters

    void getters(SoakExecutor ex) {
        ScheduledThreadPoolExecutor e = ex.executor;
        String what = "getters of " + ex;
        try {
            long completed = e.getCompletedTaskCount();
            long taskCount = e.getTaskCount();
            int active = e.getActiveCount();
            int pool = e.getPoolSize();
            int largest = e.getLargestPoolSize();
            int queued = e.getQueue().size();
            violations.check(completed >= 0 && completed <= taskCount, what + ": completed " + completed
                    + " vs task count " + taskCount);
            violations.check(active >= 0 && pool >= 0 && queued >= 0, what + ": negative active " + active
                    + " pool " + pool + " queued " + queued);
            violations.check(pool <= largest && active <= largest, what + ": active " + active + " pool " + pool
                    + " largest " + largest);
            // No check of largest against the core size: ThreadPoolExecutor's replacement of exiting workers
            // (processWorkerExit -> addWorker(null, false), bounded by the maximum size) races with
            // setCorePoolSize and prestart, and the JDK's pool was seen at 4 workers with cores of at most 3.
            violations.check(e.getCorePoolSize() >= 0 && e.getMaximumPoolSize() == Integer.MAX_VALUE,
                    what + ": core " + e.getCorePoolSize() + " max " + e.getMaximumPoolSize());
            violations.check(e.getKeepAliveTime(TimeUnit.NANOSECONDS) > 0, what + ": keep-alive not positive");
            boolean terminated = e.isTerminated();
            violations.check(!terminated || e.isShutdown(), what + ": terminated but not shut down");
            violations.check(e.toString() != null, what + ": toString() null");
            e.getRejectedExecutionHandler();
            e.getThreadFactory();
            e.getRemoveOnCancelPolicy();
            e.getContinueExistingPeriodicTasksAfterShutdownPolicy();
            e.getExecuteExistingDelayedTasksAfterShutdownPolicy();
            e.allowsCoreThreadTimeOut();
            SoakTask t = round.pick(r.nextLong());
            Future<?> f = t == null ? null : t.future;
            if (f instanceof RunnableScheduledFuture<?> sf && t.owner == ex && !t.kind.periodic()
                    && t.kind.ordinal() <= SoakTask.Kind.SUBMIT_CALLABLE.ordinal()) {
                long d = sf.getDelay(TimeUnit.NANOSECONDS);
                violations.check(d <= t.delayNanos, what + ": getDelay " + d + " ns of task " + t.id
                        + " exceeds its delay " + t.delayNanos + " ns");
                violations.check(!sf.isPeriodic(), what + ": a one-shot task says isPeriodic()");
            }
        } catch (Throwable x) {
            violations.threw(what, x);
        }
    }
}
