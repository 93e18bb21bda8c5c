package io.timewheel.tck.soak;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A producer thread of a round: {@code quota} random calls of STPE's public API on the round's executors
 * (the four schedule forms, submit, execute, invokeAll / invokeAny timed and untimed, cancel, get, remove,
 * purge, every getQueue() operation, the getters, the policy and pool setters, awaitTermination), each
 * checked on the spot where the result alone says something (a getter inconsistency, a rejection by an
 * executor that is not shut down, an exception STPE would not throw). Its random source is seeded.
 */
final class Producer {
    private final SoakRound round;
    private final SplittableRandom r;
    private final int quota;
    private final Violations violations;
    /** Set before the thread starts. */
    Actor actor;

    Producer(SoakRound round, SplittableRandom r, int quota) {
        this.round = round;
        this.r = r;
        this.quota = quota;
        this.violations = round.violations;
    }

    void run() {
        try {
            for (int i = 0; i < quota; i++) {
                op();
                round.opCounter.incrementAndGet();
                round.tally.ops.increment();
            }
        } catch (InterruptedException e) {
            violations.check(round.finalPhase, actor.name + " interrupted before the end of the round");
        } catch (Throwable t) {
            violations.threw(actor.name + " (a bug of the soak suite?)", t);
        }
    }

