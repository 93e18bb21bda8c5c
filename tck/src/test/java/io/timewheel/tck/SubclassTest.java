package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A subclass of the executor class (STPE for the JDK, WheelScheduledExecutorService for the wheel) that
 * overrides public methods and hooks sees exactly the calls it would see on the JDK: STPE implements
 * execute and the submits by calling its own (overridable) schedule methods, AbstractExecutorService's
 * invokeAll / invokeAny go through execute and newTaskFor, and ExecutorService.close calls shutdown.
 */
class SubclassTest extends TckTest {

    /** One observed call of a public method. */
    private static final class Call {
        final String method;
        final Object task;
        final long delay;
        final TimeUnit unit;

        Call(String method, Object task, long delay, TimeUnit unit) {
            this.method = method;
            this.task = task;
            this.delay = delay;
            this.unit = unit;
        }

        @Override
        public String toString() {
            return method + "(" + delay + " " + unit + ")";
        }
    }

    /** Records the self-use calls. */
    private static class CallRecorder implements Hooks {
        final List<Call> calls = new CopyOnWriteArrayList<>();

        @Override
        public void onExecute(Runnable command) {
            calls.add(new Call("execute", command, -1, null));
        }

        @Override
        public void onScheduleRunnable(Runnable command, long delay, TimeUnit unit) {
            calls.add(new Call("scheduleRunnable", command, delay, unit));
        }

        @Override
        public void onScheduleCallable(Callable<?> callable, long delay, TimeUnit unit) {
            calls.add(new Call("scheduleCallable", callable, delay, unit));
        }

        @Override
        public void onSubmit(Object task) {
            calls.add(new Call("submit", task, -1, null));
        }

        @Override
        public void onShutdown() {
            calls.add(new Call("shutdown", null, -1, null));
        }

        @Override
        public void onShutdownNow() {
            calls.add(new Call("shutdownNow", null, -1, null));
        }

        List<String> methods() {
            List<String> names = new ArrayList<>();
            for (Call c : calls) {
                names.add(c.method);
            }
            return names;
        }
    }

    @BothImpls
    void subclass_viaEveryConstructor_keepsTheArguments(Impl impl) {
        ThreadFactory factory = Executors.defaultThreadFactory();
        RejectedExecutionHandler handler = new ThreadPoolExecutor.CallerRunsPolicy();
        Hooks none = new Hooks() { };
        List<ScheduledThreadPoolExecutor> all = List.of(subclass(impl, 2, none), subclass(impl, 2, factory, none),
                subclass(impl, 2, handler, none), track(impl.subclass(2, factory, handler, none)));
        for (ScheduledThreadPoolExecutor e : all) {
            assertTrue(impl.type().isInstance(e));
            assertNotSame(impl.type(), e.getClass());
            assertEquals(2, e.getCorePoolSize());
        }
        assertSame(factory, all.get(1).getThreadFactory());
        assertSame(handler, all.get(2).getRejectedExecutionHandler());
        assertSame(factory, all.get(3).getThreadFactory());
        assertSame(handler, all.get(3).getRejectedExecutionHandler());
    }

    @BothImpls
    void executeAndSubmitRunnable_callTheSubclassesScheduleRunnable_withZeroNanoseconds(Impl impl) throws Exception {
        // STPE.execute(r) is schedule(r, 0, NANOSECONDS); STPE.submit(r) likewise.
        CallRecorder hooks = new CallRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Runnable r1 = () -> { };
        Runnable r2 = () -> { };
        e.execute(r1);
        get(e.submit(r2));
        assertEquals(List.of("execute", "scheduleRunnable", "submit", "scheduleRunnable"), hooks.methods());
        Call fromExecute = hooks.calls.get(1);
        Call fromSubmit = hooks.calls.get(3);
        assertSame(r1, fromExecute.task);
        assertSame(r2, fromSubmit.task);
        for (Call c : List.of(fromExecute, fromSubmit)) {
            assertEquals(0, c.delay);
            assertSame(NANOSECONDS, c.unit);
        }
    }

    @BothImpls
    void submitCallableAndSubmitRunnableWithResult_callTheSubclassesScheduleCallable(Impl impl) throws Exception {
        CallRecorder hooks = new CallRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        Callable<String> c = () -> "c";
        Runnable r = () -> { };
        assertEquals("c", get(e.submit(c)));
        assertEquals("v", get(e.submit(r, "v")));
        assertEquals(List.of("submit", "scheduleCallable", "submit", "scheduleCallable"), hooks.methods());
        assertSame(c, hooks.calls.get(1).task);
        assertNotSame(r, hooks.calls.get(3).task); // Executors.callable(r, "v")
        for (Call call : List.of(hooks.calls.get(1), hooks.calls.get(3))) {
            assertEquals(0, call.delay);
            assertSame(NANOSECONDS, call.unit);
        }
    }

    @BothImpls
    void scheduleAndSubmit_doNotGoThroughExecute(Impl impl) throws Exception {
        CallRecorder hooks = new CallRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        get(e.submit(() -> { }));
        get(e.submit(() -> "c"));
        get(e.submit(() -> { }, "v"));
        get(e.schedule(() -> { }, 1, NANOSECONDS));
        ScheduledFuture<?> periodic = e.scheduleAtFixedRate(() -> { }, 1, 1, SECONDS);
        periodic.cancel(false);
        assertFalse(hooks.methods().contains("execute"), hooks.methods().toString());
    }

