package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.LowBound;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Workers about to block after the time the tick thread means to look, on the real {@link ParkGate}
 * (TickThread's notes: Deferred). A worker that finds the tick thread parked wakes it (wakeIfDue: a CAS to
 * AWAKE, then unpark); one that looks before it parked leaves it to its own, deferred, timer. A worker that
 * unparks it leaves it AWAKE (producers then count on its next loop, as after any wake-up), and of several
 * workers only one unparks it per park. Two tests of two actors each (jcstress runs no more actors than CPUs).
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=ParkGateWorkerWake
 * </pre>
 */
public final class ParkGateWorkerWake {
    static final long NOW = 1_000_000_000L;
    /** The earliest deadline the tick thread holds: its look (margin before it) is 3 drains away, a long park. */
    static final long NEXT = NOW + TickThread.MARGIN_NANOS + 3 * TickThread.DRAIN_NANOS;
    /** When the workers block: after that look. */
    static final long LATER = NOW + 10 * TickThread.DRAIN_NANOS;

    private ParkGateWorkerWake() {
    }

    static ParkGate loopBegun() {
        ParkGate gate = new ParkGate(TickThread.MARGIN_NANOS, TickThread.DRAIN_NANOS, NOW);
        gate.beginLoop();
        gate.reset(LowBound.resetValue(NOW));
        return gate;
    }

    /** The tick thread parking against a worker blocking. Results: (parks, the worker unparks, AWAKE at the end). */
    @JCStressTest
    @Description("ParkGate: a worker blocking after the tick thread's look is due, against the tick thread parking")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the worker found it parked and woke it")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the worker looked before it parked: its own timer wakes it")
    @Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "unparked, but still shown parked to producers")
    @Outcome(id = "1, 0, 1", expect = FORBIDDEN, desc = "awake with nobody to wake it: prepare did not park")
    @Outcome(expect = FORBIDDEN, desc = "anything else")
    @State
    public static class VsPark {
        private final ParkGate gate = loopBegun();

        @Actor
        public void tickThread(III_Result r) {
            r.r1 = gate.prepare(NOW, NEXT) > 0 ? 1 : 0;
        }

        @Actor
        public void worker(III_Result r) {
            r.r2 = gate.wakeIfDue(LATER) ? 1 : 0;
        }

        @Arbiter
        public void after(III_Result r) {
            r.r3 = gate.state() == ParkGate.AWAKE ? 1 : 0;
        }
    }

    /** Two workers blocking while the tick thread is parked. Results: (worker 1 unparks, worker 2, AWAKE at the end). */
    @JCStressTest
    @Description("ParkGate: two workers blocking after the parked tick thread's look is due wake it once")
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "one of them woke it")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "two unparks for one park: the CAS let both through")
    @Outcome(id = {"0, 0, 0", "0, 0, 1"}, expect = FORBIDDEN, desc = "neither woke it: its look was due")
    @Outcome(expect = FORBIDDEN, desc = "anything else")
    @State
    public static class Crowd {
        private final ParkGate gate = loopBegun();

        public Crowd() {
            gate.prepare(NOW, NEXT);
        }

        @Actor
        public void worker1(III_Result r) {
            r.r1 = gate.wakeIfDue(LATER) ? 1 : 0;
        }

        @Actor
        public void worker2(III_Result r) {
            r.r2 = gate.wakeIfDue(LATER) ? 1 : 0;
        }

        @Arbiter
        public void after(III_Result r) {
            r.r3 = gate.state() == ParkGate.AWAKE ? 1 : 0;
        }
    }
}
