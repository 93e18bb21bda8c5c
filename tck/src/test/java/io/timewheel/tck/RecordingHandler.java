package io.timewheel.tck;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;

/** A rejection handler that records every call and then either returns or throws. Any thread. */
final class RecordingHandler implements RejectedExecutionHandler {
    static final class Call {
        final Runnable task;
        final ThreadPoolExecutor executor;
        final Thread thread;
        final boolean executorWasShutdown;

        Call(Runnable task, ThreadPoolExecutor executor) {
            this.task = task;
            this.executor = executor;
            this.thread = Thread.currentThread();
            this.executorWasShutdown = executor.isShutdown();
        }
    }

    final List<Call> calls = new CopyOnWriteArrayList<>();
    private final boolean abort;

    private RecordingHandler(boolean abort) {
        this.abort = abort;
    }

    /** Records, then returns normally (like DiscardPolicy). */
    static RecordingHandler discarding() {
        return new RecordingHandler(false);
    }

    /** Records, then throws RejectedExecutionException (like AbortPolicy). */
    static RecordingHandler aborting() {
        return new RecordingHandler(true);
    }

    @Override
    public void rejectedExecution(Runnable r, ThreadPoolExecutor executor) {
        calls.add(new Call(r, executor));
        if (abort) {
            throw new RejectedExecutionException("rejected by RecordingHandler");
        }
    }
}
