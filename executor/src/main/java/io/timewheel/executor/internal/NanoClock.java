package io.timewheel.executor.internal;

/**
 * The executor's time source, in {@link System#nanoTime()} units. Production uses {@link #SYSTEM}; tests drive
 * time by hand through a clock of their own (given to an executor through its builder's test seam, or to a
 * room's constructor). Any thread.
 */
public interface NanoClock {

    /**
     * {@link System#nanoTime()}. A class of its own, not a method reference: the first lambda or method
     * reference a JVM links bootstraps its invokedynamic machinery, which the executor's constructor would
     * pay before its first timer (WheelScheduledExecutorService's notes, "Cold start"). Immutable.
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
