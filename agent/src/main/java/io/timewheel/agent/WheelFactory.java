package io.timewheel.agent;

import io.timewheel.agent.bridge.ExecutorBridge;
import io.timewheel.executor.WheelScheduledExecutorService;

import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * The factory behind {@link ExecutorBridge}: builds the wheel executor, as the system class loader
 * sees it, with the constructor the JDK code called. Stateless: any thread.
 */
final class WheelFactory extends ExecutorBridge {
    /*
     * Implementation notes.
     *
     * Nothing may load this class before the agent has defined ExecutorBridge in the bootstrap loader:
     * resolving its superclass would make the system class loader define a second ExecutorBridge from
     * the agent jar. So the agent reaches it only through install(), a static call (the verifier of
     * the caller loads nothing for it), made after the bootstrap definition.
     */

    private WheelFactory() {
    }

    /** Installs a new factory; false if one was installed already. */
    static boolean install() {
        return ExecutorBridge.install(new WheelFactory());
    }

    @Override
    protected ScheduledThreadPoolExecutor create(int corePoolSize) {
        return new WheelScheduledExecutorService(corePoolSize);
    }

    @Override
    protected ScheduledThreadPoolExecutor create(int corePoolSize, ThreadFactory threadFactory) {
        return new WheelScheduledExecutorService(corePoolSize, threadFactory);
    }

    @Override
    protected ScheduledThreadPoolExecutor create(int corePoolSize, RejectedExecutionHandler handler) {
        return new WheelScheduledExecutorService(corePoolSize, handler);
    }

    @Override
    protected ScheduledThreadPoolExecutor create(int corePoolSize, ThreadFactory threadFactory,
                                                 RejectedExecutionHandler handler) {
        return new WheelScheduledExecutorService(corePoolSize, threadFactory, handler);
    }
}
