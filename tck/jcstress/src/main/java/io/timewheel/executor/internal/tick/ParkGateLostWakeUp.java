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
 * The tick thread's lost-wake-up race, on the real {@link ParkGate}: a producer offers an entry due at D
 * ({@code lowerPending(D)}, then {@code signal(D, now)}: unpark or not) while the tick thread, having just
 * reset the gate before a detach that did not see the entry, decides how long to park ({@code prepare}). If
 * the producer decides not to unpark and the tick thread parks past D - margin (the time it must look to hand
 * D over in time), the entry is late with nobody to wake the tick thread: FORBIDDEN. Results: (the producer
 * unparks ? 1 : 0, the tick thread parks past D - margin ? 1 : 0).
 *
 * <p>Three starting points: nothing else pending (it would park indefinitely), a far deadline pending (it
 * would park long, PARKED_LONG: producers CAS it awake), a near one (PARKED_SHORT: producers only unpark).
 * Time is fixed (passed in), so the results depend only on the interleaving.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=ParkGateLostWakeUp
 * </pre>
 */
public final class ParkGateLostWakeUp {
    static final long NOW = 1_000_000_000L;
    static final long MARGIN = TickThread.MARGIN_NANOS;
    static final long DRAIN = TickThread.DRAIN_NANOS;

    private ParkGateLostWakeUp() {}

    /** A gate as the tick thread leaves it right before its detach: reset, nothing offered since. */
    abstract static class Race {
        final ParkGate gate = new ParkGate(MARGIN, DRAIN, NOW);
        private final long deadline;
        private final long next;

        Race(long deadline, long next) {
            this.deadline = deadline;
            this.next = next;
            gate.reset(LowBound.resetValue(NOW));
        }

        final int produce() {
            gate.lowerPending(deadline);
            return gate.signal(deadline, NOW) ? 1 : 0;
        }

        final int park() {
            long delay = gate.prepare(NOW, next);
            if (delay <= 0) {
                return 0; // looks again at once
            }
            return delay == ParkGate.INDEFINITELY || NOW + delay - (deadline - MARGIN) > 0 ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("ParkGate: offer due in 10 ms vs the tick thread parking with nothing else pending")
    @Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "the tick thread saw the offer and does not sleep past it")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the tick thread parks; the producer wakes it")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wake-up: parks past the deadline, nobody wakes it")
    @State
    public static class Indefinite extends Race {
        public Indefinite() {
            super(NOW + 10_000_000L, NOW + Long.MAX_VALUE);
        }

        @Actor
        public void producer(II_Result r) {
            r.r1 = produce();
        }

        @Actor
        public void tickThread(II_Result r) {
            r.r2 = park();
        }
    }

    @JCStressTest
    @Description("ParkGate: offer due in 10 ms vs the tick thread parking long for a deadline 1 s away (PARKED_LONG)")
    @Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "the tick thread saw the offer and does not sleep past it")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the tick thread parks; the producer wakes it")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wake-up: parks past the deadline, nobody wakes it")
    @State
    public static class Far extends Race {
        public Far() {
            super(NOW + 10_000_000L, NOW + 1_000_000_000L);
        }

        @Actor
        public void producer(II_Result r) {
            r.r1 = produce();
        }

        @Actor
        public void tickThread(II_Result r) {
            r.r2 = park();
        }
    }

    @JCStressTest
    @Description("ParkGate: offer due just before the tick thread's next look vs it parking briefly (PARKED_SHORT)")
    @Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "the tick thread saw the offer and does not sleep past it")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the tick thread parks; the producer wakes it")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wake-up: parks past the deadline, nobody wakes it")
    @State
    public static class Short extends Race {
        public Short() {
            // it would park 0.5 ms (at most DRAIN: PARKED_SHORT); the offer needs it 0.3 ms earlier
            super(NOW + MARGIN + 200_000L, NOW + MARGIN + 500_000L);
        }

        @Actor
        public void producer(II_Result r) {
            r.r1 = produce();
        }

        @Actor
        public void tickThread(II_Result r) {
            r.r2 = park();
        }
    }
}
