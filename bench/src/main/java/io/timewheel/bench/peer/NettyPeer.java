package io.timewheel.bench.peer;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;

import java.util.concurrent.TimeUnit;

/** Netty's HashedWheelTimer: tasks run on its single worker thread, which also ticks the wheel. */
final class NettyPeer implements TimerService {

    /** Netty moves at most this many new timeouts from its queue into the wheel per tick. */
    private static final int TRANSFER_PER_TICK = 100_000;

    private final Peer peer;
    private final long tickMillis;
    private final HashedWheelTimer timer;
    /**
     * The adapter for the last Runnable scheduled: a benchmark that schedules one Runnable instance
     * over and over allocates no adapter per timer, so JOL counts Netty's own objects only. An immutable
     * object read and written whole: a race only costs an extra adapter.
     */
    private volatile Adapter last;

    NettyPeer(Peer peer, long tickMillis) {
        this.peer = peer;
        this.tickMillis = tickMillis;
        this.timer = new HashedWheelTimer(new NamedThreads("bench-" + peer.id()), tickMillis, TimeUnit.MILLISECONDS, 512);
        this.timer.start();
    }

    @Override
    public Peer peer() {
        return peer;
    }

    @Override
    public Object schedule(Runnable task, long delay, TimeUnit unit) {
        Adapter a = last;
        if (a == null || a.task != task) {
            last = a = new Adapter(task);
        }
        return timer.newTimeout(a, delay, unit);
    }

    @Override
    public boolean cancel(Object handle) {
        return ((Timeout) handle).cancel();
    }

    @Override
    public Object root() {
        return timer;
    }

    @Override
    public void settle() throws InterruptedException {
        long ticks = timer.pendingTimeouts() / TRANSFER_PER_TICK + 3;
        Thread.sleep(ticks * tickMillis);
    }

    @Override
    public void close() {
        timer.stop(); // joins the worker thread
    }

    @Override
    public String toString() {
        return peer.id();
    }

    private static final class Adapter implements TimerTask {
        final Runnable task;

        Adapter(Runnable task) {
            this.task = task;
        }

        @Override
        public void run(Timeout timeout) {
            task.run();
        }
    }
}
