package io.timewheel.executor.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A tick thread woke from a timed park later than it asked, by more than TickThread.LATE_WAKE_NANOS
 * (2^21 ns = 2.1 ms). Committed by that tick thread (Jfr.tickThreadLate) only while a recording has it
 * enabled; its fields are written by the committing thread before commit().
 */
@Name("io.timewheel.TickThreadLate")
@Label("Tick Thread Late")
@Category({"timewheel", "Executor"})
@Description("The tick thread woke later than it asked to: tasks it was to hand over in time may start late")
@StackTrace(false)
public final class TickThreadLateEvent extends jdk.jfr.Event {
    @Label("Thread")
    String thread;

    @Label("Asked")
    @Description("How long it asked to park")
    @Timespan(Timespan.NANOSECONDS)
    long asked;

    @Label("Late")
    @Description("How much later than asked it woke")
    @Timespan(Timespan.NANOSECONDS)
    long late;
}
