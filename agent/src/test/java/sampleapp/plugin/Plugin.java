package sampleapp.plugin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Plugin code as a plugin or module system loads it: {@code IsolatedApp} defines this class in class
 * loaders that do not delegate to the system class loader. Talks to its host through java.base types
 * only. Reports what it built, keyed by what it did.
 */
public final class Plugin implements Supplier<Map<String, String>> {

    @Override
    public Map<String, String> get() {
        Map<String, String> seen = new LinkedHashMap<>();
        try {
            ScheduledThreadPoolExecutor constructed = new ScheduledThreadPoolExecutor(1);
            seen.put("construction", describe(constructed));
            seen.put("construction.runs", runsTask(constructed));
            Subclass subclass = new Subclass();
            seen.put("subclass.super", Subclass.class.getSuperclass().getName());
            seen.put("subclass.runs", runsTask(subclass));
            seen.put("subclass.decorated", Boolean.toString(subclass.decorated));
            ScheduledExecutorService factory = Executors.newScheduledThreadPool(1);
            seen.put("factory", describe(factory));
            seen.put("factory.runs", runsTask(factory));
        } catch (Throwable failure) {
            seen.put("failure", failure.toString());
        }
        return seen;
    }

    /** Class name, then "@system", "@boot" or "@own" for the loader that defined it. */
    private String describe(Object executor) {
        ClassLoader loader = executor.getClass().getClassLoader();
        String where = loader == null ? "boot" : loader == ClassLoader.getSystemClassLoader() ? "system"
                : loader == getClass().getClassLoader() ? "own" : loader.toString();
        return executor.getClass().getName() + "@" + where;
    }

    private static String runsTask(ScheduledExecutorService executor) {
        try {
            String result = executor.schedule(() -> "ran", 2, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
            executor.shutdown();
            return executor.awaitTermination(10, TimeUnit.SECONDS) ? result : "did not terminate";
        } catch (Exception e) {
            return "failed: " + e;
        }
    }

    /** A direct STPE subclass overriding a hook. */
    static final class Subclass extends ScheduledThreadPoolExecutor {
        volatile boolean decorated;

        Subclass() {
            super(1);
        }

        @Override
        protected <V> java.util.concurrent.RunnableScheduledFuture<V> decorateTask(
                java.util.concurrent.Callable<V> callable, java.util.concurrent.RunnableScheduledFuture<V> task) {
            decorated = true;
            return task;
        }
    }
}
