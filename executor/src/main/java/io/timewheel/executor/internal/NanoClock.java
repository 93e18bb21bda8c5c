package io.timewheel.executor.internal;

/**
 * The executor's time source, in {@link System#nanoTime()} units. Tests drive time by hand through
 * their own; production uses {@link #SYSTEM}.
 */
public interface NanoClock {

    /**
     * {@link System#nanoTime()}. A class of its own, not a method reference: the first lambda or method
     * reference a JVM links spins its invokedynamic machinery (~10 ms on a cold JVM), which the executor's
     * constructor would pay before its first timer (see WheelScheduledExecutorService's notes, "Cold start").
     */
    NanoClock SYSTEM = new SystemClock();

    /** {@link #SYSTEM}'s class. */
    final class SystemClock implements NanoClock {
        private SystemClock() {
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    }

    long nanoTime();
}
