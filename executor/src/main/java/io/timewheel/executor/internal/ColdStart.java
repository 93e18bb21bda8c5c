package io.timewheel.executor.internal;

/**
 * Initializes, ahead of time, classes that a fresh JVM would otherwise load and initialize on a task's
 * critical path: between its deadline and its run. Any thread.
 */
public final class ColdStart {
    /*
     * Implementation notes
     *
     * The executor's classes come from a jar, not from the JDK's class-data archive that STPE's come from, so
     * a first use loads, verifies and initializes each one. The preloads exist here once, and each room
     * calls them from its constructor for its own classes, those that a first schedule and a first run
     * would meet: WheelScheduledExecutorService (ScheduledTask), ReadyQueue (ReadyQueueRoom), WorkerPool
     * (Worker, and DispatchedRun when it dispatches runs). So a fresh JVM's first timer does not pay for them
     * after its deadline (tck's ColdStartTest: no class of ours loads between the first schedule and its
     * run; bench `punctuality cold` shows a fresh JVM's first timers). Class.forName with initialize=true
     * reaches a class whatever its access, and does nothing more once the class is initialized.
     * RunDispatcher.VirtualThreads.warmUp is not a preload of this kind: it starts a JVM's first virtual
     * thread.
     */

    private ColdStart() {
    }

    /** Loads and initializes each class (its loader's), if it is not yet. */
    public static void initialize(Class<?>... classes) {
        for (Class<?> c : classes) {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError(e); // a class literal's class is found
            }
        }
    }
}
