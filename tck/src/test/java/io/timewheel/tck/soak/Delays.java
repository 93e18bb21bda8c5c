package io.timewheel.tck.soak;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Random delays and periods, in every {@link TimeUnit}: negative, zero, a few milliseconds (most of them, so
 * that tasks run during a round), far (seconds to days) and huge (up to {@code Long.MAX_VALUE} of the unit).
 */
final class Delays {
    /**
     * JDK-8338765: on Java 17 to 23 STPE mishandles delays of 2^62 ns and more (the trigger time's overflow
     * adjustment breaks compareTo), so there huge delays are clamped to 2^61 ns, for both implementations
     * alike; from Java 24 on they go in unclamped up to Long.MAX_VALUE of any unit.
     */
    static final long HUGE_NANOS = Runtime.version().feature() < 24 ? 1L << 61 : Long.MAX_VALUE; // 2^61 ns = 73 y
    /** Periods stay below 2^60 ns (36 years): STPE's fixed-rate time += period overflows with larger ones. */
    static final long MAX_PERIOD_NANOS = 1L << 60;
    private static final long SMALL_NANOS = 3_000_000; // 3 ms
    private static final TimeUnit[] UNITS = TimeUnit.values();
    private static final TimeUnit[] FINE = {TimeUnit.NANOSECONDS, TimeUnit.MICROSECONDS, TimeUnit.MILLISECONDS};

    /** An amount of a unit. */
    record Delay(long amount, TimeUnit unit) {
        /** The delay in nanoseconds, saturated at Long.MAX_VALUE and at 0 (negative means now). */
        long nanos() {
            return Math.max(0L, unit.toNanos(amount));
        }

        @Override
        public String toString() {
            return amount + " " + unit;
        }
    }

    private Delays() {
    }

    static Delay delay(SplittableRandom r) {
        int p = r.nextInt(100);
        if (p < 8) {
            TimeUnit unit = UNITS[r.nextInt(UNITS.length)];
            long amount = switch (r.nextInt(3)) {
                case 0 -> -1;
                case 1 -> Long.MIN_VALUE;
                default -> -1 - r.nextLong(Long.MAX_VALUE);
            };
            return new Delay(amount, unit);
        }
        if (p < 20) {
            return new Delay(0, UNITS[r.nextInt(UNITS.length)]);
        }
        if (p < 77) {
            TimeUnit unit = FINE[r.nextInt(FINE.length)];
            return new Delay(unit.convert(1 + r.nextLong(SMALL_NANOS), TimeUnit.NANOSECONDS), unit);
        }
        if (p < 90) {
            TimeUnit unit = UNITS[r.nextInt(UNITS.length)];
            long nanos = TimeUnit.SECONDS.toNanos(1) + r.nextLong(TimeUnit.DAYS.toNanos(10));
            return new Delay(Math.max(1, unit.convert(nanos, TimeUnit.NANOSECONDS)), unit);
        }
        TimeUnit unit = UNITS[r.nextInt(UNITS.length)];
        long amount = switch (r.nextInt(3)) {
            case 0 -> Long.MAX_VALUE;
            case 1 -> Long.MAX_VALUE / 2 + r.nextLong(Long.MAX_VALUE / 2);
            default -> unit.convert(1L << (40 + r.nextInt(23)), TimeUnit.NANOSECONDS);
        };
        return clampHuge(new Delay(Math.max(1, amount), unit));
    }

    /** A period: mostly 100 us to 2 ms, sometimes seconds to 2^60 ns; always positive. */
    static Delay period(SplittableRandom r) {
        if (r.nextInt(100) < 75) {
            TimeUnit unit = FINE[r.nextInt(FINE.length)];
            long nanos = 100_000 + r.nextLong(1_900_000);
            return new Delay(Math.max(1, unit.convert(nanos, TimeUnit.NANOSECONDS)), unit);
        }
        TimeUnit unit = UNITS[r.nextInt(UNITS.length)];
        long nanos = TimeUnit.SECONDS.toNanos(1) + r.nextLong(MAX_PERIOD_NANOS - TimeUnit.SECONDS.toNanos(1));
        return new Delay(Math.max(1, unit.convert(nanos, TimeUnit.NANOSECONDS)), unit);
    }

    /** The same delay in another unit (saturating; a coarser unit truncates), clamped as huge delays are. */
    static Delay inUnit(Delay d, TimeUnit unit) {
        return clampHuge(new Delay(unit.convert(d.amount(), d.unit()), unit));
    }

    private static Delay clampHuge(Delay d) {
        if (d.unit().toNanos(d.amount()) <= HUGE_NANOS) {
            return d;
        }
        return new Delay(Math.max(1, d.unit().convert(HUGE_NANOS, TimeUnit.NANOSECONDS)), d.unit());
    }

    /** a + b, saturated at Long.MAX_VALUE (both non-negative). */
    static long add(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    /** a * b, saturated at Long.MAX_VALUE (both non-negative). */
    static long multiply(long a, long b) {
        return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }
}
