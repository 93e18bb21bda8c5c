package io.timewheel.bench.peer;

import java.util.concurrent.TimeUnit;

/**
 * One timer implementation behind one small API, so that every benchmark and harness drives all the
 * peers the same way. Thread safety: {@link #schedule} and {@link #cancel} from any thread (every peer
 * here allows it); the rest from one controlling thread.
 */
public interface TimerService extends AutoCloseable {

    Peer peer();

    /**
     * Schedules {@code task} to run once after {@code delay}. Peers with a millisecond API (Kafka) get the
     * delay in whole milliseconds: the benchmarks only use millisecond delays.
     *
     * @return the handle that {@link #cancel} takes
     */
    Object schedule(Runnable task, long delay, TimeUnit unit);

    /** Cancels a timer through its handle; true if this call cancelled it (always true for Kafka). */
    boolean cancel(Object handle);

    /** The object whose reachable graph holds every pending timer: what JOL measures. */
    Object root();

    /**
     * Waits until the timers handed over so far sit where they wait (the implementation's hand-off queue
     * drained into its wheel or heap). Used before a memory measurement only.
     */
    default void settle() throws InterruptedException {
        Thread.sleep(200);
    }

    /**
     * Between benchmark iterations (not measured): drops what the implementation keeps after a cancel by
     * design (STPE with removeOnCancel=false keeps cancelled tasks until their deadline; purge() drops them,
     * so one iteration's garbage does not pile into the next). A no-op for the others.
     */
    default void betweenIterations() {
    }

    /** Stops the implementation, dropping pending timers, and waits for its threads to end. */
    @Override
    void close();
}
