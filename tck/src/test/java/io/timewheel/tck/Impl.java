package io.timewheel.tck;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * The implementations under test. Every behavioural test runs once per constant: a test that passes on
 * {@link #JDK} encodes real {@link ScheduledThreadPoolExecutor} behaviour, which {@link #WHEEL} must match.
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
    };

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
