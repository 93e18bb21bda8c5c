package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * ThreadPoolExecutor acts on its configuration fields, not on its own public getters: a subclass that
 * overrides getCorePoolSize or getRejectedExecutionHandler changes what they report, not how the pool
 * behaves (TPE's addWorker, getTask and processWorkerExit read corePoolSize, maximumPoolSize,
 * keepAliveTime and allowCoreThreadTimeOut; its reject reads handler). The wheel's pool must do the same.
 */
class ConfigurationSelfUseTest extends TckTest {

    /** An executor whose getCorePoolSize reports 0 whatever is configured. */
    private ScheduledThreadPoolExecutor reportingNoCoreThreads(Impl impl, int core) {
        return cleanup.track(impl == Impl.JDK
                ? new ScheduledThreadPoolExecutor(core) {
                    @Override
                    public int getCorePoolSize() {
                        return 0;
                    }
                }
                : impl == Impl.WHEEL
                ? new WheelScheduledExecutorService(core) {
                    @Override
                    public int getCorePoolSize() {
                        return 0;
                    }
                }
                : new WheelScheduledExecutorService(Impl.virtualThreadBuilder(core)) {
                    @Override
                    public int getCorePoolSize() {
                        return 0;
                    }
                });
    }

    /** An executor whose getRejectedExecutionHandler reports a handler that discards silently. */
    private ScheduledThreadPoolExecutor reportingDiscardPolicy(Impl impl) {
        RejectedExecutionHandler reported = new ThreadPoolExecutor.DiscardPolicy();
        return cleanup.track(impl == Impl.JDK
                ? new ScheduledThreadPoolExecutor(1) {
                    @Override
                    public RejectedExecutionHandler getRejectedExecutionHandler() {
                        return reported;
                    }
                }
                : impl == Impl.WHEEL
                ? new WheelScheduledExecutorService(1) {
                    @Override
                    public RejectedExecutionHandler getRejectedExecutionHandler() {
                        return reported;
                    }
                }
                : new WheelScheduledExecutorService(Impl.virtualThreadBuilder(1)) {
                    @Override
                    public RejectedExecutionHandler getRejectedExecutionHandler() {
                        return reported;
                    }
                });
    }

    @BothImpls
    void overriddenGetCorePoolSize_doesNotChangeHowManyThreadsStart(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = reportingNoCoreThreads(impl, 2);
        CountDownLatch bothRunning = new CountDownLatch(2);
        Gate release = gate();
        for (int i = 0; i < 2; i++) {
            e.execute(() -> {
                bothRunning.countDown();
                release.awaitUninterruptibly();
            });
        }
        // two core threads start (the configured size), so both tasks run at once
        assertEquals(true, bothRunning.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(2, e.getPoolSize());
        assertEquals(0, e.getCorePoolSize());
        release.open();
    }

    @BothImpls
    void overriddenGetRejectedExecutionHandler_doesNotChangeWhoRejects(Impl impl) {
        ScheduledThreadPoolExecutor e = reportingDiscardPolicy(impl);
        e.shutdown();
        // the configured AbortPolicy rejects, not the handler the getter reports
        assertThrows(RejectedExecutionException.class, () -> e.schedule(() -> { }, 1, MILLISECONDS));
        assertThrows(RejectedExecutionException.class, () -> e.execute(() -> { }));
    }
}
