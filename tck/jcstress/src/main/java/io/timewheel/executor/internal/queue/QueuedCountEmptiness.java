package io.timewheel.executor.internal.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The striped queued count against the question termination and the workers' exit rule ask: "is the queue
 * empty?". Entry A is queued from the start (counted in by the constructing thread); one thread queues entry
 * B and then takes A out (a worker re-arming a periodic task and taking the next one does this), so the count
 * goes 1, 2, 1; another asks {@code isEmpty()} and {@code sum()} meanwhile. One entry is queued at every
 * instant, so "empty" and a sum of 0 are forbidden, however the reader's passes over the cells interleave
 * with the counting thread (a sum read in one pass can read a cell's count-in before B and its count-out
 * after A, and answer 0: the pool would then terminate with B queued). Results: (isEmpty ? 1 : 0, sum).
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=QueuedCountEmptiness
 * </pre>
 */
@JCStressTest
@Description("QueuedCount.isEmpty/sum never report an empty queue while an entry is queued throughout")
@Outcome(id = {"0, 1", "0, 2"}, expect = ACCEPTABLE, desc = "never empty")
@Outcome(expect = FORBIDDEN, desc = "reported empty (or a count that never was) while an entry was queued")
@State
public class QueuedCountEmptiness {
    private final QueuedCount count = new QueuedCount();

    public QueuedCountEmptiness() {
        count.increment(); // entry A
    }

    @Actor
    public void worker() {
        count.increment(); // entry B queued
        count.decrement(); // A taken: B is still queued
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = count.isEmpty() ? 1 : 0;
        r.r2 = (int) count.sum();
    }
}
