package io.timewheel.executor;

import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * Work in progress: the wheel engine replaces this skeleton. It has STPE's four constructors so the
 * agent and the conformance suite can be built against it.
 */
public class WheelScheduledExecutorService extends ScheduledThreadPoolExecutor {
    public WheelScheduledExecutorService(int corePoolSize) { super(corePoolSize); }
    public WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory) { super(corePoolSize, threadFactory); }
    public WheelScheduledExecutorService(int corePoolSize, RejectedExecutionHandler handler) { super(corePoolSize, handler); }
    public WheelScheduledExecutorService(int corePoolSize, ThreadFactory threadFactory, RejectedExecutionHandler handler) {
        super(corePoolSize, threadFactory, handler);
    }
}