    @BothImpls
    void invokeAll_executesTheSubclassesNewTaskForTasks_throughExecute(Impl impl) throws Exception {
        List<RunnableFuture<?>> made = new CopyOnWriteArrayList<>();
        CallRecorder hooks = new CallRecorder() {
            @Override
            public <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
                RunnableFuture<T> task = new FutureTask<>(callable);
                made.add(task);
                return task;
            }
        };
        ScheduledThreadPoolExecutor e = subclass(impl, 2, hooks);
        List<Future<Integer>> results = e.invokeAll(List.of(() -> 1, () -> 2));
        assertEquals(2, made.size());
        assertSame(made.get(0), results.get(0));
        assertSame(made.get(1), results.get(1));
        assertEquals(1, results.get(0).get());
        assertEquals(2, results.get(1).get());
        List<Object> executed = new ArrayList<>();
        for (Call c : hooks.calls) {
            if (c.method.equals("execute")) {
                executed.add(c.task);
            }
        }
        assertSameElements(made, executed);
    }

    @BothImpls
    void invokeAny_goesThroughTheSubclassesExecute(Impl impl) throws Exception {
        CallRecorder hooks = new CallRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        assertEquals("only", e.invokeAny(List.of(() -> "only")));
        assertTrue(hooks.methods().contains("execute"), hooks.methods().toString());
        assertTrue(hooks.methods().contains("scheduleRunnable"), hooks.methods().toString());
    }

    @BothImpls
    void newTaskFor_isNotUsedBySubmit(Impl impl) throws Exception {
        // STPE overrides every submit with schedule(...), bypassing AbstractExecutorService.newTaskFor.
        AtomicInteger newTaskForCalls = new AtomicInteger();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
                newTaskForCalls.incrementAndGet();
                return null;
            }

            @Override
            public <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
                newTaskForCalls.incrementAndGet();
                return null;
            }
        });
        assertInstanceOf(RunnableScheduledFuture.class, e.submit(() -> "c"));
        assertInstanceOf(RunnableScheduledFuture.class, e.submit(() -> { }));
        assertInstanceOf(RunnableScheduledFuture.class, e.submit(() -> { }, "v"));
        assertEquals(0, newTaskForCalls.get());
    }

    @BothImpls
    void close_callsTheSubclassesShutdown(Impl impl) throws Throwable {
        assumeTrue(javaFeature() >= 19, "ExecutorService.close() is Java 19+");
        CallRecorder hooks = new CallRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        get(e.submit(() -> { }));
        hooks.calls.clear();
        close(e);
        assertEquals(List.of("shutdown"), hooks.methods());
    }

    @BothImpls
    void closeWhenInterrupted_callsTheSubclassesShutdownNow(Impl impl) throws Throwable {
        assumeTrue(javaFeature() >= 19, "ExecutorService.close() is Java 19+");
        CallRecorder hooks = new CallRecorder();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, hooks);
        e.schedule(() -> { }, 1, TimeUnit.HOURS);
        hooks.calls.clear();
        Thread.currentThread().interrupt();
        try {
            close(e);
        } finally {
            Thread.interrupted();
        }
        assertEquals(List.of("shutdown", "shutdownNow"), hooks.methods());
    }

    @BothImpls
    void beforeExecute_canInstallPerTaskContext_thatAfterExecuteClears(Impl impl) throws Exception {
        ThreadLocal<String> context = new ThreadLocal<>();
        List<String> leftOver = new CopyOnWriteArrayList<>();
        AtomicInteger counter = new AtomicInteger();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
                if (context.get() != null) {
                    leftOver.add(context.get());
                }
                context.set("ctx-" + counter.incrementAndGet());
            }

            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                context.remove();
            }
        });
        List<Future<String>> seen = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            seen.add(e.schedule(context::get, i, TimeUnit.MILLISECONDS));
        }
        for (int i = 0; i < 5; i++) {
            assertEquals("ctx-" + (i + 1), get(seen.get(i)));
        }
        assertTrue(leftOver.isEmpty());
    }

    @BothImpls
    void afterExecute_javadocIdiom_findsEveryFailure(Impl impl) throws Exception {
        // The ThreadPoolExecutor.afterExecute javadoc idiom: when t is null and r is a done Future, get() it.
        IllegalStateException oneShotFailure = new IllegalStateException("one-shot");
        IllegalStateException periodicFailure = new IllegalStateException("periodic");
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger afterCalls = new AtomicInteger();
        ScheduledThreadPoolExecutor e = subclass(impl, 1, new Hooks() {
            @Override
            public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
                assertNull(t);
                if (r instanceof Future<?> && ((Future<?>) r).isDone()) {
                    try {
                        ((Future<?>) r).get();
                    } catch (ExecutionException x) {
                        failures.add(x.getCause());
                    } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                    }
                }
                afterCalls.incrementAndGet();
            }
        });
        AtomicInteger runs = new AtomicInteger();
        List<Future<?>> futures = List.of(e.submit(() -> "ok"), e.submit(() -> {
            throw oneShotFailure;
        }), e.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 2) {
                throw periodicFailure;
            }
        }, 0, 1, TimeUnit.MILLISECONDS));
        for (Future<?> f : futures) {
            try {
                get(f);
            } catch (ExecutionException expected) {
                // reported through afterExecute too
            }
        }
        awaitUntil("all after hooks", () -> afterCalls.get() == 4);
        assertSameElements(List.of(oneShotFailure, periodicFailure), failures);
    }
}
