package io.timewheel.executor.internal.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The Sequencer's numbers across threads: FIFO for equal deadlines without one shared counter. A periodic
 * task's number must order it against a task of any deadline, whatever counter that task's number came
 * from. In each test one thread creates a task and publishes its number with a volatile write; the other
 * reads it and then creates its own, so when it saw the number its creation happened after the first one's,
 * and its number must be the later (compared with wrap-around). Result: 1 if it saw the number and got one
 * not after it (an order the queue would get wrong), else 0. The counters start at different values, as
 * on a queue in use.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=SequencerOrder
 * </pre>
 */
public class SequencerOrder {
    private static final long D = 1_000_000L;
    private static final int NONE = Integer.MIN_VALUE;

    static long[] inUse() {
        long[] counters = Sequencer.newCounters();
        for (long d = 0; d < 64; d++) {
            for (long i = 0; i < d; i++) {
                Sequencer.next(counters, d * 7919);
            }
        }
        return counters;
    }

    @JCStressTest
    @Description("A periodic task created after a one-shot task (any deadline) gets the later number")
    @Outcome(id = "0", expect = ACCEPTABLE, desc = "order kept, or the creations were concurrent")
    @Outcome(id = "1", expect = FORBIDDEN, desc = "the periodic task, created after, got the earlier number")
    @State
    public static class PeriodicAfterOneShot {
        private final long[] counters = inUse();
        private volatile int oneShot = NONE;

        @Actor
        public void createOneShot() {
            oneShot = Sequencer.next(counters, D);
        }

        @Actor
        public void createPeriodic(I_Result r) {
            int seen = oneShot;
            int mine = Sequencer.nextForAnyDeadline(counters);
            r.r1 = seen != NONE && mine - seen <= 0 ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("A one-shot task (any deadline) created after a periodic task gets the later number")
    @Outcome(id = "0", expect = ACCEPTABLE, desc = "order kept, or the creations were concurrent")
    @Outcome(id = "1", expect = FORBIDDEN, desc = "the one-shot task, created after, got the earlier number")
    @State
    public static class OneShotAfterPeriodic {
        private final long[] counters = inUse();
        private volatile int periodic = NONE;

        @Actor
        public void createPeriodic() {
            periodic = Sequencer.nextForAnyDeadline(counters);
        }

        @Actor
        public void createOneShot(I_Result r) {
            int seen = periodic;
            int mine = Sequencer.next(counters, D);
            r.r1 = seen != NONE && mine - seen <= 0 ? 1 : 0;
        }
    }
}
