package io.timewheel.executor.jfr;

import io.timewheel.executor.ExecutorStatistics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * The gate to the executor's JFR events ({@link JfrEvents}), which must cost nothing without a recording and
 * break nothing on a runtime without the jdk.jfr module. It names no jdk.jfr type itself, so it loads on any
 * runtime. Any thread.
 */
public final class Jfr {
    /*
     * Implementation notes
     *
     * Optional module. The executor's module says "requires static jdk.jfr": it compiles against jdk.jfr and
     * runs without it. JfrEvents and the event classes name jdk.jfr types; this class calls into them only
     * after PRESENT (jdk.jfr is in the boot layer, so resolving them cannot fail). A LinkageError anyway (a
     * runtime that has the module but refuses it) turns JFR off for good, silently.
     *
     * No cost without a recording. Loading an event class before JFR is initialized costs a JVM far more than
     * the executor's whole start (JfrEvents' notes), so nothing here touches an event class until
     * FlightRecorder.isInitialized(): a recording was created in this JVM. recording()
     * asks that once per call until it is true, then answers from a volatile flag. Its callers ask on rare
     * paths only: a worker for a task late beyond the threshold, the tick thread after a timed park, the
     * starvation watch when it speaks.
     *
     * The periodic ExecutorStatistics event. One hook for the JVM, registered (FlightRecorder.addPeriodicEvent)
     * the first time recording() finds JFR initialized, on the common pool so that a tick thread or a worker
     * never waits on JFR's own locks; it commits one event per registered source. The registry is of
     * statistics sources (each executor's Observability), not of executors, and holds each weakly, so that it
     * keeps alive no executor that its application dropped without shutting it down; a source leaves it when
     * its executor terminates. A source registered while no recording had ever run appears once a recording
     * starts (the hook follows the next timed park of a tick thread, the next late task or the next executor
     * built).
     *
     * Ownership: PRESENT immutable; hooked any thread, set once (false -> true) under SOURCES' monitor;
     * initialized and off any thread (volatile): off goes false -> true once, when JFR fails to link, and
     * initialized false -> true when JFR is found initialized, back to false for good if an event then fails
     * to link; SOURCES guarded by its own monitor.
     */

    /** jdk.jfr is in the boot layer. Immutable. */
    private static final boolean PRESENT = present();

    /** JFR is initialized in this JVM: recording() answers true at once. Any thread (see the notes). */
    private static volatile boolean initialized;
    /** The periodic hook is registered, or being registered. Any thread; set under SOURCES' monitor. */
    private static volatile boolean hooked;
    /** JFR failed to link: never try again. Any thread (false to true, once). */
    private static volatile boolean off;

    /** The sources whose statistics the periodic hook commits. Guarded by itself. */
    private static final Set<Supplier<ExecutorStatistics>> SOURCES = Collections.newSetFromMap(new WeakHashMap<>());

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
    public static boolean recording() {
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
        synchronized (SOURCES) {
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

    /** The periodic hook: one ExecutorStatistics event per registered source. */
    private static void commitStatistics() {
        if (!JfrEvents.statisticsEnabled()) {
            return;
        }
        List<Supplier<ExecutorStatistics>> sources;
        synchronized (SOURCES) {
            sources = new ArrayList<>(SOURCES);
        }
        for (Supplier<ExecutorStatistics> source : sources) {
            JfrEvents.statistics(source.get());
        }
    }

    /** A new executor's statistics go into the periodic event from now on. Any thread. */
    public static void register(Supplier<ExecutorStatistics> source) {
        if (!PRESENT) {
            return;
        }
        synchronized (SOURCES) {
            SOURCES.add(source);
        }
        recording(); // a recording already made: hook now
    }

    /** The source's executor terminated. Any thread. */
    public static void unregister(Supplier<ExecutorStatistics> source) {
        if (!PRESENT) {
            return;
        }
        synchronized (SOURCES) {
            SOURCES.remove(source);
        }
    }

    /**
     * A task started, or (the starvation watch: {@code started} false) still waits, {@code lateness} ns after
     * its deadline, {@code handOver} ns of which passed before it reached the workers; recording() is true.
     */
    public static void taskLate(String executor, String taskClass, long deadline, long lateness, long handOver,
                                boolean started, int workers, int idleWorkers) {
        try {
            JfrEvents.taskLate(executor, taskClass, deadline, lateness, handOver, lateness - handOver, started,
                    workers, idleWorkers);
        } catch (LinkageError e) {
            off = true;
            initialized = false;
        }
    }

    /** A tick thread woke {@code late} ns later than the {@code asked} ns it parked for; recording() is true. */
    public static void tickThreadLate(String thread, long asked, long late) {
        try {
            JfrEvents.tickThreadLate(thread, asked, late);
        } catch (LinkageError e) {
            off = true;
            initialized = false;
        }
    }

    /**
     * The part of {@code lateness} that passed before a task reached the workers, given its deadline and when
     * it reached them ({@code readyAt}): clamped to [0, lateness], since the two readings come from two threads.
     */
    public static long handOver(long deadline, long readyAt, long lateness) {
        return Math.min(Math.max(0L, readyAt - deadline), lateness);
    }
}
