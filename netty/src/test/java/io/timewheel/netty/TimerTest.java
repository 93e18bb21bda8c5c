package io.timewheel.netty;

import io.netty.util.Timer;
import io.netty.util.concurrent.ImmediateExecutor;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared plumbing of the timer tests: timers that are always stopped, bounded waits. Nothing here sleeps to
 * wait for something: waits are latches or Awaitility polls, each with a generous bound (the build machine is
 * small and shared), never an expectation of speed.
 */
abstract class TimerTest {
    /** Upper bound of any wait for something that must happen. */
    static final long WAIT_SECONDS = 30;

    private final List<Timer> timers = new ArrayList<>();

    Timer timer(TimerKind kind) {
        return timer(kind, new TestThreads("timer-" + kind.name().toLowerCase()), -1, ImmediateExecutor.INSTANCE);
    }

    Timer timer(TimerKind kind, TestThreads threads) {
        return timer(kind, threads, -1, ImmediateExecutor.INSTANCE);
    }

    Timer timer(TimerKind kind, TestThreads threads, long maxPendingTimeouts, Executor taskExecutor) {
        Timer t = kind.create(threads, maxPendingTimeouts, taskExecutor);
        timers.add(t);
        return t;
    }

    <T extends Timer> T track(T timer) {
        timers.add(timer);
        return timer;
    }

    @AfterEach
    void stopTimers() {
        for (Timer t : timers) {
            try {
                t.stop();
            } catch (IllegalStateException fromItsOwnThread) {
                // a test that stopped it itself
            }
        }
    }

    static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(WAIT_SECONDS)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5));
    }

    static void awaitLatch(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(WAIT_SECONDS, TimeUnit.SECONDS), "waited " + WAIT_SECONDS + " s");
    }
}
