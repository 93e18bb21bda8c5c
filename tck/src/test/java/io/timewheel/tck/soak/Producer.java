package io.timewheel.tck.soak;

import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
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
    private final Invocations invocations;
    private final Monitoring monitoring;
    /** Set before the thread starts. */
    Actor actor;

    Producer(SoakRound round, SplittableRandom r, int quota) {
        this.round = round;
        this.r = r;
        this.quota = quota;
        this.violations = round.violations;
        this.invocations = new Invocations(round, r);
        this.monitoring = new Monitoring(round, r);
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
            invocations.invokeAll(ex, actor);
        } else if (p < 50) {
            invocations.invokeAny(ex, actor);
        } else if (p < 63) {
            SoakTask t = round.pick(r.nextLong());
            if (t != null) {
                round.cancel(t, r.nextBoolean(), actor.name);
            }
        } else if (p < 66) {
            get();
        } else if (p < 69) {
            monitoring.remove(ex);
        } else if (p < 71) {
            call("purge on " + ex, ex.executor::purge);
        } else if (p < 80) {
            monitoring.queueOp(ex);
        } else if (p < 87) {
            monitoring.getters(ex);
        } else if (p < 92) {
            policy(ex);
        } else if (p < 96) {
            pool(ex);
        } else {
            lifecycleQueries(ex);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Tasks (invokeAll / invokeAny: Invocations)

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
        if (r.nextInt(100) < 5) {
            t.cancelBeforeRunAt = periodic ? r.nextInt(3) : 0;
            t.cancelBeforeRunInterrupts = r.nextBoolean();
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

    // ---------------------------------------------------------------------------------------------
    // Policies, pool, lifecycle queries

    private void policy(SoakExecutor ex) {
        boolean value = r.nextBoolean();
        ScheduledThreadPoolExecutor e = ex.executor;
        switch (r.nextInt(3)) {
            case 0 -> call("setRemoveOnCancelPolicy(" + value + ") on " + ex, () -> e.setRemoveOnCancelPolicy(value));
            case 1 -> ex.setPeriodicPolicy(value, violations);
            default -> ex.setDelayedPolicy(value, violations);
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
