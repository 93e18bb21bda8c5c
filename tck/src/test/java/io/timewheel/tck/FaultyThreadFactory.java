package io.timewheel.tck;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread factory that fails the way a test scripts it, call by call: the next calls take their behaviour
 * from {@link #script}, then {@link #fallback}. Every thread it makes records what escapes it (so the tests
 * stay quiet and can assert on it). Any thread.
 */
final class FaultyThreadFactory implements ThreadFactory {
    enum Fault {
        /** A normal thread that runs the worker. */
        NONE,
        /** Returns null. */
        RETURN_NULL,
        /** Throws {@link #failure}. */
        THROW,
        /** Throws {@link #error} (an Error, not an exception). */
        THROW_ERROR,
        /** A thread that ignores the worker it was given: it starts, returns at once and dies. */
        DEAD_ON_ARRIVAL,
        /** A thread that is already running (waiting on {@link #released}) when the factory returns it. */
        ALREADY_STARTED,
        /** A thread whose start() throws {@link #startFailure}, as a JVM out of native threads does. */
        START_FAILS
    }

    static final class FactoryFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FactoryFailure(String message) {
            super(message + " (expected by the test)");
        }
    }

    static final class FactoryError extends Error {
        private static final long serialVersionUID = 1L;

        FactoryError(String message) {
            super(message + " (expected by the test)");
        }
    }

    private final ThreadFactory delegate = Executors.defaultThreadFactory();
    final AtomicInteger calls = new AtomicInteger();
    /** Every thread handed out, in order. */
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    /** What escaped a thread handed out (its uncaught exception handler). */
    final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<Fault> script = new ConcurrentLinkedQueue<>();
    volatile Fault fallback = Fault.NONE;
    final FactoryFailure failure = new FactoryFailure("thread factory failure");
    final FactoryError error = new FactoryError("thread factory error");
    final OutOfMemoryError startFailure = new OutOfMemoryError("unable to create native thread (simulated)");
    /** Opened by the test (and by the cleanup) to let ALREADY_STARTED threads end. */
    final Gate released = new Gate();

    FaultyThreadFactory(Fault... first) {
        script.addAll(List.of(first));
    }

    /** How many threads the factory handed out (not null, not thrown). */
    int made() {
        return threads.size();
    }

    @Override
    public Thread newThread(Runnable r) {
        calls.incrementAndGet();
        Fault fault = script.poll();
        if (fault == null) {
            fault = fallback;
        }
        Thread t;
        switch (fault) {
            case RETURN_NULL:
                return null;
            case THROW:
                throw failure;
            case THROW_ERROR:
                throw error;
            case DEAD_ON_ARRIVAL:
                t = delegate.newThread(() -> { });
                break;
            case ALREADY_STARTED:
                t = delegate.newThread(released::awaitUninterruptibly);
                t.setDaemon(true);
                t.start();
                break;
            case START_FAILS:
                t = new Thread(r) {
                    @Override
                    public synchronized void start() {
                        throw startFailure;
                    }
                };
                break;
            default:
                t = delegate.newThread(r);
                break;
        }
        t.setUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        threads.add(t);
        return t;
    }
}
