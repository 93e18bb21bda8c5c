package sampleapp;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * spring-framework#33856 on {@code Executors.newSingleThreadScheduledExecutor()} (no --add-opens): a 100 ms
 * fixed-rate task and a long task on one thread. Waits for the executor's starvation warning (from the
 * io.timewheel logger), then reads the executor's MXBean, unless run with {@code nojmx} (a runtime without
 * java.management). Prints key=value lines, and log=LEVEL message for each record of the io.timewheel logger.
 */
public final class StarvationApp {
    /** Keeps the logger, and so the handler, reachable. */
    private static final Logger LOGGER = Logger.getLogger("io.timewheel");

    private StarvationApp() {
    }

    public static void main(String[] args) throws Exception {
        boolean jmx = args.length == 0 || !args[0].equals("nojmx");
        // quiet: no warning is expected (the option is off), so do not wait for one long
        long warnWaitMillis = args.length > 0 && args[0].equals("quiet") ? 1_500 : 20_000;
        CountDownLatch warned = new CountDownLatch(1);
        AtomicInteger warnings = new AtomicInteger();
        LOGGER.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                Observe.print("log", record.getLevel() + " " + record.getMessage());
                if (record.getMessage() != null && record.getMessage().contains("overdue (oldest")) {
                    warnings.incrementAndGet();
                    warned.countDown();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        // every io.timewheel record goes to stdout (log=...), printed before the app goes on, none to stderr
        LOGGER.setUseParentHandlers(false);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch firstRun = new CountDownLatch(1);
        executor.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            firstRun.countDown();
        }, 0, 100, TimeUnit.MILLISECONDS);
        Observe.print("firstRun", firstRun.await(20, TimeUnit.SECONDS));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        executor.execute(() -> { // the long task: holds the only thread until released
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Observe.print("longTask", running.await(20, TimeUnit.SECONDS));
        Observe.print("warned", warned.await(warnWaitMillis, TimeUnit.MILLISECONDS));
        if (jmx) {
            Mx.print("during");
        }
        release.countDown();
        executor.shutdown();
        Observe.print("terminated", executor.awaitTermination(20, TimeUnit.SECONDS));
        Observe.print("warnings", warnings.get());
        if (jmx) {
            Mx.print("after");
        }
    }

    /** The MXBean part, in its own class: not loaded on a runtime without java.management. */
    private static final class Mx {
        static void print(String when) throws Exception {
            javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            java.util.Set<javax.management.ObjectName> names = server.queryNames(
                    new javax.management.ObjectName("io.timewheel:type=WheelScheduledExecutorService,*"), null);
            Observe.print(when + ".mxbeans", names.size());
            for (javax.management.ObjectName name : names) {
                Observe.print(when + ".workers", server.getAttribute(name, "Workers"));
                Observe.print(when + ".idleWorkers", server.getAttribute(name, "IdleWorkers"));
                Observe.print(when + ".overdue", server.getAttribute(name, "Overdue"));
                long oldest = (Long) server.getAttribute(name, "OldestOverdueNanos");
                long threshold = (Long) server.getAttribute(name, "LateThresholdNanos");
                Observe.print(when + ".lateThresholdNanos", threshold);
                Observe.print(when + ".oldestOverThreshold", oldest >= threshold);
            }
        }
    }
}
