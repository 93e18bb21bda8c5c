package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicReference;

/** The four constructors, their argument checks, every getter's initial value, and the setters' checks. */
class ConstructionTest extends TckTest {
    private static final ThreadFactory FACTORY = Executors.defaultThreadFactory();
    private static final RejectedExecutionHandler HANDLER = new ThreadPoolExecutor.DiscardPolicy();

    /** One executor from each of the four constructors, all with the given core size. */
    private List<ScheduledThreadPoolExecutor> fromEveryConstructor(Impl impl, int core) {
        return List.of(executor(impl, core), executor(impl, core, FACTORY), executor(impl, core, HANDLER),
                executor(impl, core, FACTORY, HANDLER));
    }

    @BothImpls
    void negativeCore_throwsIAE_fromEveryConstructor(Impl impl) {
        for (int core : new int[] {-1, Integer.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> impl.create(core));
            assertThrows(IllegalArgumentException.class, () -> impl.create(core, FACTORY));
            assertThrows(IllegalArgumentException.class, () -> impl.create(core, HANDLER));
            assertThrows(IllegalArgumentException.class, () -> impl.create(core, FACTORY, HANDLER));
        }
    }

    @BothImpls
    void nullThreadFactory_throwsNPE(Impl impl) {
        assertThrows(NullPointerException.class, () -> impl.create(1, (ThreadFactory) null));
        assertThrows(NullPointerException.class, () -> impl.create(1, null, HANDLER));
    }

    @BothImpls
    void nullHandler_throwsNPE(Impl impl) {
        assertThrows(NullPointerException.class, () -> impl.create(1, (RejectedExecutionHandler) null));
        assertThrows(NullPointerException.class, () -> impl.create(1, FACTORY, null));
    }

    @BothImpls
    void negativeCoreWithNullArguments_throwsIAE_sizeIsCheckedFirst(Impl impl) {
        // ThreadPoolExecutor's 7-argument constructor checks the sizes before the null arguments.
        assertThrows(IllegalArgumentException.class, () -> impl.create(-1, (ThreadFactory) null));
        assertThrows(IllegalArgumentException.class, () -> impl.create(-1, (RejectedExecutionHandler) null));
        assertThrows(IllegalArgumentException.class, () -> impl.create(-1, null, null));
    }

