package io.timewheel.executor.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The executor's one logger, "io.timewheel", looked up when this class is initialized: by the first report,
 * never by an executor's construction, since System.getLogger starts java.util.logging
 * (WheelScheduledExecutorService's notes, "Cold start"; tck's ColdStartTest keeps it so). Any thread.
 */
public final class Log {
    /** The logger. Immutable. */
    public static final System.Logger LOG = System.getLogger("io.timewheel");

    /** The keys of the warnings given once per JVM (warnOnce). Any thread (a concurrent set). */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private Log() {
    }

    /**
     * Logs {@code message} at WARNING the first time this JVM is told of {@code key} (a malformed system
     * property and its value: a user expects to hear of it once, not once per executor built). Any thread.
     */
    public static void warnOnce(String key, String message) {
        if (WARNED.add(key)) {
            LOG.log(System.Logger.Level.WARNING, message);
        }
    }

    /** Reports an unexpected failure in the tick thread's loop, which goes on; never throws. */
    public static void tickFailure(String what, Throwable t) {
        try {
            LOG.log(System.Logger.Level.ERROR, "timewheel tick thread: unexpected failure in " + what
                    + "; the tick thread goes on", t);
        } catch (Throwable ignored) {
            // reporting must not kill the loop either
        }
    }
}
