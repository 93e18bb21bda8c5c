package io.timewheel.bench.peer;

import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.TimerTask;

import java.util.concurrent.TimeUnit;

/**
 * Kafka's hierarchical timing wheel (the purgatory timer). SystemTimer only moves when someone calls
 * advanceClock; SystemTimerReaper is Kafka's own thread that does so (polling every 200 ms). Due tasks
 * run on SystemTimer's single executor thread. Its API is in whole milliseconds.
 */
final class KafkaPeer implements TimerService {

    private final Peer peer;
    private final SystemTimerReaper timer;

    KafkaPeer(Peer peer) {
        this.peer = peer;
        this.timer = new SystemTimerReaper("bench-kafka-reaper", new SystemTimer("bench-kafka"));
    }

    @Override
    public Peer peer() {
        return peer;
    }

    @Override
    public Object schedule(Runnable task, long delay, TimeUnit unit) {
        Task t = new Task(unit.toMillis(delay), task);
        timer.add(t);
        return t;
    }

    @Override
    public boolean cancel(Object handle) {
        ((Task) handle).cancel();
        return true;
    }

    @Override
    public Object root() {
        return timer;
    }

    @Override
    public void close() {
        try {
            timer.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return peer.id();
    }

    private static final class Task extends TimerTask {
        private final Runnable body;

        Task(long delayMs, Runnable body) {
            super(delayMs);
            this.body = body;
        }

        @Override
        public void run() {
            body.run();
        }
    }
}
