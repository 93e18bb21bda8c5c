package io.timewheel.executor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to. Any thread. */
final class ManualClock implements NanoClock {
    private final AtomicLong now;

    ManualClock(long start) {
        now = new AtomicLong(start);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    long advance(long amount, TimeUnit unit) {
        return now.addAndGet(unit.toNanos(amount));
    }

    long advanceNanos(long nanos) {
        return now.addAndGet(nanos);
    }
}
