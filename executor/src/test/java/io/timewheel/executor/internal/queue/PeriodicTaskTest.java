package io.timewheel.executor.internal.queue;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PeriodicTaskTest {

    @Test
    void skipAhead_movesByWholePeriods_toTheFirstPointNotBeforeNow() {
        assertEquals(5L, PeriodicTask.skipAhead(5L, 3L, 2L));
        assertEquals(5L, PeriodicTask.skipAhead(5L, 5L, 2L));
        assertEquals(7L, PeriodicTask.skipAhead(5L, 6L, 2L));
        assertEquals(7L, PeriodicTask.skipAhead(5L, 7L, 2L));
        assertEquals(Long.MIN_VALUE + 1, PeriodicTask.skipAhead(Long.MAX_VALUE - 2, Long.MIN_VALUE, 4L)); // across the wrap
        assertEquals(Long.MAX_VALUE, PeriodicTask.skipAhead(Long.MAX_VALUE - TimeUnit.DAYS.toNanos(1),
                Long.MAX_VALUE - 1, TimeUnit.DAYS.toNanos(1)));
    }
}
