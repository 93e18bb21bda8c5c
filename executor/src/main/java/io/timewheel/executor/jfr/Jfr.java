package io.timewheel.executor;

import io.timewheel.executor.jfr.JfrEvents;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ForkJoinPool;

/**
 * The gate to the executor's JFR events (package io.timewheel.executor.jfr), which must cost nothing without a
 * recording and break nothing on a runtime without the jdk.jfr module. Any thread.
 */
final class Jfr {
    /*
     * Implementation notes
     *
     * Optional module. The executor's module says "requires static jdk.jfr": it compiles against jdk.jfr and
     * runs without it. Every class that names a jdk.jfr type is in io.timewheel.executor.jfr, and this class
     * calls into it only after PRESENT (jdk.jfr is in the boot layer, so resolving those classes cannot fail);
     * a LinkageError anyway (a runtime that has the module but refuses it) turns JFR off for good, silently.
     *
     * No cost without a recording. Loading an event class before JFR is initialized costs about 250 ms (JDK
     * 17 and 25, measured), so nothing here touches an event class until FlightRecorder.isInitialized(): a
     * recording was created in this JVM. recording() asks that once per call until it is true, then answers
     * from a volatile flag. It is asked on rare paths only: by a worker for a task late beyond the threshold,
     * by the tick thread once per loop (TickThread.park: a late wake-up; and so that the periodic hook is
     * registered soon after a recording starts), by the starvation watch when it reports.
     *
     * The periodic ExecutorStatistics event. One hook for the JVM, registered (FlightRecorder.addPeriodicEvent)
     * the first time recording() finds JFR initialized, on the common pool so that a tick thread or a worker
     * never waits on JFR's own locks; it commits one event per live executor in the registry. The registry holds
     * the executors weakly (an executor no one references and that never terminated is not kept alive by it)
     * and drops each at its termination. An executor created while no recording had ever run is still in it:
     * its statistics appear once a recording starts (registration follows the next tick-thread loop or late
     * task, so an executor with no activity at all waits for its first).
     *
     * Ownership: PRESENT immutable; initialized, hooked and off any thread (volatile, set once false -> true);
     * EXECUTORS guarded by its own monitor.
     */

    /** jdk.jfr is in the boot layer. Immutable. */
    static final boolean PRESENT = present();

    private static volatile boolean initialized;
    private static volatile boolean hooked;
    /** JFR failed to link: never try again. */
    private static volatile boolean off;

    /** The executors whose statistics the periodic hook commits. Guarded by itself. */
    private static final Set<WheelScheduledExecutorService> EXECUTORS = Collections.newSetFromMap(new WeakHashMap<>());

    private Jfr() {
    }

    private static boolean present() {
        try {
            return ModuleLayer.boot().findModule("jdk.jfr").isPresent();
        } catch (Throwable t) {
            return false;
        }
    }

    /** Whether JFR is initialized in this JVM, so that an event may be wanted (see the notes). Any thread. */
    static boolean recording() {
        if (initialized) {
            return true;
        }
        if (!PRESENT || off) {
            return false;
        }
        try {
            if (!JfrEvents.initialized()) {
                return false;
            }
        } catch (LinkageError e) {
            off = true;
            return false;
        }
        initialized = true;
        hookStatistics();
        return true;
    }

    /** Registers the periodic hook, once, on the common pool (see the notes). */
    private static void hookStatistics() {
        synchronized (EXECUTORS) {
            if (hooked) {
                return;
            }
            hooked = true;
        }
        ForkJoinPool.commonPool().execute(() -> {
            try {
                JfrEvents.addStatisticsHook(Jfr::commitStatistics);
            } catch (Throwable e) { // LinkageError, or JFR refusing: no periodic event, nothing else changes
                off = true;
            }
        });
    }

    /** The periodic hook: one ExecutorStatistics event per live executor. */
    private static void commitStatistics() {
        if (!JfrEvents.statisticsEnabled()) {
            return;
        }
        List<WheelScheduledExecutorService> executors;
        synchronized (EXECUTORS) {
            executors = new ArrayList<>(EXECUTORS);
        }
        for (WheelScheduledExecutorService executor : executors) {
            JfrEvents.statistics(executor.statistics());
        }
    }

    /** A new executor: its statistics go into the periodic event. Any thread. */
    static void register(WheelScheduledExecutorService executor) {
        if (!PRESENT) {
            return;
        }
        synchronized (EXECUTORS) {
            EXECUTORS.add(executor);
        }
        recording(); // a recording already made: hook now
    }

    /** An executor terminated. Any thread. */
    static void unregister(WheelScheduledExecutorService executor) {
        if (!PRESENT) {
            return;
        }
        synchronized (EXECUTORS) {
            EXECUTORS.remove(executor);
        }
    }

    /** A worker took an entry at least the threshold late (the slot holds its times); recording() is true. */
    static void taskLate(String executor, QueueEntry entry, WorkerStats slot, long lateness, int workers) {
        try {
            long handOver = Math.min(Math.max(0L, slot.readyAt - slot.deadline), lateness);
            JfrEvents.taskLate(executor, entry.taskClassName(), slot.deadline, lateness, handOver,
                    lateness - handOver, true, workers, slot.idleWorkers);
        } catch (LinkageError e) {
            off = true;
            initialized = false;
        }
    }

    /** The starvation watch found an entry still waiting; recording() is true. Tick thread. */
    static void taskWaiting(String executor, QueueEntry entry, long deadline, long readyAt, long now, int workers,
                            int idleWorkers) {
        try {
            long lateness = now - deadline;
            long handOver = Math.min(Math.max(0L, readyAt - deadline), lateness);
            JfrEvents.taskLate(executor, entry.taskClassName(), deadline, lateness, handOver, lateness - handOver,
                    false, workers, idleWorkers);
        } catch (LinkageError e) {
            off = true;
            initialized = false;
        }
    }

    /** The tick thread woke {@code late} ns later than the {@code asked} ns it parked for; recording() is true. */
    static void tickThreadLate(String thread, long asked, long late) {
        try {
            JfrEvents.tickThreadLate(thread, asked, late);
        } catch (LinkageError e) {
            off = true;
            initialized = false;
        }
    }
}
