package io.timewheel.executor;

/**
 * The executor's time source, in {@link System#nanoTime()} units. Package-private so that tests can drive
 * time by hand; production uses {@link #SYSTEM}.
 */
interface NanoClock {

    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
