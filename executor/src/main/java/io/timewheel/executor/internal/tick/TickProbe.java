package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.Log;
import io.timewheel.executor.internal.queue.QueueWheel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The tests' one seam into a tick thread (TickThread.Probe): given to a dedicated tick thread when it is
 * created (through the executor builder's testSeam), it counts the thread's loops, records its parks, and
 * answers sync requests after an expiry step. A tick thread made without one (every production tick thread)
 * pays a null check at each of those three points per loop, nothing else. Test-side methods: any thread,
 * unless a method says otherwise.
 */
public final class TickProbe implements TickThread.Probe {
    /*
     * Implementation notes
     *
     * Ownership: tick is written once by the tick thread's constructor (attach), before the thread starts,
     * and read by any thread after the executor that made the thread was built (its construction
     * happens-before the test's calls); loops, lastParkDelay and parkedInLoop are written by the tick thread
     * only, volatile for the tests' reads (parkedInLoop after lastParkDelay: a test that sees a loop's number
     * sees its park time); afterExpiry is the tick thread's only (runAfterExpiry is called from a command).
     */

    private TickThread tick;
    private volatile long loops;
    private volatile long lastParkDelay;
    private volatile long parkedInLoop = -1;
    /** Actions to run after this loop's expiry step (runAfterExpiry). Tick thread only. */
    private final List<Runnable> afterExpiry = new ArrayList<>();

    // ---------------------------------------------------------------------------------------------
    // The tick thread's side

    @Override
    public void attach(TickThread tick) {
        if (this.tick != null) {
            throw new IllegalStateException("a probe serves one tick thread");
        }
        this.tick = tick;
    }

    @Override
    public void loopStarted() {
        loops = loops + 1;
    }

    @Override
    public void parking(long delay) {
        lastParkDelay = delay;
        parkedInLoop = loops;
    }

    @Override
    public void afterExpiry() {
        for (int i = 0; i < afterExpiry.size(); i++) {
            Runnable action = afterExpiry.get(i);
            try {
                action.run();
            } catch (Throwable t) {
                Log.tickFailure("probe action " + action, t);
            }
        }
        afterExpiry.clear();
    }

    // ---------------------------------------------------------------------------------------------
    // The tests' side

    /** The tick thread. */
    public TickThread tickThread() {
        return tick;
    }

    /** The tick thread's thread. */
    public Thread thread() {
        return tick.thread();
    }

    /** Loop iterations so far (wake-ups and re-checks). */
    public long loops() {
        return loops;
    }

    /** The last park time decided, as passed to parkNanos (or ParkGate.INDEFINITELY). */
    public long lastParkDelay() {
        return lastParkDelay;
    }

    /** The loop (as counted by loops()) that decided the last park, or -1. */
    public long parkedInLoop() {
        return parkedInLoop;
    }

    /**
     * The park state now: ParkGate's AWAKE, PARKED_SHORT, PARKED_LONG or PARKED_LAZY, of which TickThread
     * names AWAKE and PARKED_LONG for the tests.
     */
    public int parkState() {
        return tick.gate.state();
    }

    /** When the thread means to look, if parked (a long park's own timer fires TickThread.DEFER_NANOS later). */
    public long wakeAt() {
        return tick.gate.wakeAt();
    }

    /** From a command's run, on the tick thread: runs {@code action} after this loop's expiry step. */
    public void runAfterExpiry(Runnable action) {
        afterExpiry.add(action);
    }

    /**
     * Waits until the tick thread has read everything offered before this call, read the clock and handed
     * every entry due then to its ready queue; returns what it saw then.
     */
    public Seen sync(long timeout, TimeUnit unit) throws InterruptedException {
        Seen seen = new Seen();
        CountDownLatch done = new CountDownLatch(1);
        tick.command(new TickThread.Command(true) {
            @Override
            protected void run(TickThread t) {
                runAfterExpiry(() -> {
                    for (QueueWheel room : t.served) {
                        seen.wheelSize += room.size();
                        seen.wheelTickNanos = room.wheelTickNanos();
                    }
                    seen.pacerYields = t.pacer.yields();
                    done.countDown();
                });
            }
        });
        if (!done.await(timeout, unit)) {
            throw new IllegalStateException("tick thread did not answer within " + timeout + " " + unit);
        }
        return seen;
    }

    /** What a sync saw, written by the tick thread before it released the caller. */
    public static final class Seen {
        private int wheelSize;
        private long wheelTickNanos;
        private long pacerYields;

        /** The entries in the wheels the tick thread served. */
        public int wheelSize() {
            return wheelSize;
        }

        /** The tick of a wheel it served, or 0 if it had none. */
        public long wheelTickNanos() {
            return wheelTickNanos;
        }

        /** How often its pacer had yielded by then. */
        public long pacerYields() {
            return pacerYields;
        }
    }
}
