package io.timewheel.tck;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * The implementations under test. Every behavioural test runs once per constant: a test that passes on
 * {@link #JDK} encodes real {@link ScheduledThreadPoolExecutor} behaviour, which {@link #WHEEL} and
 * {@link #WHEEL_VT} must match. {@link #WHEEL_VT} is the wheel executor built with
 * {@code virtualThreadPerRun()} (each due run on a new virtual thread): its runs are skipped on Java < 21, and
 * the tests of thread identity, pool size and thread-factory use, which do not apply to it, are skipped
 * with their reasons listed in {@link VirtualThreadMode}.
 */
public enum Impl {
    JDK {
        @Override
        public ScheduledThreadPoolExecutor create(int core) {
            return new ScheduledThreadPoolExecutor(core);
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, ThreadFactory factory) {
            return new ScheduledThreadPoolExecutor(core, factory);
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, RejectedExecutionHandler handler) {
            return new ScheduledThreadPoolExecutor(core, handler);
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, ThreadFactory factory, RejectedExecutionHandler handler) {
            return new ScheduledThreadPoolExecutor(core, factory, handler);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, Hooks hooks) {
            return new HookedJdkExecutor(core, hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, Hooks hooks) {
            return new HookedJdkExecutor(core, factory, hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, RejectedExecutionHandler handler, Hooks hooks) {
            return new HookedJdkExecutor(core, handler, hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, RejectedExecutionHandler handler,
                                                    Hooks hooks) {
            return new HookedJdkExecutor(core, factory, handler, hooks);
        }

        @Override
        public Class<? extends ScheduledThreadPoolExecutor> type() {
            return ScheduledThreadPoolExecutor.class;
        }
    },

    WHEEL {
        @Override
        public ScheduledThreadPoolExecutor create(int core) {
            return new WheelScheduledExecutorService(core);
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, ThreadFactory factory) {
            return new WheelScheduledExecutorService(core, factory);
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, RejectedExecutionHandler handler) {
            return new WheelScheduledExecutorService(core, handler);
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, ThreadFactory factory, RejectedExecutionHandler handler) {
            return new WheelScheduledExecutorService(core, factory, handler);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, Hooks hooks) {
            return new HookedWheelExecutor(core, hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, Hooks hooks) {
            return new HookedWheelExecutor(core, factory, hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, RejectedExecutionHandler handler, Hooks hooks) {
            return new HookedWheelExecutor(core, handler, hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, RejectedExecutionHandler handler,
                                                    Hooks hooks) {
            return new HookedWheelExecutor(core, factory, handler, hooks);
        }

        @Override
        public Class<? extends ScheduledThreadPoolExecutor> type() {
            return WheelScheduledExecutorService.class;
        }
    },

    /**
     * The wheel executor with {@code virtualThreadPerRun()}, unbounded, everything else as the constructors:
     * built through the builder (and, for {@link #subclass}, through the protected constructor that takes
     * one). The builder checks its arguments as it receives them, core size last (in build()), so a
     * constructor test that passes a negative size and a null factory sees the factory's NPE first; those
     * tests are in VirtualThreadMode's list.
     */
    WHEEL_VT {
        @Override
        public ScheduledThreadPoolExecutor create(int core) {
            return virtualThreadBuilder(core).build();
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, ThreadFactory factory) {
            return virtualThreadBuilder(core).threadFactory(factory).build();
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, RejectedExecutionHandler handler) {
            return virtualThreadBuilder(core).rejectedExecutionHandler(handler).build();
        }

        @Override
        public ScheduledThreadPoolExecutor create(int core, ThreadFactory factory, RejectedExecutionHandler handler) {
            return virtualThreadBuilder(core).threadFactory(factory).rejectedExecutionHandler(handler).build();
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, Hooks hooks) {
            return new HookedWheelExecutor(virtualThreadBuilder(core), hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, Hooks hooks) {
            return new HookedWheelExecutor(virtualThreadBuilder(core).threadFactory(factory), hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, RejectedExecutionHandler handler, Hooks hooks) {
            return new HookedWheelExecutor(virtualThreadBuilder(core).rejectedExecutionHandler(handler), hooks);
        }

        @Override
        public ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, RejectedExecutionHandler handler,
                                                    Hooks hooks) {
            return new HookedWheelExecutor(
                    virtualThreadBuilder(core).threadFactory(factory).rejectedExecutionHandler(handler), hooks);
        }

        @Override
        public Class<? extends ScheduledThreadPoolExecutor> type() {
            return WheelScheduledExecutorService.class;
        }
    };

    /**
     * The builder of {@link #WHEEL_VT}'s executors: {@code virtualThreadPerRun()} and the given core size.
     * Aborts the calling test (skipped, not failed) on Java < 21, where build() would throw.
     */
    static WheelScheduledExecutorService.Builder virtualThreadBuilder(int core) {
        VirtualThreadMode.assumeVirtualThreads();
        return WheelScheduledExecutorService.builder().corePoolSize(core).virtualThreadPerRun();
    }

    /** Whether this is one of the wheel executor's modes (the shared tick thread, the builder). */
    public boolean isWheel() {
        return this != JDK;
    }

    public abstract ScheduledThreadPoolExecutor create(int core);

    public abstract ScheduledThreadPoolExecutor create(int core, ThreadFactory factory);

    public abstract ScheduledThreadPoolExecutor create(int core, RejectedExecutionHandler handler);

    public abstract ScheduledThreadPoolExecutor create(int core, ThreadFactory factory,
                                                       RejectedExecutionHandler handler);

    /** A subclass of this implementation's executor class whose hooks are {@code hooks}. */
    public abstract ScheduledThreadPoolExecutor subclass(int core, Hooks hooks);

    public abstract ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory, Hooks hooks);

    public abstract ScheduledThreadPoolExecutor subclass(int core, RejectedExecutionHandler handler, Hooks hooks);

    public abstract ScheduledThreadPoolExecutor subclass(int core, ThreadFactory factory,
                                                         RejectedExecutionHandler handler, Hooks hooks);

    /** The executor class this constant stands for. */
    public abstract Class<? extends ScheduledThreadPoolExecutor> type();
}
