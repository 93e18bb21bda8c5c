package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.LowBound;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.timewheel.wheel.StripedInbox;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The races of a message (a command with no deadline, that only frees memory: an Unlink) on the real
 * {@link ParkGate} and {@link StripedInbox}, as TickThread.command and TickThread.park run them. A message
 * must be read within DRAIN_NANOS of its offer whether or not anything follows it; a deadline must still
 * wake the tick thread in time while it parks for a message. Time is fixed (passed in), so the results depend
 * only on the interleaving.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=ParkGateMessage
 * </pre>
 */
public final class ParkGateMessage {
    static final long NOW = 1_000_000_000L;
    static final long MARGIN = TickThread.MARGIN_NANOS;
    static final long DRAIN = TickThread.DRAIN_NANOS;
    /** The earliest deadline the tick thread holds: far, so that it parks long (PARKED_LONG). */
    static final long HELD = NOW + 1_000_000_000L;

    private ParkGateMessage() {}

    /**
     * A message offered while the tick thread, after a detach that did not see it, decides to park long.
     * Results: (the producer unparks ? 1 : 0, the tick thread parks past NOW + DRAIN without anyone to wake
     * it ? 1 : 0).
     */
    @JCStressTest
    @Description("ParkGate: a message (no deadline) vs the tick thread parking long after a detach that missed it")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the producer saw it parked and woke it (lazily)")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the tick thread saw the message and parks at most DRAIN")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "it parks long, missing the message; the producer wakes it")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the message waits for the far deadline: nobody wakes it")
    @State
    public static class MessageVsPark {
        final ParkGate gate = new ParkGate(MARGIN, DRAIN, NOW);
        final StripedInbox inbox = new StripedInbox();
        final TickThread.Command message = new TickThread.Command(false) { // a message, as an Unlink
            @Override
            protected void run(TickThread tick) {
            }
        };

        public MessageVsPark() {
            gate.reset(LowBound.resetValue(NOW));
        }

        @Actor
        public void producer(II_Result r) {
            inbox.offer(message);
            r.r1 = gate.signal(Long.MIN_VALUE, NOW) ? 1 : 0;
        }

        @Actor
        public void tickThread(II_Result r) {
            long delay = gate.prepare(NOW, HELD);
            if (delay <= 0) {
                r.r2 = 0; // looks again at once
                return;
            }
            boolean lazy = gate.state() == ParkGate.PARKED_LONG && !inbox.isEmpty() && gate.lazy();
            // parks lazily (reparkLazy parks at most DRAIN), or long: then only an unpark ends it early
            r.r2 = lazy ? 0 : 1;
        }
    }

    /**
     * The tick thread, unparked by a message (PARKED_LAZY), parks again until parkedAt + DRAIN while a
     * producer offers a deadline that needs it before that... or after. Results: (the producer unparks ? 1 :
     * 0, the tick thread's re-park passes the deadline minus the margin ? 1 : 0).
     */
    @JCStressTest
    @Description("ParkGate: a deadline due soon vs the tick thread re-parking for a message (PARKED_LAZY)")
    @Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "the re-park ends in time for the deadline")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "it re-parks past the deadline's look; the producer wakes it")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wake-up: re-parks past the deadline, nobody wakes it")
    @State
    public static class DeadlineVsLazyRepark {
        final ParkGate gate = new ParkGate(MARGIN, DRAIN, NOW);
        /** Needs the tick thread half a DRAIN after it parked: before the re-park would end. */
        final long deadline = NOW + MARGIN + DRAIN / 2;

        public DeadlineVsLazyRepark() {
            gate.reset(LowBound.resetValue(NOW));
            gate.prepare(NOW, HELD); // parked long
            gate.signal(Long.MIN_VALUE, NOW); // a message: PARKED_LAZY, unparked
        }

        @Actor
        public void producer(II_Result r) {
            gate.lowerPending(deadline);
            r.r1 = gate.signal(deadline, NOW) ? 1 : 0;
        }

        @Actor
        public void tickThread(II_Result r) {
            long again = gate.reparkLazy(NOW);
            r.r2 = again > 0 && NOW + again - (deadline - MARGIN) > 0 ? 1 : 0;
        }
    }
}
