package io.timewheel.agent.netty;

import io.netty.util.Timer;
import io.netty.util.concurrent.ImmediateExecutor;
import io.timewheel.netty.WheelTimer;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The body of a swapped {@code io.netty.util.HashedWheelTimer} constructor (the agent's
 * {@code nettyTimers}): checks the arguments as Netty does, then makes the {@link WheelTimer} the
 * instance delegates to. Stateless: any thread.
 */
public final class HashedWheelTimerSwap {
    /*
     * Implementation notes
     *
     * Only the rewritten HashedWheelTimer names this class (HashedWheelTimerRewriter); the agent's own
     * code never loads it, as it names Netty's classes, which the agent's class loader may not see. It is
     * resolved through HashedWheelTimer's class loader, beside WheelTimer: from the agent jar when that
     * loader sees the agent jar's classes with the same netty-common, else defined in that loader by the
     * agent (NettyTimerTransformer).
     *
     * The checks are Netty's main constructor's, in its order and with its exception types: null thread
     * factory, unit or task executor: NullPointerException naming the argument; tickDuration or
     * ticksPerWheel not positive, ticksPerWheel above 2^30, or a tick that overflows a whole wheel in
     * nanoseconds: IllegalArgumentException. The tick and the wheel size decide nothing else here:
     * WheelTimer's deadlines are exact. leakDetection is not an argument: a swapped timer is never tracked.
     */

    /** Netty's largest wheel: 2^30 ticks. */
    private static final int MAX_TICKS_PER_WHEEL = 1 << 30;

    private HashedWheelTimerSwap() {
    }

    /**
     * For {@code HashedWheelTimer(ThreadFactory, long, TimeUnit, int, boolean, long, Executor)}: tasks are
     * handed to {@code taskExecutor}.
     *
     * @param facade the HashedWheelTimer being built: what the timeouts' {@code timer()} returns
     */
    public static WheelTimer delegate(Timer facade, ThreadFactory threadFactory, long tickDuration, TimeUnit unit,
                                      int ticksPerWheel, long maxPendingTimeouts, Executor taskExecutor) {
        checkNotNull(threadFactory, "threadFactory");
        checkNotNull(unit, "unit");
        checkPositive(tickDuration, "tickDuration");
        checkPositive(ticksPerWheel, "ticksPerWheel");
        checkNotNull(taskExecutor, "taskExecutor");
        checkWheel(tickDuration, unit, ticksPerWheel);
        return WheelTimer.behind(facade, threadFactory, maxPendingTimeouts, taskExecutor);
    }

    /**
     * For {@code HashedWheelTimer(ThreadFactory, long, TimeUnit, int, boolean, long)} of Netty versions
     * without a task executor: tasks run on the timer's own thread, one at a time, as they did there.
     */
    public static WheelTimer delegate(Timer facade, ThreadFactory threadFactory, long tickDuration, TimeUnit unit,
                                      int ticksPerWheel, long maxPendingTimeouts) {
        return delegate(facade, threadFactory, tickDuration, unit, ticksPerWheel, maxPendingTimeouts,
                ImmediateExecutor.INSTANCE);
    }

    private static void checkNotNull(Object argument, String name) {
        if (argument == null) {
            throw new NullPointerException(name);
        }
    }

    private static void checkPositive(long argument, String name) {
        if (argument <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + argument);
        }
    }

    /** The wheel Netty would allocate, and the tick-times-wheel overflow it refuses. */
    private static void checkWheel(long tickDuration, TimeUnit unit, int ticksPerWheel) {
        if (ticksPerWheel > MAX_TICKS_PER_WHEEL) {
            throw new IllegalArgumentException("ticksPerWheel must be at most 2^30: " + ticksPerWheel);
        }
        int wheelLength = Integer.highestOneBit(ticksPerWheel - 1) << 1; // the next power of two
        long limit = Long.MAX_VALUE / Math.max(wheelLength, 1);
        long tickNanos = unit.toNanos(tickDuration);
        if (tickNanos >= limit) {
            throw new IllegalArgumentException("tickDuration " + tickDuration + " " + unit + " times " + wheelLength
                    + " ticks overflows a long in nanoseconds");
        }
    }
}
