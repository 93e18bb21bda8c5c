package tckprobe;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Builds a {@code ScheduledThreadPoolExecutor} the three ways the JSR-166 TCK does (a {@code new}, a direct
 * subclass, an {@code Executors} factory) so that {@link io.timewheel.tck.runner.TckRunner} can see whether
 * the agent swapped each one. Any thread.
 *
 * <p>Deliberately outside {@code io.timewheel.}: the agent never transforms classes under that prefix, so a
 * probe there would report "not swapped" even with the agent active. Loaded by the application class
 * loader, like the TCK's own classes.
 */
public final class SwapProbe {

    private SwapProbe() {
    }

    /** The class of what {@code new ScheduledThreadPoolExecutor(1)} builds here. */
    public static Class<?> construction() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        executor.shutdownNow();
        return executor.getClass();
    }

    /** The superclass of a direct STPE subclass, once loaded (rebased by the agent or not). */
    public static Class<?> subclassParent() {
        Subclass executor = new Subclass();
        executor.shutdownNow();
        return Subclass.class.getSuperclass();
    }

    /** The class inside {@code Executors.newScheduledThreadPool(1)} (the factory returns the executor itself). */
    public static Class<?> factory() {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
        executor.shutdownNow();
        return executor.getClass();
    }

    /** A direct subclass, as {@code ScheduledExecutorSubclassTest.CustomExecutor} is. */
    static final class Subclass extends ScheduledThreadPoolExecutor {
        Subclass() {
            super(1);
        }
    }
}
