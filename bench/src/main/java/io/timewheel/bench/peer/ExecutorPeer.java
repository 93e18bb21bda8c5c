package io.timewheel.bench.peer;

import io.timewheel.executor.WheelScheduledExecutorService;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A peer that is a {@link ScheduledExecutorService}: timewheel, the JDK's STPE, Java 25's ForkJoinPool. */
final class ExecutorPeer implements TimerService {

    private final Peer peer;
    private final ScheduledExecutorService executor;
    private final ExecutorService root;

    private ExecutorPeer(Peer peer, ScheduledExecutorService executor, ExecutorService root) {
        this.peer = peer;
        this.executor = executor;
        this.root = root;
    }

    static ExecutorPeer timewheel(Peer peer) {
        WheelScheduledExecutorService e = WheelScheduledExecutorService.builder()
                .corePoolSize(1)
                .threadFactory(new NamedThreads("bench-timewheel"))
                .build();
        return new ExecutorPeer(peer, e, e);
    }

    /**
     * timewheel with {@code virtualThreadPerRun()} (unbounded): the same single pool thread and shared tick
     * thread as {@link #timewheel}, but each due run starts on a new virtual thread. Java 21+ (checked by
     * {@link Peer#unavailableReason}; build() would throw UnsupportedOperationException).
     */
    static ExecutorPeer timewheelVirtualThreads(Peer peer) {
        WheelScheduledExecutorService e = WheelScheduledExecutorService.builder()
                .corePoolSize(1)
                .threadFactory(new NamedThreads("bench-timewheel-vt"))
                .virtualThreadPerRun()
                .build();
        return new ExecutorPeer(peer, e, e);
    }

    static ExecutorPeer stpe(Peer peer, boolean removeOnCancel) {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, new NamedThreads("bench-" + peer.id()));
        e.setRemoveOnCancelPolicy(removeOnCancel);
        return new ExecutorPeer(peer, e, e);
    }

    /** Java 25+: ForkJoinPool implements ScheduledExecutorService (checked by {@link Peer#unavailableReason}). */
    static ExecutorPeer forkJoin(Peer peer) {
        ForkJoinPool pool = new ForkJoinPool(1);
        return new ExecutorPeer(peer, (ScheduledExecutorService) (Object) pool, pool);
    }

    @Override
    public Peer peer() {
        return peer;
    }

    @Override
    public Object schedule(Runnable task, long delay, TimeUnit unit) {
        return executor.schedule(task, delay, unit);
    }

    @Override
    public boolean cancel(Object handle) {
        return ((Future<?>) handle).cancel(false);
    }

    @Override
    public Object root() {
        return root;
    }

    @Override
    public void betweenIterations() {
        if (peer == Peer.STPE) {
            ((ScheduledThreadPoolExecutor) executor).purge();
        }
    }

    @Override
    public void close() {
        root.shutdownNow();
        try {
            if (!root.awaitTermination(60, TimeUnit.SECONDS)) {
                System.err.println(peer.id() + ": did not terminate within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return peer.id();
    }
}
