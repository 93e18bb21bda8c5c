package io.timewheel.wheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The shape of the tick thread's lost-wake-up check (ParkGate's notes), a Dekker handshake over a
 * {@link StripedInbox}: a producer offers an entry and then reads the volatile park state; the tick thread
 * writes the park state (volatile) and then re-checks the inbox with {@link StripedInbox#isEmpty()} before it
 * parks. If the producer reads "awake" (0, so it does not unpark) and the tick thread sees an empty inbox (so
 * it parks), the entry waits with nobody to wake the tick thread: forbidden. Results: (the producer read
 * parkState, the tick thread saw isEmpty() ? 1 : 0). Public API only.
 *
 * <p>StripedInbox.isEmpty reads the stripes with volatile reads, so the store-load pair is ordered by the Java
 * memory model itself. The tick thread's own park check is on pendingLow and urgentOffered (ParkGate's notes,
 * "Lost-wake-up freedom"; jcstress ParkGateLostWakeUp and ParkGateUrgentCommand run that real code), not on
 * isEmpty; isEmpty is what a dedicated tick thread checks before it ends.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=StripedInboxParkHandshake
 * </pre>
 */
@JCStressTest
@Description("StripedInbox: offer-then-read-parkState vs write-parkState-then-isEmpty never loses the wake-up")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "producer saw it awake; the tick thread saw the entry")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "both saw each other")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the tick thread parks; the producer saw it parking and wakes it")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wake-up: producer saw it awake, the tick thread saw an empty inbox")
@State
public class StripedInboxParkHandshake {
    /** An entry with a deadline, for the inbox. */
    static final class Entry extends TimerEntry {
        Entry(long deadline) {
            super(deadline);
        }
    }

    private final StripedInbox inbox = new StripedInbox();
    private final Entry entry = new Entry(7);
    /** As TickThread.parkState: 0 awake, 1 parked. */
    private volatile int parkState;

    @Actor
    public void producer(II_Result r) {
        inbox.offer(entry);
        r.r1 = parkState;
    }

    @Actor
    public void tickThread(II_Result r) {
        parkState = 1;
        r.r2 = inbox.isEmpty() ? 1 : 0;
    }
}
