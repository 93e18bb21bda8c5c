package sampleapp;

import sampleapp.legacy.LegacyScheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Every swap the agent makes, observed from an ordinary application: prints {@code key=value} lines.
 * Run with {@code --add-opens java.base/java.util.concurrent=ALL-UNNAMED} to see inside the JDK wrappers.
 */
public class SwapApp {

    static final ScheduledThreadPoolExecutor STATIC_FIELD = new ScheduledThreadPoolExecutor(1);

    public static void main(String[] args) throws Exception {
        Observe.print("java", Runtime.version().feature());
        factories();
        constructions();
        castsAndSetters();
        subclasses();
        Observe.print("legacy", LegacyScheduler.create().getClass().getName());
        Observe.print("jdk.delayer", delayer());
        Observe.print("tickNanos", System.getProperty("timewheel.tickNanos"));
        Observe.print("done", "true");
    }

    static void factories() {
        ThreadFactory factory = Executors.defaultThreadFactory();
        check("factory.newScheduledThreadPool(int)", Executors.newScheduledThreadPool(2));
        check("factory.newScheduledThreadPool(int,ThreadFactory)", Executors.newScheduledThreadPool(2, factory));
        check("factory.newSingleThreadScheduledExecutor()", Executors.newSingleThreadScheduledExecutor());
        check("factory.newSingleThreadScheduledExecutor(ThreadFactory)", Executors.newSingleThreadScheduledExecutor(factory));
    }

    static void constructions() {
        ThreadFactory factory = Executors.defaultThreadFactory();
        RejectedExecutionHandler handler = new ThreadPoolExecutor.CallerRunsPolicy();
        check("new(int)", new ScheduledThreadPoolExecutor(1));
        check("new(int,ThreadFactory)", new ScheduledThreadPoolExecutor(1, factory));
        check("new(int,RejectedExecutionHandler)", new ScheduledThreadPoolExecutor(1, handler));
        check("new(int,ThreadFactory,RejectedExecutionHandler)", new ScheduledThreadPoolExecutor(1, factory, handler));
        ScheduledThreadPoolExecutor inner = new ScheduledThreadPoolExecutor(1);
        check("new.nested", new ScheduledThreadPoolExecutor(new ScheduledThreadPoolExecutor(inner.getCorePoolSize()).getCorePoolSize()));
        inner.shutdown();
        boolean flag = System.nanoTime() != 0;
        check("new.ternary", flag ? new ScheduledThreadPoolExecutor(1) : new ScheduledThreadPoolExecutor(2, factory));
        Supplier<ScheduledExecutorService> lambda = () -> new ScheduledThreadPoolExecutor(1);
        check("new.lambda", lambda.get());
        IntFunction<ScheduledThreadPoolExecutor> reference = ScheduledThreadPoolExecutor::new;
        check("new.methodReference", reference.apply(1));
        check("new.staticField", STATIC_FIELD);
        ScheduledThreadPoolExecutor caught;
        try {
            caught = new ScheduledThreadPoolExecutor(-1);
        } catch (IllegalArgumentException expected) {
            caught = new ScheduledThreadPoolExecutor(1);
        }
        check("new.tryCatch", caught);
    }

    static void castsAndSetters() throws Exception {
        ScheduledThreadPoolExecutor cast = (ScheduledThreadPoolExecutor) Executors.newScheduledThreadPool(1);
        cast.setRemoveOnCancelPolicy(true);
        cast.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        cast.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
        ScheduledFuture<?> future = cast.schedule(() -> { }, 1, TimeUnit.HOURS);
        future.cancel(false);
        Observe.print("cast.class", cast.getClass().getName());
        Observe.print("cast.instanceofStpe", Executors.newScheduledThreadPool(1) instanceof ScheduledThreadPoolExecutor);
        Observe.print("cast.policies", cast.getRemoveOnCancelPolicy() + "," + cast.getExecuteExistingDelayedTasksAfterShutdownPolicy()
                + "," + cast.getContinueExistingPeriodicTasksAfterShutdownPolicy());
        Observe.print("cast.queueAfterCancel", cast.getQueue().size());
        cast.shutdown();
        Observe.print("cast.terminated", cast.awaitTermination(10, TimeUnit.SECONDS));
    }

    static void subclasses() throws Exception {
        HookedScheduler named = new HookedScheduler(1, null);
        named.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        named.schedule((Callable<String>) () -> "x", 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        named.shutdown();
        named.awaitTermination(10, TimeUnit.SECONDS);
        Observe.print("subclass.named.super", named.getClass().getSuperclass().getName());
        Observe.print("subclass.named.hooks", String.join(",", named.calls));

        StringBuilder anonymousHooks = new StringBuilder();
        ScheduledThreadPoolExecutor anonymous = new ScheduledThreadPoolExecutor(1, Executors.defaultThreadFactory(),
                new ThreadPoolExecutor.AbortPolicy()) { // the shape of Spring's ThreadPoolTaskScheduler
            @Override
            protected void beforeExecute(Thread t, Runnable r) {
                synchronized (anonymousHooks) {
                    anonymousHooks.append("beforeExecute");
                }
            }
        };
        anonymous.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        anonymous.shutdown();
        anonymous.awaitTermination(10, TimeUnit.SECONDS);
        Observe.print("subclass.anonymous.super", anonymous.getClass().getSuperclass().getName());
        synchronized (anonymousHooks) {
            Observe.print("subclass.anonymous.hooks", anonymousHooks);
        }

        ScheduledThreadPoolExecutor inner = new SwapApp().new Inner();
        Observe.print("subclass.inner.super", inner.getClass().getSuperclass().getName());
        Observe.print("subclass.inner.runs", Observe.runsTask(inner));
    }

    /** CompletableFuture's own executor, after one use: swapped only with the jdkInternal option. */
    static String delayer() throws Exception {
        CompletableFuture.supplyAsync(() -> "x", CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS))
                .get(10, TimeUnit.SECONDS);
        return TimeoutApp.delayerClass();
    }

    /** An inner (non-static) subclass: javac stores the outer instance before the super(..) call. */
    class Inner extends ScheduledThreadPoolExecutor {
        Inner() {
            super(1);
        }
    }

    private static void check(String key, ScheduledExecutorService executor) {
        Observe.print(key, Observe.describe((ExecutorService) executor));
        Observe.print(key + ".runs", Observe.runsTask(executor));
    }
}