    @BothImpls
    void coreZero_isAccepted(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 0)) {
            assertEquals(0, e.getCorePoolSize());
        }
    }

    @BothImpls
    void corePoolSize_isTheGivenValue(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 3)) {
            assertEquals(3, e.getCorePoolSize());
        }
    }

    @BothImpls
    void maximumPoolSize_isIntegerMaxValue(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 2)) {
            assertEquals(Integer.MAX_VALUE, e.getMaximumPoolSize());
        }
    }

    @BothImpls
    void keepAlive_isTenMilliseconds(Impl impl) {
        // STPE passes DEFAULT_KEEPALIVE_MILLIS = 10 to every ThreadPoolExecutor constructor it calls.
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 1)) {
            assertEquals(10, e.getKeepAliveTime(MILLISECONDS));
            assertEquals(10_000_000, e.getKeepAliveTime(NANOSECONDS));
            assertEquals(0, e.getKeepAliveTime(SECONDS));
        }
    }

    @BothImpls
    void coreThreadTimeOut_isOffByDefault(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 1)) {
            assertFalse(e.allowsCoreThreadTimeOut());
        }
    }

    @BothImpls
    void policies_haveTheirDocumentedDefaults(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 1)) {
            assertTrue(e.getExecuteExistingDelayedTasksAfterShutdownPolicy());
            assertFalse(e.getContinueExistingPeriodicTasksAfterShutdownPolicy());
            assertFalse(e.getRemoveOnCancelPolicy());
        }
    }

    @BothImpls
    void handler_isAbortPolicyUnlessGiven(Impl impl) {
        assertSame(ThreadPoolExecutor.AbortPolicy.class, executor(impl, 1).getRejectedExecutionHandler().getClass());
        assertSame(ThreadPoolExecutor.AbortPolicy.class,
                executor(impl, 1, FACTORY).getRejectedExecutionHandler().getClass());
        assertSame(HANDLER, executor(impl, 1, HANDLER).getRejectedExecutionHandler());
        assertSame(HANDLER, executor(impl, 1, FACTORY, HANDLER).getRejectedExecutionHandler());
    }

    @BothImpls
    void threadFactory_isExecutorsDefaultUnlessGiven(Impl impl) {
        Class<?> defaultFactoryClass = Executors.defaultThreadFactory().getClass();
        assertSame(defaultFactoryClass, executor(impl, 1).getThreadFactory().getClass());
        assertSame(defaultFactoryClass, executor(impl, 1, HANDLER).getThreadFactory().getClass());
        assertSame(FACTORY, executor(impl, 1, FACTORY).getThreadFactory());
        assertSame(FACTORY, executor(impl, 1, FACTORY, HANDLER).getThreadFactory());
    }

    @BothImpls
    void counters_startAtZero_queueEmpty(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 2)) {
            assertEquals(0, e.getPoolSize());
            assertEquals(0, e.getActiveCount());
            assertEquals(0, e.getLargestPoolSize());
            assertEquals(0, e.getTaskCount());
            assertEquals(0, e.getCompletedTaskCount());
            assertTrue(e.getQueue().isEmpty());
            assertEquals(0, e.getQueue().size());
        }
    }

    @BothImpls
    void runState_isRunning(Impl impl) {
        for (ScheduledThreadPoolExecutor e : fromEveryConstructor(impl, 1)) {
            assertFalse(e.isShutdown());
            assertFalse(e.isTerminating());
            assertFalse(e.isTerminated());
        }
    }

    @BothImpls
    void construction_startsNoThread(Impl impl) {
        CountingThreadFactory factory = new CountingThreadFactory();
        ScheduledThreadPoolExecutor e = executor(impl, 4, factory);
        assertEquals(0, factory.calls.get());
        assertEquals(0, e.getPoolSize());
    }

    @BothImpls
    void isAScheduledThreadPoolExecutor(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        assertTrue(e instanceof ScheduledExecutorService);
        assertTrue(e instanceof ThreadPoolExecutor);
        assertTrue(e instanceof AbstractExecutorService);
        assertSame(impl.type(), e.getClass());
    }

    @BothImpls
    void defaultFactoryThreads_areNonDaemonNormPriority_namedPoolThread(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        AtomicReference<Thread> worker = new AtomicReference<>();
        get(e.submit(() -> worker.set(Thread.currentThread())));
        Thread t = worker.get();
        assertFalse(t.isDaemon());
        assertEquals(Thread.NORM_PRIORITY, t.getPriority());
        assertTrue(t.getName().matches("pool-\\d+-thread-\\d+"), t.getName());
    }

    @BothImpls
    void setters_roundTrip(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.setMaximumPoolSize(7);
        assertEquals(7, e.getMaximumPoolSize());
        e.setCorePoolSize(5);
        assertEquals(5, e.getCorePoolSize());
        e.setKeepAliveTime(3, SECONDS);
        assertEquals(3000, e.getKeepAliveTime(MILLISECONDS));
        e.allowCoreThreadTimeOut(true);
        assertTrue(e.allowsCoreThreadTimeOut());
        e.setRemoveOnCancelPolicy(true);
        assertTrue(e.getRemoveOnCancelPolicy());
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        assertFalse(e.getExecuteExistingDelayedTasksAfterShutdownPolicy());
        e.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
        assertTrue(e.getContinueExistingPeriodicTasksAfterShutdownPolicy());
        e.setThreadFactory(FACTORY);
        assertSame(FACTORY, e.getThreadFactory());
        e.setRejectedExecutionHandler(HANDLER);
        assertSame(HANDLER, e.getRejectedExecutionHandler());
    }

    @BothImpls
    void setCorePoolSize_negative_throwsIAE_valueUnchanged(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        assertThrows(IllegalArgumentException.class, () -> e.setCorePoolSize(-1));
        assertEquals(2, e.getCorePoolSize());
    }

    @BothImpls
    void setCorePoolSize_aboveMaximum_throwsIAE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.setMaximumPoolSize(2);
        assertThrows(IllegalArgumentException.class, () -> e.setCorePoolSize(3));
        assertEquals(1, e.getCorePoolSize());
    }

    @BothImpls
    void setMaximumPoolSize_nonPositiveOrBelowCore_throwsIAE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        assertThrows(IllegalArgumentException.class, () -> e.setMaximumPoolSize(0));
        assertThrows(IllegalArgumentException.class, () -> e.setMaximumPoolSize(-1));
        assertThrows(IllegalArgumentException.class, () -> e.setMaximumPoolSize(1));
        assertEquals(Integer.MAX_VALUE, e.getMaximumPoolSize());
    }

    @BothImpls
    void setKeepAliveTime_negative_throwsIAE_nullUnit_throwsNPE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        assertThrows(IllegalArgumentException.class, () -> e.setKeepAliveTime(-1, SECONDS));
        assertThrows(NullPointerException.class, () -> e.setKeepAliveTime(1, null));
        assertEquals(10, e.getKeepAliveTime(MILLISECONDS));
    }

    @BothImpls
    void setThreadFactoryOrHandlerToNull_throwsNPE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        assertThrows(NullPointerException.class, () -> e.setThreadFactory(null));
        assertThrows(NullPointerException.class, () -> e.setRejectedExecutionHandler(null));
    }

    @BothImpls
    void allowCoreThreadTimeOut_withZeroKeepAlive_throwsIAE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.setKeepAliveTime(0, SECONDS);
        assertThrows(IllegalArgumentException.class, () -> e.allowCoreThreadTimeOut(true));
        assertFalse(e.allowsCoreThreadTimeOut());
    }

    @BothImpls
    void zeroKeepAlive_whileCoreThreadTimeOutAllowed_throwsIAE(Impl impl) {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        e.allowCoreThreadTimeOut(true); // the default keep-alive (10 ms) is non-zero, so this is allowed
        assertThrows(IllegalArgumentException.class, () -> e.setKeepAliveTime(0, SECONDS));
        assertEquals(10, e.getKeepAliveTime(MILLISECONDS));
    }
}
