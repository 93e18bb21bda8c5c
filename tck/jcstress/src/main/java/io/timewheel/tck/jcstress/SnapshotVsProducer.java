package io.timewheel.tck.jcstress;

import static java.util.concurrent.TimeUnit.HOURS;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A snapshot of the queue ({@code getQueue().toArray()}) racing a producer that schedules a task Y and then
 * removes an earlier task X. At every instant X or Y is queued (Y goes in before X goes out), so a snapshot
 * taken at one instant holds at least one of them: STPE's is (it copies its heap under its lock). Ours is
 * collected by the tick thread while producers go on; it must still be one a single instant could give.
 * Results: (snapshot holds X, snapshot holds Y, the snapshot after both actors holds exactly Y ? 1 : 0).
 *
 * <p>Purge against a producer is the same race with purge() in the snapshot's place (it removes only
 * cancelled tasks, so it must never remove Y or a queued X): the third result checks that the queue ends
 * holding Y alone whichever way the race went.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=SnapshotVsProducer
 * </pre>
 */
public final class SnapshotVsProducer {
    private SnapshotVsProducer() {}

    /** One race on a fresh executor: X queued beforehand; the producer adds Y, then removes X. */
    abstract static class Race {
        private final ScheduledThreadPoolExecutor executor;
        private final ScheduledFuture<?> x;
        private volatile ScheduledFuture<?> y;

        Race(ScheduledThreadPoolExecutor executor) {
            this.executor = executor;
            this.x = executor.schedule(() -> { }, 1, HOURS);
        }

        final void produce() {
            y = executor.schedule(() -> { }, 2, HOURS);
            executor.remove((Runnable) x);
        }

        final void snapshot(III_Result r) {
            List<Object> seen = Arrays.asList(executor.getQueue().toArray());
            r.r1 = seen.contains(x) ? 1 : 0;
            r.r2 = seen.contains(y) ? 1 : 0;
        }

        final void purge() {
            executor.purge();
        }

        final void settle(III_Result r) {
            Object[] left = executor.getQueue().toArray();
            r.r3 = left.length == 1 && left[0] == y ? 1 : 0;
            executor.shutdownNow();
        }
    }

    @JCStressTest
    @Description("JDK ScheduledThreadPoolExecutor: getQueue().toArray() vs schedule(Y) then remove(X).")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "snapshot before Y was added")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "snapshot between the two")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "snapshot after X was removed")
    @Outcome(id = {"0, 0, 0", "0, 0, 1"}, expect = FORBIDDEN, desc = "neither: no instant had an empty queue")
    @Outcome(expect = FORBIDDEN, desc = "the queue did not end with Y alone")
    @State
    public static class Jdk extends Race {
        public Jdk() {
            super(Impls.jdk(1));
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void observer(III_Result r) {
            snapshot(r);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            settle(r);
        }
    }

    @JCStressTest
    @Description("WheelScheduledExecutorService: getQueue().toArray() vs schedule(Y) then remove(X).")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "snapshot before Y was added")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "snapshot between the two")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "snapshot after X was removed")
    @Outcome(id = {"0, 0, 0", "0, 0, 1"}, expect = FORBIDDEN, desc = "neither: no instant had an empty queue")
    @Outcome(expect = FORBIDDEN, desc = "the queue did not end with Y alone")
    @State
    public static class Wheel extends Race {
        public Wheel() {
            super(Impls.wheel(1));
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void observer(III_Result r) {
            snapshot(r);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            settle(r);
        }
    }

    @JCStressTest
    @Description("WheelScheduledExecutorService: purge() vs schedule(Y) then remove(X): purge never takes a queued task.")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the queue ended with Y alone")
    @Outcome(expect = FORBIDDEN, desc = "the queue did not end with Y alone")
    @State
    public static class WheelPurge extends Race {
        public WheelPurge() {
            super(Impls.wheel(1));
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void purger() {
            purge();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            settle(r);
        }
    }
}
