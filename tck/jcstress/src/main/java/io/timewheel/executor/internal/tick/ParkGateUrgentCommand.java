package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.LowBound;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An urgent command (a snapshot of the queue: its caller waits) against the tick thread parking with nothing
 * pending, on the real {@link ParkGate}: the sender offers the command and calls {@code urgent()} (unpark or
 * not); the tick thread, whose loop began (beginLoop) before the offer, decides whether to park
 * ({@code prepare}, indefinitely here). If the sender does not unpark and the tick thread parks, the caller
 * waits forever: FORBIDDEN. Results: (the sender unparks ? 1 : 0, the tick thread parks ? 1 : 0).
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=ParkGateUrgentCommand
 * </pre>
 */
@JCStressTest
@Description("ParkGate: an urgent command vs the tick thread parking indefinitely never leaves the command unread")
@Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "the tick thread saw the command and looks again")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the tick thread parks; the sender wakes it")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wake-up: parks with the command unread, nobody wakes it")
@State
public class ParkGateUrgentCommand {
    static final long NOW = 1_000_000_000L;

    private final ParkGate gate = new ParkGate(TickThread.MARGIN_NANOS, TickThread.DRAIN_NANOS, NOW);

    public ParkGateUrgentCommand() {
        gate.beginLoop();
        gate.reset(LowBound.resetValue(NOW));
    }

    @Actor
    public void sender(II_Result r) {
        r.r1 = gate.urgent() ? 1 : 0;
    }

    @Actor
    public void tickThread(II_Result r) {
        r.r2 = gate.prepare(NOW, NOW + Long.MAX_VALUE) > 0 ? 1 : 0;
    }
}
