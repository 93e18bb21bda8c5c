package io.timewheel.bench.jmh;

import io.timewheel.wheel.TimerEntry;
import io.timewheel.wheel.TimerWheel;
import org.agrona.DeadlineTimerWheel;

import java.util.concurrent.TimeUnit;

/**
 * The two single-threaded, clock-free wheels behind one API with index-addressed timers (both pay the
 * same array indirection): timewheel's {@link TimerWheel} and Agrona's {@link DeadlineTimerWheel}. Both
 * use a 2^20 ns (1.05 ms) tick; Agrona's single level has 512 slots. Not thread safe.
 */
abstract class WheelDriver {

    static final long TICK_NANOS = 1L << 20;
    static final int AGRONA_TICKS_PER_WHEEL = 512;

    /** Arms timer {@code index} at {@code deadline}. */
    abstract void add(int index, long deadline);

    abstract void cancel(int index);

    /** Moves the wheel's time to {@code now} and expires every due timer; returns how many expired. */
    abstract int expire(long now);

    abstract int size();

    static WheelDriver create(String impl, long start, int capacity) {
        switch (impl) {
            case "timewheel":
                return new Ours(start, capacity);
            case "agrona":
                return new Agrona(start, capacity);
            default:
                throw new IllegalArgumentException("impl must be timewheel or agrona: " + impl);
        }
    }

    static final class Ours extends WheelDriver {
        private final TimerWheel<Entry> wheel;
        private final Entry[] entries;
        private int expired;

        Ours(long start, int capacity) {
            wheel = new TimerWheel<>(TICK_NANOS, start);
            entries = new Entry[capacity];
            for (int i = 0; i < capacity; i++) {
                entries[i] = new Entry();
            }
        }

        @Override
        void add(int index, long deadline) {
            Entry e = entries[index];
            e.arm(deadline);
            wheel.add(e);
        }

        @Override
        void cancel(int index) {
            wheel.remove(entries[index]);
        }

        @Override
        int expire(long now) {
            expired = 0;
            wheel.expire(now, e -> expired++);
            return expired;
        }

        @Override
        int size() {
            return wheel.size();
        }
    }

    static final class Entry extends TimerEntry {
        void arm(long deadline) {
            setDeadline(deadline);
        }
    }

    static final class Agrona extends WheelDriver {
        private final DeadlineTimerWheel wheel;
        private final long[] ids;
        private int expired;
        private final DeadlineTimerWheel.TimerHandler handler = (unit, now, timerId) -> {
            expired++;
            return true;
        };

        Agrona(long start, int capacity) {
            wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, start, TICK_NANOS, AGRONA_TICKS_PER_WHEEL);
            ids = new long[capacity];
        }

        @Override
        void add(int index, long deadline) {
            ids[index] = wheel.scheduleTimer(deadline);
        }

        @Override
        void cancel(int index) {
            wheel.cancelTimer(ids[index]);
        }

        @Override
        int expire(long now) {
            expired = 0;
            do {
                wheel.poll(now, handler, Integer.MAX_VALUE); // one tick per call
            } while (wheel.currentTickTime() <= now);
            return expired;
        }

        @Override
        int size() {
            return (int) wheel.timerCount();
        }
    }
}
