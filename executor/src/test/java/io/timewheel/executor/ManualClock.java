package io.timewheel.executor;

import io.timewheel.executor.internal.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to. Any thread. */
public final class ManualClock implements NanoClock {
    private final AtomicLong now;

    public ManualClock(long start) {
        now = new AtomicLong(start);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    public long advance(long amount, TimeUnit unit) {
        return now.addAndGet(unit.toNanos(amount));
    }

    public long advanceNanos(long nanos) {
        return now.addAndGet(nanos);
    }
}
