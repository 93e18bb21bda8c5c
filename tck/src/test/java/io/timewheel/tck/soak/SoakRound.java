package io.timewheel.tck.soak;

import io.timewheel.tck.Impl;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * One round: 1 to 3 fresh executors (on the wheel, each with the shared or a dedicated tick thread), 1 to 3
 * producer threads making random calls on them ({@link Producer}), and a controller thread that shuts each
 * executor down (shutdown, shutdownNow, close, or not at all) at a random point of the producers' work.
 * When every thread is done or blocked in a call that may wait for ever, the round calls shutdownNow on
 * every executor, interrupts the producers, waits for every thread and every executor to end, and hands
 * everything to the {@link Oracle}.
 */
final class SoakRound {
    private static final long STUCK_SECONDS = 60;
    private static final Method CLOSE = closeMethod();

    final Impl impl;
    final int opsTarget;
    final Tally tally;
    final Violations violations;
    final List<SoakExecutor> executors = new ArrayList<>();
    private final SplittableRandom random;

    // The registry of every task made this round (by producers and by tasks), and its futures.
    private final AtomicReferenceArray<SoakTask> tasks;
    private final AtomicInteger taskCount = new AtomicInteger();
    private final Map<Object, SoakTask> byFuture = Collections.synchronizedMap(new IdentityHashMap<>());
    /** Queue elements taken out for sure, per executor; resolved against byFuture by the oracle. */
    final List<ConcurrentLinkedQueue<Object>> takenElements = new ArrayList<>();
    final List<ConcurrentLinkedQueue<Object>> returnedElements = new ArrayList<>();
    final List<ConcurrentLinkedQueue<Object>> maybeTakenElements = new ArrayList<>();

    /** Producer operations made so far this round. */
    final AtomicLong opCounter = new AtomicLong();
    /** Set when the round interrupts its producers: from then on an InterruptedException is expected. */
    volatile boolean finalPhase;
    private final List<Actor> producers = new ArrayList<>();

    SoakRound(Impl impl, long seed, int opsTarget, Tally tally, Violations violations) {
        this.impl = impl;
        this.opsTarget = opsTarget;
        this.tally = tally;
        this.violations = violations;
        this.random = new SplittableRandom(seed);
        this.tasks = new AtomicReferenceArray<>(opsTarget * 4 + 256);
    }

    void run() throws InterruptedException {
        int executorCount = 1 + random.nextInt(3);
        for (int i = 0; i < executorCount; i++) {
            SoakHooks hooks = random.nextInt(3) == 0 ? new SoakHooks(random.nextBoolean(), this) : null;
            SoakExecutor ex = new SoakExecutor(impl, i, random.nextInt(4), random.nextBoolean(), factory(i), hooks);
            configure(ex);
            executors.add(ex);
            takenElements.add(new ConcurrentLinkedQueue<>());
            returnedElements.add(new ConcurrentLinkedQueue<>());
            maybeTakenElements.add(new ConcurrentLinkedQueue<>());
        }
        tally.executors.add(executorCount);
        int producerCount = 1 + random.nextInt(3);
        for (int p = 0; p < producerCount; p++) {
            Producer producer = new Producer(this, random.split(), opsTarget / producerCount);
            Actor actor = new Actor("soak-" + impl + "-producer-" + p, producer::run);
            producer.actor = actor;
            producers.add(actor);
        }
        Actor controller = new Actor("soak-" + impl + "-controller", controllerPlan(random.split()));
        controllerActor = controller;
        List<Actor> actors = new ArrayList<>(producers);
        actors.add(controller);
        try {
            actors.forEach(a -> a.thread.start());
            if (!waitUntil(() -> actors.stream().allMatch(Actor::idle))) {
                violations.add("threads still busy after " + STUCK_SECONDS + " s: " + stacks(actors));
            }
            finish(actors);
        } finally {
            for (SoakExecutor ex : executors) {
                ex.executor.shutdownNow(); // a no-op unless the round failed half way
            }
        }
        new Oracle(this).account();
        tally.rounds.increment();
    }

