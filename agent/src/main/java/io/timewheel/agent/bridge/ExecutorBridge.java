package io.timewheel.agent.bridge;

import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * The one class of the agent that lives in the bootstrap class loader: what the rewritten JDK classes
 * ({@code java.util.concurrent.Executors}, {@code CompletableFuture$Delayer} on JDK 17 to 24) call
 * instead of {@code new ScheduledThreadPoolExecutor(..)}. Any thread.
 */
public abstract class ExecutorBridge {
    /*
     * Implementation notes.
     *
     * java.base code resolves names through the bootstrap loader only, and the wheel executor is not
     * there (it is loaded by the system class loader, where applications see it and where it does not
     * pass for a JDK class). So the JDK side names this class, which the agent defines in the bootstrap
     * loader, and this class hands each construction to the subclass the agent installs (loaded by the
     * system class loader, it names the wheel executor directly). Until one is installed, or if none
     * ever is, every method builds the JDK's executor with the same arguments, so a rewritten JDK class
     * never depends on the agent having finished its start-up.
     *
     * One method per public STPE constructor, with the same parameters, so each construction keeps its
     * exact arguments (and its exceptions: a null thread factory or handler throws what STPE throws).
     * No lambdas or method handles: this runs inside Executors, possibly early.
     *
     * This class is compiled with the agent but must never be defined by the system class loader: the
     * agent defines it in the bootstrap loader before anything of the agent names it, and every class
     * loader that delegates to its parent then finds that copy first.
     */

    /** The installed factory, null until the agent's start-up installs it; written once. */
    private static volatile ExecutorBridge installed;

    protected ExecutorBridge() {
    }

    /**
     * Installs {@code bridge} as the factory behind the rewritten JDK classes.
     *
     * @return false, and changes nothing, if one was installed already
     */
    public static synchronized boolean install(ExecutorBridge bridge) {
        if (bridge == null || installed != null) {
            return false;
        }
        installed = bridge;
        return true;
    }

    /** Whether a factory is installed. */
    public static boolean isInstalled() {
        return installed != null;
    }

    /** Replaces {@code new ScheduledThreadPoolExecutor(corePoolSize)}. */
    public static ScheduledThreadPoolExecutor newExecutor(int corePoolSize) {
        ExecutorBridge bridge = installed;
        return bridge != null ? bridge.create(corePoolSize) : new ScheduledThreadPoolExecutor(corePoolSize);
    }

    /** Replaces {@code new ScheduledThreadPoolExecutor(corePoolSize, threadFactory)}. */
    public static ScheduledThreadPoolExecutor newExecutor(int corePoolSize, ThreadFactory threadFactory) {
        ExecutorBridge bridge = installed;
        return bridge != null ? bridge.create(corePoolSize, threadFactory)
                : new ScheduledThreadPoolExecutor(corePoolSize, threadFactory);
    }

    /** Replaces {@code new ScheduledThreadPoolExecutor(corePoolSize, handler)}. */
    public static ScheduledThreadPoolExecutor newExecutor(int corePoolSize, RejectedExecutionHandler handler) {
        ExecutorBridge bridge = installed;
        return bridge != null ? bridge.create(corePoolSize, handler)
                : new ScheduledThreadPoolExecutor(corePoolSize, handler);
    }

    /** Replaces {@code new ScheduledThreadPoolExecutor(corePoolSize, threadFactory, handler)}. */
    public static ScheduledThreadPoolExecutor newExecutor(int corePoolSize, ThreadFactory threadFactory,
                                                          RejectedExecutionHandler handler) {
        ExecutorBridge bridge = installed;
        return bridge != null ? bridge.create(corePoolSize, threadFactory, handler)
                : new ScheduledThreadPoolExecutor(corePoolSize, threadFactory, handler);
    }

    protected abstract ScheduledThreadPoolExecutor create(int corePoolSize);

    protected abstract ScheduledThreadPoolExecutor create(int corePoolSize, ThreadFactory threadFactory);

    protected abstract ScheduledThreadPoolExecutor create(int corePoolSize, RejectedExecutionHandler handler);

    protected abstract ScheduledThreadPoolExecutor create(int corePoolSize, ThreadFactory threadFactory,
                                                         RejectedExecutionHandler handler);
}
