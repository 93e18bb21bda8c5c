package io.timewheel.wheel;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link StripedInbox#retract} racing the consumer's {@link StripedInbox#detachAll}: a producer offers entry X
 * and at once tries to take it back (a task scheduled and cancelled by one thread); the consumer (the tick
 * thread) detaches every stripe and polls. Whatever the interleaving, X must either be retracted (retract
 * returned true) or handed out by a poll, exactly once: both would run a cancelled task's bookkeeping twice,
 * neither would lose it. The arbiter, the consumer again once both actors are done, detaches and polls what
 * is left. Results: (retract returned true ? 1 : 0, the consumer's poll returned X ? 1 : 0, the arbiter's poll
 * returned X ? 1 : 0). Public API only (TimerEntry subclassed through its protected constructor).
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=StripedInboxRetractVsDetach
 * </pre>
 */
@JCStressTest
@Description("StripedInbox: an entry offered and retracted at once is retracted or handed out, exactly once")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "retracted before the consumer detached the stripe")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the consumer detached it first: retract failed, poll got it")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING,
        desc = "retract failed although the consumer had not detached X (exactly once still holds)")
@Outcome(expect = FORBIDDEN, desc = "retracted and handed out, handed out twice, or lost")
@State
public class StripedInboxRetractVsDetach {
    /** An entry with a deadline, for the inbox. */
    static final class Entry extends TimerEntry {
        Entry(long deadline) {
            super(deadline);
        }
    }

    private final StripedInbox inbox = new StripedInbox();
    private final Entry x = new Entry(42);

    @Actor
    public void producer(III_Result r) {
        inbox.offer(x);
        r.r1 = inbox.retract(x) ? 1 : 0;
    }

    @Actor
    public void consumer(III_Result r) {
        inbox.detachAll();
        r.r2 = count(inbox.poll());
    }

    @Arbiter
    public void rest(III_Result r) {
        inbox.detachAll();
        int n = 0;
        TimerEntry e;
        while ((e = inbox.poll()) != null) {
            n += e == x ? 1 : 100; // anything else was never offered
        }
        r.r3 = n;
    }

    private int count(TimerEntry polled) {
        return polled == null ? 0 : polled == x ? 1 : 100;
    }
}
