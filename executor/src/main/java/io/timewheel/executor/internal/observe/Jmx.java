package io.timewheel.executor.internal.observe;

import io.timewheel.executor.ExecutorStatistics;
import io.timewheel.executor.WheelExecutorMXBean;
import io.timewheel.executor.internal.Log;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.util.function.Supplier;

/**
 * Registers and unregisters executors' MXBeans, each over an executor's name and statistics source. Loaded
 * only when an executor is built with {@code jmx(true)}; its part that names javax.management types
 * (Registrar) only if the java.management module is in the boot layer (the module says
 * {@code requires static java.management}). Any thread.
 */
public final class Jmx {
    /*
     * Implementation notes
     *
     * Names tell executors apart: type=WheelScheduledExecutorService and name=<the executor's name, quoted>;
     * if that name is registered already (two executors named alike, or two executors with default names
     * whose identity hashes collide), ",id=<the statistics source's identity hash>" is added, then "-2", "-3"
     * and so on up to "-100" after it while that is taken too. The registered bean holds its statistics
     * source, and through it the executor, weakly: the MBean server must not keep an executor alive that its
     * application dropped without shutting it down (its attributes then read 0, and its name). Failures (no
     * java.management, a security manager that refuses) are logged once per executor at WARNING and the
     * executor runs without its MXBean: JMX is never a reason for a constructor to throw.
     */

    /** The ObjectName domain of every executor's MXBean. */
    static final String DOMAIN = "io.timewheel";

    private Jmx() {
    }

    /** Registers the executor's MXBean; returns its ObjectName, or null if it could not. */
    public static Object register(String name, Supplier<ExecutorStatistics> source) {
        if (!ModuleLayer.boot().findModule("java.management").isPresent()) {
            Log.LOG.log(System.Logger.Level.WARNING, "timewheel: no MXBean for executor "
                    + name + ": the java.management module is not in this runtime");
            return null;
        }
        try {
            return Registrar.register(name, source);
        } catch (Throwable t) {
            Log.LOG.log(System.Logger.Level.WARNING, "timewheel: no MXBean for executor " + name + ": " + t, t);
            return null;
        }
    }

    /** Unregisters a name {@link #register} returned. */
    public static void unregister(Object name) {
        try {
            Registrar.unregister(name);
        } catch (Throwable t) {
            Log.LOG.log(System.Logger.Level.WARNING, "timewheel: could not unregister MXBean " + name + ": " + t, t);
        }
    }

    /** The part that names javax.management types: loaded only after the module check. */
    private static final class Registrar {
        static Object register(String name, Supplier<ExecutorStatistics> source) throws Exception {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            String base = DOMAIN + ":type=WheelScheduledExecutorService,name=" + ObjectName.quote(name);
            String id = Integer.toHexString(System.identityHashCode(source));
            Bean bean = new Bean(source, name);
            for (int attempt = 0; ; attempt++) {
                ObjectName objectName = new ObjectName(attempt == 0 ? base
                        : base + ",id=" + id + (attempt == 1 ? "" : "-" + attempt));
                try {
                    return server.registerMBean(bean, objectName).getObjectName();
                } catch (InstanceAlreadyExistsException taken) {
                    if (attempt == 100) {
                        throw taken;
                    }
                }
            }
        }

        static void unregister(Object name) throws Exception {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName objectName = (ObjectName) name;
            if (server.isRegistered(objectName)) {
                server.unregisterMBean(objectName);
            }
        }
    }

    /** The MXBean: each attribute from a fresh statistics call. Holds its source weakly (see the notes). */
    static final class Bean implements WheelExecutorMXBean {
        /** The executor's statistics source, weakly. Immutable reference. */
        private final WeakReference<Supplier<ExecutorStatistics>> source;
        /** The executor's name. Immutable. */
        private final String name;

        Bean(Supplier<ExecutorStatistics> source, String name) {
            this.source = new WeakReference<>(source);
            this.name = name;
        }

        private ExecutorStatistics stats() {
            Supplier<ExecutorStatistics> s = source.get();
            return s == null ? null : s.get();
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public long getNotYetDue() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.notYetDue();
        }

        @Override
        public long getOverdue() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.overdue();
        }

        @Override
        public long getOldestOverdueNanos() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.oldestOverdueNanos();
        }

        @Override
        public int getWorkers() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.workers();
        }

        @Override
        public int getIdleWorkers() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.idleWorkers();
        }

        @Override
        public long getTasksRun() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.tasksRun();
        }

        @Override
        public long getTasksCancelled() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.tasksCancelled();
        }

        @Override
        public long getTasksRejected() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.tasksRejected();
        }

        @Override
        public long getTasksLate() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.tasksLate();
        }

        @Override
        public long getLateThresholdNanos() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.lateThresholdNanos();
        }

        @Override
        public long getMissedRuns() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.missedRuns();
        }

        @Override
        public long getOverruns() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.overruns();
        }

        @Override
        public long getPeriodicFailures() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : s.periodicFailures();
        }

        @Override
        public long[] getLatenessHistogram() {
            ExecutorStatistics s = stats();
            return s == null ? new long[ExecutorStatistics.BUCKETS] : s.latenessHistogram();
        }

        @Override
        public long[] getHandOverHistogram() {
            ExecutorStatistics s = stats();
            return s == null ? new long[ExecutorStatistics.BUCKETS] : s.handOverHistogram();
        }

        @Override
        public long[] getWorkerWaitHistogram() {
            ExecutorStatistics s = stats();
            return s == null ? new long[ExecutorStatistics.BUCKETS] : s.workerWaitHistogram();
        }

        @Override
        public long getLatenessP99UpperBoundNanos() {
            ExecutorStatistics s = stats();
            return s == null ? 0 : ExecutorStatistics.quantileUpperBound(s.latenessHistogram(), 0.99);
        }
    }
}
