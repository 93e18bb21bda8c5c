package io.timewheel.executor;

/**
 * The package's one logger, "io.timewheel", looked up by the first class that reports something, never at
 * construction: System.getLogger starts java.util.logging, ~20 ms on a cold JVM (WheelScheduledExecutorService's
 * notes, "Cold start"; tck's ColdStartTest keeps it so). Any thread.
 */
final class Log {
    static final System.Logger LOG = System.getLogger("io.timewheel");

    private Log() {
    }
}
