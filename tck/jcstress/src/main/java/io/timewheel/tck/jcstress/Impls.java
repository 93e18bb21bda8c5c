package io.timewheel.tck.jcstress;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/** The two executors under test, with daemon workers so that a forked jcstress VM can always exit. */
final class Impls {
    static final ThreadFactory DAEMON = r -> {
        Thread t = new Thread(r, "jcstress-executor-worker");
        t.setDaemon(true);
        return t;
    };

    private Impls() {}

    static ScheduledThreadPoolExecutor jdk(int core) {
        return new ScheduledThreadPoolExecutor(core, DAEMON);
    }

    static ScheduledThreadPoolExecutor wheel(int core) {
        return new WheelScheduledExecutorService(core, DAEMON);
    }
}
