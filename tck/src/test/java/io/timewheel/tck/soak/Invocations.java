package io.timewheel.tck.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A producer's invokeAll and invokeAny calls, timed and untimed, with 1 to 4 tasks due at once (some planned
 * to fail). An untimed call marks its actor blocked: its tasks may have been taken away by shutdownNow or a
 * queue operation, and then only the round's final interrupt ends it, as on STPE.
 */
final class Invocations {
    private final SoakRound round;
    private final SplittableRandom r;
    private final Violations violations;

    Invocations(SoakRound round, SplittableRandom r) {
        this.round = round;
        this.r = r;
        this.violations = round.violations;
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

    void invokeAll(SoakExecutor ex, Actor actor) throws InterruptedException {
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
                t.checkOutcome(f, what, violations);
            }
        }
    }

    void invokeAny(SoakExecutor ex, Actor actor) throws InterruptedException {
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
}
