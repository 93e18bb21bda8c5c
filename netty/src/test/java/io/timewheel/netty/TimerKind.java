package io.timewheel.netty;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

/**
 * The two timers under test: every differential test runs once on Netty's HashedWheelTimer (the reference:
 * a test that passes on it encodes HashedWheelTimer's real behaviour) and once on WheelTimer, which must match.
 */
enum TimerKind {
    /** HashedWheelTimer with a 10 ms tick (so the tests run quickly), 64 slots, no leak detection. */
    NETTY {
        @Override
        Timer create(ThreadFactory threads, long maxPendingTimeouts, Executor taskExecutor) {
            return new HashedWheelTimer(threads, 10, MILLISECONDS, 64, false, maxPendingTimeouts, taskExecutor);
        }

        @Override
        long pendingTimeouts(Timer timer) {
            return ((HashedWheelTimer) timer).pendingTimeouts();
        }

        @Override
        void start(Timer timer) {
            ((HashedWheelTimer) timer).start();
        }
    },
    WHEEL {
        @Override
        Timer create(ThreadFactory threads, long maxPendingTimeouts, Executor taskExecutor) {
            return new WheelTimer(threads, maxPendingTimeouts, taskExecutor);
        }

        @Override
        long pendingTimeouts(Timer timer) {
            return ((WheelTimer) timer).pendingTimeouts();
        }

        @Override
        void start(Timer timer) {
            ((WheelTimer) timer).start();
        }
    };

    static {
        CapturedLogs.install(); // before HashedWheelTimer's class initialization takes its logger
    }

    abstract Timer create(ThreadFactory threads, long maxPendingTimeouts, Executor taskExecutor);

    abstract long pendingTimeouts(Timer timer);

    abstract void start(Timer timer);
}
