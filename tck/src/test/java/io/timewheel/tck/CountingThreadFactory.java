package io.timewheel.tck;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread factory that counts its calls, remembers the threads it made and what escaped them, and can be
 * switched to return null or to throw. Any thread.
 */
final class CountingThreadFactory implements ThreadFactory {
    enum Mode { NORMAL, RETURN_NULL, THROW }

    static final class FactoryFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FactoryFailure() {
            super("thread factory failure (expected by the test)");
        }
    }

    private final ThreadFactory delegate = Executors.defaultThreadFactory();
    final AtomicInteger calls = new AtomicInteger();
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    final FactoryFailure failure = new FactoryFailure();
    volatile Mode mode = Mode.NORMAL;

    @Override
    public Thread newThread(Runnable r) {
        calls.incrementAndGet();
        switch (mode) {
            case RETURN_NULL:
                return null;
            case THROW:
                throw failure;
            default:
                Thread t = delegate.newThread(r);
                t.setUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
                threads.add(t);
                return t;
        }
    }
}
