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
     * a first use loads, verifies and initializes each one: tenths of a millisecond apiece on a cold JVM. The
     * executor's constructor, and the pool's when it dispatches runs, initialize here the classes the first
     * schedule and the first run would meet, so that a fresh JVM's first timer does not pay for them after its
     * deadline (tck's ColdStartTest; bench `punctuality cold` shows a fresh JVM's first timers).
     * Class.forName with initialize=true reaches a class whatever its access, and does nothing more once
     * the class is initialized.
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