    private void op() throws InterruptedException {
        SoakExecutor ex = round.executors.get(r.nextInt(round.executors.size()));
        int p = r.nextInt(100);
        if (p < 12) {
            schedule(ex, SoakTask.Kind.SCHEDULE_RUNNABLE);
        } else if (p < 22) {
            schedule(ex, SoakTask.Kind.SCHEDULE_CALLABLE);
        } else if (p < 27) {
            schedule(ex, SoakTask.Kind.FIXED_RATE);
        } else if (p < 32) {
            schedule(ex, SoakTask.Kind.FIXED_DELAY);
        } else if (p < 35) {
            schedule(ex, SoakTask.Kind.SUBMIT_RUNNABLE);
        } else if (p < 38) {
            schedule(ex, SoakTask.Kind.SUBMIT_RESULT);
        } else if (p < 41) {
            schedule(ex, SoakTask.Kind.SUBMIT_CALLABLE);
        } else if (p < 46) {
            schedule(ex, SoakTask.Kind.EXECUTE);
        } else if (p < 48) {
            invokeAll(ex);
        } else if (p < 50) {
            invokeAny(ex);
        } else if (p < 63) {
            SoakTask t = round.pick(r.nextLong());
            if (t != null) {
                round.cancel(t, r.nextBoolean(), actor.name);
            }
        } else if (p < 66) {
            get();
        } else if (p < 69) {
            remove(ex);
        } else if (p < 71) {
            call("purge on " + ex, ex.executor::purge);
        } else if (p < 80) {
            queueOp(ex);
        } else if (p < 87) {
            getters(ex);
        } else if (p < 92) {
            policy(ex);
        } else if (p < 96) {
            pool(ex);
        } else {
            lifecycleQueries(ex);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Tasks

    private void schedule(SoakExecutor ex, SoakTask.Kind kind) {
        boolean delayed = kind.ordinal() <= SoakTask.Kind.FIXED_DELAY.ordinal();
        Delays.Delay delay = delayed ? Delays.delay(r) : new Delays.Delay(0, TimeUnit.NANOSECONDS);
        Delays.Delay period = kind.periodic() ? Delays.period(r) : null;
        if (period != null) {
            delay = Delays.inUnit(delay, period.unit()); // one unit for the initial delay and the period
        }
        SoakTask t = round.newTask(kind, ex, delay, period);
        if (t == null) {
            return;
        }
        plan(t);
        ScheduledThreadPoolExecutor e = ex.executor;
        try {
            Future<?> f;
            switch (kind) {
                case SCHEDULE_RUNNABLE -> f = e.schedule((Runnable) t, delay.amount(), delay.unit());
                case SCHEDULE_CALLABLE -> f = e.schedule((Callable<Object>) t, delay.amount(), delay.unit());
                case FIXED_RATE -> f = e.scheduleAtFixedRate(t, delay.amount(), period.amount(), period.unit());
                case FIXED_DELAY -> f = e.scheduleWithFixedDelay(t, delay.amount(), period.amount(), period.unit());
                case SUBMIT_RUNNABLE -> f = e.submit((Runnable) t);
                case SUBMIT_RESULT -> f = e.submit(t, t);
                case SUBMIT_CALLABLE -> f = e.submit((Callable<Object>) t);
                default -> {
                    e.execute(t);
                    f = null;
                }
            }
            if (f != null) {
                round.futureOf(t, f);
            }
            t.accepted = true;
        } catch (RejectedExecutionException x) {
            t.rejected = true;
            violations.check(e.isShutdown(), kind + " of task " + t.id + ": rejected by a running executor " + ex);
        } catch (Throwable x) {
            violations.threw(kind + " of task " + t.id + " on " + ex + " (delay " + delay + ", period " + period + ")", x);
        } finally {
            t.callEnd = System.nanoTime();
        }
    }

    /** What the body will do, at which run. */
    private void plan(SoakTask t) {
        boolean periodic = t.kind.periodic();
        if (r.nextInt(100) < 5) {
            t.throwAt = periodic ? r.nextInt(5) : 0;
        }
        if (r.nextInt(100) < 5) {
            t.selfCancelAt = periodic ? r.nextInt(4) : 0;
            t.selfCancelInterrupts = r.nextBoolean();
        }
        if (r.nextInt(100) < 10) {
            t.otherCancelAt = periodic ? r.nextInt(3) : 0;
            t.otherPick = r.nextLong();
        }
        if (r.nextInt(100) < 3) {
            t.nestAt = 0;
            t.nestSeed = r.nextLong();
        }
        if (r.nextInt(100) < 3) {
            t.queueOpAt = periodic ? r.nextInt(3) : 0;
            t.queueOpSeed = r.nextLong();
        }
    }

    private List<SoakTask> invokeTasks(SoakExecutor ex, SoakTask.Kind kind) {
        int n = 1 + r.nextInt(4);
        List<SoakTask> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SoakTask t = round.newTask(kind, ex, new Delays.Delay(0, TimeUnit.NANOSECONDS), null);
            if (t == null) {
                return List.of();
            }
            if (r.nextInt(100) < 15) {
                t.throwAt = 0;
            }
            list.add(t);
        }
        return list;
    }

    private void invokeAll(SoakExecutor ex) throws InterruptedException {
        List<SoakTask> tasks = invokeTasks(ex, SoakTask.Kind.INVOKE_ALL);
        if (tasks.isEmpty()) {
            return;
        }
        boolean timed = r.nextBoolean();
        long timeoutMicros = r.nextLong(3_000);
        String what = (timed ? "timed " : "") + "invokeAll on " + ex + " of tasks " + ids(tasks);
        List<Future<Object>> futures;
        try {
            if (timed) {
                futures = ex.executor.invokeAll(tasks, timeoutMicros, TimeUnit.MICROSECONDS);
            } else {
                actor.blocked();
                try {
                    futures = ex.executor.invokeAll(tasks);
                } finally {
                    actor.running();
                }
            }
        } catch (RejectedExecutionException x) {
            violations.check(ex.executor.isShutdown(), what + ": rejected by a running executor");
            return;
        } catch (InterruptedException x) {
            throw x;
        } catch (Throwable x) {
            violations.threw(what, x);
            return;
        }
        if (futures.size() != tasks.size()) {
            violations.add(what + " returned " + futures.size() + " futures");
            return;
        }
        for (int i = 0; i < tasks.size(); i++) {
            SoakTask t = tasks.get(i);
            Future<Object> f = futures.get(i);
            round.futureOf(t, f);
            t.accepted = true;
            violations.check(f.isDone(), what + ": a future not done after invokeAll returned: " + t.describe());
            if (f.isDone() && !f.isCancelled()) {
                checkOutcome(t, f, what);
            }
        }
    }

    private void invokeAny(SoakExecutor ex) throws InterruptedException {
        List<SoakTask> tasks = invokeTasks(ex, SoakTask.Kind.INVOKE_ANY);
        if (tasks.isEmpty()) {
            return;
        }
        boolean timed = r.nextBoolean();
        long timeoutMicros = r.nextLong(3_000);
        String what = (timed ? "timed " : "") + "invokeAny on " + ex + " of tasks " + ids(tasks);
        Object result;
        try {
            if (timed) {
                result = ex.executor.invokeAny(tasks, timeoutMicros, TimeUnit.MICROSECONDS);
            } else {
                actor.blocked();
                try {
                    result = ex.executor.invokeAny(tasks);
                } finally {
                    actor.running();
                }
            }
        } catch (RejectedExecutionException x) {
            violations.check(ex.executor.isShutdown(), what + ": rejected by a running executor");
            return;
        } catch (TimeoutException x) {
            violations.check(timed, what + ": TimeoutException from the untimed form");
            return;
        } catch (ExecutionException x) {
            // Only when every task failed: the last failure, one of our planned exceptions.
            boolean allThrew = tasks.stream().allMatch(t -> t.threw);
            violations.check(allThrew && x.getCause() instanceof SoakTask.Planned,
                    what + ": ExecutionException although not every task failed: " + x.getCause());
            return;
        } catch (InterruptedException x) {
            throw x;
        } catch (Throwable x) {
            violations.threw(what, x);
            return;
        }
        if (!(result instanceof SoakTask t) || !tasks.contains(t)) {
            violations.add(what + " returned " + result + ", not one of its tasks");
        } else {
            violations.check(t.runs.get() == 1 && !t.threw, what + " returned task " + t.id
                    + " which did not complete normally once: " + t.describe());
        }
    }

    private static String ids(List<SoakTask> tasks) {
        StringBuilder sb = new StringBuilder();
        for (SoakTask t : tasks) {
            sb.append(sb.length() == 0 ? "" : ",").append(t.id);
        }
        return sb.toString();
    }

    /** A done, not cancelled future: its result (or failure) must be the task's. */
    void checkOutcome(SoakTask t, Future<?> f, String what) {
        checkOutcome(t, f, what, violations);
    }

    static void checkOutcome(SoakTask t, Future<?> f, String what, Violations violations) {
        try {
            Object v = f.get();
            violations.check(!t.kind.periodic(), what + ": a periodic task's future completed normally: "
                    + t.describe());
            violations.check(v == t.expectedResult() && t.runs.get() == 1 && !t.threw,
                    what + ": get() returned " + v + " for " + t.describe());
        } catch (ExecutionException x) {
            violations.check(x.getCause() instanceof SoakTask.Planned p && p.id == t.id && t.threw,
                    what + ": ExecutionException with cause " + x.getCause() + " for " + t.describe());
        } catch (CancellationException x) {
            violations.add(what + ": get() threw CancellationException though isCancelled() was false: "
                    + t.describe());
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private void get() throws InterruptedException {
        SoakTask t = round.pick(r.nextLong());
        Future<?> f = t == null ? null : t.future;
        if (f == null) {
            return;
        }
        String what = "get on task " + t.id;
        try {
            long timeout = r.nextInt(4) == 0 ? 0 : r.nextLong(200_000);
            Object v = f.get(timeout, TimeUnit.NANOSECONDS);
            violations.check(!t.kind.periodic(), what + ": a periodic task's future completed normally: "
                    + t.describe());
            violations.check(v == t.expectedResult() && t.runs.get() == 1 && !t.threw && f.isDone()
                    && !f.isCancelled(), what + ": returned " + v + " for " + t.describe());
        } catch (TimeoutException x) {
            // not done yet
        } catch (CancellationException x) {
            violations.check(f.isCancelled(), what + ": CancellationException but not isCancelled()");
        } catch (ExecutionException x) {
            violations.check(x.getCause() instanceof SoakTask.Planned p && p.id == t.id && t.threw,
                    what + ": ExecutionException with cause " + x.getCause() + " for " + t.describe());
        } catch (InterruptedException x) {
            throw x;
        } catch (Throwable x) {
            violations.threw(what, x);
        }
    }

    private void remove(SoakExecutor ex) {
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

    private void queueOp(SoakExecutor ex) throws InterruptedException {
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
    // Getters, policies, pool, lifecycle queries

    private void getters(SoakExecutor ex) {
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

    private void policy(SoakExecutor ex) {
        boolean value = r.nextBoolean();
        ScheduledThreadPoolExecutor e = ex.executor;
        switch (r.nextInt(3)) {
            case 0 -> call("setRemoveOnCancelPolicy(" + value + ") on " + ex, () -> e.setRemoveOnCancelPolicy(value));
            case 1 -> call("setContinueExistingPeriodicTasksAfterShutdownPolicy(" + value + ") on " + ex,
                    () -> e.setContinueExistingPeriodicTasksAfterShutdownPolicy(value));
            default -> {
                if (!value) {
                    ex.delayedEverDropped = true;
                }
                call("setExecuteExistingDelayedTasksAfterShutdownPolicy(" + value + ") on " + ex,
                        () -> e.setExecuteExistingDelayedTasksAfterShutdownPolicy(value));
            }
        }
    }

    private void pool(SoakExecutor ex) {
        ScheduledThreadPoolExecutor e = ex.executor;
        switch (r.nextInt(5)) {
            case 0 -> {
                int core = r.nextInt(4);
                call("setCorePoolSize(" + core + ") on " + ex, () -> e.setCorePoolSize(core));
            }
            case 1 -> call("prestartCoreThread on " + ex, e::prestartCoreThread);
            case 2 -> call("prestartAllCoreThreads on " + ex, e::prestartAllCoreThreads);
            case 3 -> {
                long micros = 1 + r.nextLong(20_000);
                call("setKeepAliveTime(" + micros + " us) on " + ex, () -> e.setKeepAliveTime(micros, TimeUnit.MICROSECONDS));
            }
            default -> {
                boolean value = r.nextBoolean();
                call("allowCoreThreadTimeOut(" + value + ") on " + ex, () -> e.allowCoreThreadTimeOut(value));
            }
        }
    }

    private void lifecycleQueries(SoakExecutor ex) throws InterruptedException {
        ScheduledThreadPoolExecutor e = ex.executor;
        String what = "awaitTermination on " + ex;
        try {
            boolean terminated = e.awaitTermination(r.nextLong(1_000), TimeUnit.MICROSECONDS);
            violations.check(!terminated || e.isTerminated() && e.isShutdown() && !e.isTerminating(),
                    what + ": returned true but isTerminated()=" + e.isTerminated() + " isTerminating()="
                            + e.isTerminating());
            violations.check(terminated || !e.isShutdown() || ex.shutdownBegan,
                    what + ": shut down before any shutdown call");
        } catch (InterruptedException x) {
            throw x;
        } catch (Throwable x) {
            violations.threw(what, x);
        }
    }

    private void call(String what, Runnable call) {
        try {
            call.run();
        } catch (Throwable x) {
            violations.threw(what, x);
        }
    }
}