    private void configure(SoakExecutor ex) {
        ex.executor.setRemoveOnCancelPolicy(random.nextBoolean());
        ex.setPeriodicPolicy(random.nextInt(4) == 0, violations);
        ex.setDelayedPolicy(random.nextInt(3) != 0, violations);
        if (random.nextInt(4) == 0) {
            ex.executor.setKeepAliveTime(1 + random.nextInt(20_000), TimeUnit.MICROSECONDS);
            ex.executor.allowCoreThreadTimeOut(true);
        }
        if (random.nextInt(4) == 0) {
            ex.executor.prestartAllCoreThreads();
        }
    }

    private ThreadFactory factory(int executor) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "soak-" + impl + "-e" + executor + "-w" + n.incrementAndGet());
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((thread, e) -> violations.add("uncaught in " + thread.getName() + ": " + e));
            return t;
        };
    }

    // ---------------------------------------------------------------------------------------------
    // The controller: one shutdown-class action per executor (or none), at a random operation count.

    private enum Action { NONE, SHUTDOWN, SHUTDOWN_NOW, CLOSE }

    private Runnable controllerPlan(SplittableRandom r) {
        List<long[]> plan = new ArrayList<>(); // {at, executor, action ordinal}
        for (SoakExecutor ex : executors) {
            int p = r.nextInt(100);
            Action action = p < 15 ? Action.NONE : p < 50 ? Action.SHUTDOWN : p < 80 ? Action.SHUTDOWN_NOW
                    : CLOSE != null ? Action.CLOSE : Action.SHUTDOWN;
            // Mostly in the second half of the producers' work, so that most calls meet a running executor.
            long at = r.nextInt(4) == 0 ? r.nextLong(opsTarget) : opsTarget / 2 + r.nextLong(opsTarget - opsTarget / 2);
            plan.add(new long[] {at, ex.index, action.ordinal()});
            if (action == Action.SHUTDOWN && r.nextInt(3) == 0) {
                plan.add(new long[] {at + r.nextLong(opsTarget - at + 1), ex.index, Action.SHUTDOWN_NOW.ordinal()});
            }
        }
        plan.sort((a, b) -> Long.compare(a[0], b[0]));
        return () -> {
            Actor me = currentActor();
            for (long[] step : plan) {
                while (opCounter.get() < step[0] && !producers.stream().allMatch(Actor::idle)) {
                    LockSupport.parkNanos(20_000);
                }
                SoakExecutor ex = executors.get((int) step[1]);
                lifecycle(ex, Action.values()[(int) step[2]], me);
            }
        };
    }

    /** Set before the controller's thread starts. */
    private Actor controllerActor;

    private Actor currentActor() {
        return controllerActor;
    }

    private void lifecycle(SoakExecutor ex, Action action, Actor me) {
        if (action == Action.NONE) {
            return;
        }
        tally.ops.increment();
        try {
            switch (action) {
                case SHUTDOWN -> {
                    ex.shutdownPassBeginning();
                    ex.executor.shutdown();
                }
                case SHUTDOWN_NOW -> returned(ex, ex.shutdownNow());
                default -> {
                    ex.shutdownPassBeginning(); // close() calls shutdown()
                    if (me != null) {
                        me.blocked();
                    }
                    try {
                        CLOSE.invoke(ex.executor);
                    } finally {
                        if (me != null) {
                            me.running();
                        }
                    }
                }
            }
            violations.check(ex.executor.isShutdown(), action + " on " + ex + ": isShutdown() false afterwards");
        } catch (InvocationTargetException e) {
            violations.threw("close() on " + ex, e.getCause());
        } catch (Throwable t) {
            violations.threw(action + " on " + ex, t);
        }
    }

    void returned(SoakExecutor ex, List<Runnable> list) {
        for (Runnable r : list) {
            if (r == null) {
                violations.add("shutdownNow on " + ex + " returned a null element");
                continue;
            }
            SoakTask t = byFuture.get(r);
            if (t != null) {
                t.returnedByShutdownNow = true;
                t.taken = true;
            }
            returnedElements.get(ex.index).add(r);
        }
    }

    /** A queue element the caller took out (remove, poll, drainTo): it must never run. */
    void taken(SoakExecutor ex, Object element) {
        SoakTask t = byFuture.get(element);
        if (t != null) {
            t.taken = true;
        }
        takenElements.get(ex.index).add(element);
    }

    /** A queue element the iterator's remove() was called on: it may have been taken out. */
    void maybeTaken(SoakExecutor ex, Object element) {
        SoakTask t = byFuture.get(element);
        if (t != null) {
            t.maybeTaken = true;
        }
        maybeTakenElements.get(ex.index).add(element);
    }

    // ---------------------------------------------------------------------------------------------
    // The end of the round

    private void finish(List<Actor> actors) throws InterruptedException {
        finalPhase = true;
        for (SoakExecutor ex : executors) {
            try {
                returned(ex, ex.shutdownNow());
            } catch (Throwable t) {
                violations.threw("final shutdownNow on " + ex, t);
            }
        }
        producers.forEach(a -> a.thread.interrupt());
        for (Actor a : actors) {
            a.thread.join(TimeUnit.SECONDS.toMillis(STUCK_SECONDS));
            if (a.thread.isAlive()) {
                violations.add(a.name + " did not end after the final shutdownNow: " + stack(a.thread));
            }
        }
        for (SoakExecutor ex : executors) {
            if (!ex.executor.awaitTermination(STUCK_SECONDS, TimeUnit.SECONDS)) {
                violations.add(ex + " did not terminate within " + STUCK_SECONDS + " s of shutdownNow: " + ex.executor);
            }
        }
    }

    private static boolean waitUntil(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STUCK_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(50_000);
        }
        return true;
    }

    private static String stacks(List<Actor> actors) {
        StringBuilder sb = new StringBuilder();
        for (Actor a : actors) {
            if (!a.idle()) {
                sb.append(a.name).append(": ").append(stack(a.thread)).append("; ");
            }
        }
        return sb.toString();
    }

    private static String stack(Thread t) {
        StringBuilder sb = new StringBuilder();
        StackTraceElement[] trace = t.getStackTrace();
        for (int i = 0; i < Math.min(trace.length, 12); i++) {
            sb.append(trace[i]).append(" < ");
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------------------------------------
    // The registry, and what task bodies call

    /** Registers a new task; null when the round's registry is full. */
    SoakTask newTask(SoakTask.Kind kind, SoakExecutor owner, Delays.Delay delay, Delays.Delay period) {
        int id = taskCount.getAndIncrement();
        if (id >= tasks.length()) {
            taskCount.decrementAndGet();
            return null;
        }
        SoakTask t = new SoakTask(id, kind, owner, this, delay, period, System.nanoTime());
        tasks.set(id, t);
        tally.tasks.increment();
        if (kind.periodic()) {
            tally.periodic.increment();
        }
        return t;
    }

    void futureOf(SoakTask t, Future<?> f) {
        byFuture.put(f, t);
        t.future = f;
    }

    SoakTask taskOf(Object future) {
        return byFuture.get(future);
    }

    int taskCount() {
        return Math.min(taskCount.get(), tasks.length());
    }

    SoakTask task(int id) {
        return tasks.get(id);
    }

    /** A task chosen by {@code pick}: half the time among the 64 newest. Null if none yet. */
    SoakTask pick(long pick) {
        int n = taskCount();
        if (n == 0) {
            return null;
        }
        long bits = pick >>> 2;
        int index = (pick & 2) == 0 ? n - 1 - (int) (bits % Math.min(n, 64)) : (int) (bits % n);
        return tasks.get(index);
    }

    /** Cancels {@code t}'s future and checks the result against FutureTask's semantics. */
    void cancel(SoakTask t, boolean mayInterrupt, String who) {
        Future<?> f = t.future;
        if (f == null) {
            return;
        }
        tally.ops.increment();
        boolean result;
        try {
            result = f.cancel(mayInterrupt);
        } catch (Throwable e) {
            violations.threw(who + ": cancel(" + mayInterrupt + ")", e);
            return;
        }
        if (result) {
            t.afterCancel.cancelReturnedTrue(mayInterrupt); // first: a body starting from now on is after it
        }
        t.cancelled(who, mayInterrupt, result);
        if (result) {
            t.cancelReturnedTrue = true;
            if (!f.isCancelled() || !f.isDone()) {
                violations.add(who + ": cancel returned true but isCancelled()=" + f.isCancelled() + " isDone()="
                        + f.isDone() + ": " + t.describe());
            }
        } else if (!f.isDone()) {
            violations.add(who + ": cancel returned false on a future not done: " + t.describe());
        }
    }

    /** A task body schedules a one-shot task on a random executor (it may be rejected after shutdown). */
    void nest(long seed, int parent) {
        SplittableRandom r = new SplittableRandom(seed);
        SoakExecutor ex = executors.get(r.nextInt(executors.size()));
        Delays.Delay delay = Delays.delay(r);
        SoakTask t = newTask(SoakTask.Kind.SCHEDULE_CALLABLE, ex, delay, null);
        if (t == null) {
            return;
        }
        tally.ops.increment();
        try {
            futureOf(t, ex.executor.schedule((java.util.concurrent.Callable<Object>) t, delay.amount(), delay.unit()));
            t.accepted = true;
        } catch (RejectedExecutionException e) {
            t.rejected = true;
            violations.check(ex.executor.isShutdown(), "task " + parent + " scheduling task " + t.id
                    + ": rejected by a running executor");
        } catch (Throwable e) {
            violations.threw("task " + parent + " scheduling task " + t.id + " on " + ex, e);
        } finally {
            t.callEnd = System.nanoTime();
        }
    }

    /**
     * A task body works on an executor's queue from a worker thread (perhaps its own executor's, while its
     * periodic siblings re-arm): purge, toArray, the iterator, or remove of another task.
     */
    void queueOpFromTask(long seed, int id) {
        SplittableRandom r = new SplittableRandom(seed);
        SoakExecutor ex = executors.get(r.nextInt(executors.size()));
        String what = "task " + id + " calling ";
        tally.ops.increment();
        try {
            switch (r.nextInt(4)) {
                case 0 -> {
                    what += "purge on " + ex;
                    ex.executor.purge();
                }
                case 1 -> {
                    what += "getQueue().toArray() on " + ex;
                    for (Object e : ex.executor.getQueue().toArray()) {
                        violations.check(e instanceof java.util.concurrent.RunnableScheduledFuture,
                                what + ": element " + e);
                    }
                }
                case 2 -> {
                    what += "getQueue().iterator() on " + ex;
                    for (Runnable e : ex.executor.getQueue()) {
                        violations.check(e != null, what + ": a null element");
                    }
                }
                default -> {
                    SoakTask t = pick(r.nextLong());
                    Future<?> f = t == null ? null : t.future;
                    what += "remove(task " + (t == null ? "-" : t.id) + ") on " + ex;
                    if (f instanceof Runnable runnable && ex.executor.remove(runnable)) {
                        violations.check(t.owner == ex, what + ": removed a task of another executor");
                        taken(ex, runnable);
                    }
                }
            }
        } catch (Throwable e) {
            violations.threw(what, e);
        }
    }

    private static Method closeMethod() {
        try {
            return ExecutorService.class.getMethod("close"); // Java 19+
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
