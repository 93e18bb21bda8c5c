package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.queue.ReadyQueue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ExecutorStatistics' javadoc tells users how far ahead of its deadline the tick thread hands a task over
 * (the hand-over part of lateness is 0 unless the tick thread was later than that): the horizon less the
 * margin's stride less the deferral of a long park. This pins the figure it gives to the constants that make
 * it, so that the two change together.
 */
class HandOverLeadTest {

    @Test
    void theTickThreadsLeastLead_isWhatTheStatisticsJavadocSays() {
        long lead = TickThread.MARGIN_NANOS - TickThread.DEFER_NANOS;
        assertEquals(ReadyQueue.HORIZON_NANOS - 2 * TickThread.STRIDE_NANOS, lead);
        assertEquals(125_829_120L, lead, "ExecutorStatistics' javadoc: \"at least 125.8 ms ahead\"");
    }
}
