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
 * {@link QueuedCountEmptiness} with entry A taken out by a cancel of its future instead of a worker: a cancel
 * counts out in the cell's second out counter (QueuedCount.decrementCancelled, which the executor's statistics
 * sum as its cancels), and every sum of the outs, isEmpty's included, must add it. One entry is queued at every
 * instant, so "empty" and a sum of 0 are forbidden. Results: (isEmpty ? 1 : 0, sum).
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=QueuedCountEmptiness
 * </pre>
 */
@JCStressTest
@Description("QueuedCount.isEmpty/sum never report an empty queue while an entry is queued throughout (A cancelled)")
@Outcome(id = {"0, 1", "0, 2"}, expect = ACCEPTABLE, desc = "never empty")
@Outcome(expect = FORBIDDEN, desc = "reported empty (or a count that never was) while an entry was queued")
@State
public class QueuedCountEmptinessCancel {
    private final QueuedCount count = new QueuedCount();

    public QueuedCountEmptinessCancel() {
        count.increment(); // entry A
    }

    @Actor
    public void worker() {
        count.increment(); // entry B queued
        count.decrementCancelled(); // A cancelled: B is still queued
    }

    @Actor
    public void reader(II_Result r) {
        r.r1 = count.isEmpty() ? 1 : 0;
        r.r2 = (int) count.sum();
    }
}
