package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.LowBound;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The hand-off protocol (TaskQueue's notes: "Why B does not skip A", "Read order") on the real
 * {@link HandOffBounds}. One producer offers entry A (due at D_A) to the tick thread and then, on the same
 * thread, decides whether entry B (due at D_B, after D_A) may skip the tick thread ({@code mayBypass}). The
 * tick thread meanwhile runs one loop and the start of the next, as QueueWheel and TickThread do:
 * {@code earliest()} (beginDrain); {@code resetPending(RESET1)}, then its detach; {@code pendingLow()} (the
 * hand-over limit); nothing is due, so nothing is handed over; {@code raiseEarliest} with the lower of the
 * wheel's next deadline and the limit (QueueWheel.expire); then the next loop's {@code resetPending(RESET2)}
 * and detach.
 *
 * <p>The inbox is one volatile step of the producer's, which a detach reads: NOT_YET (A not offered: the
 * detach finds nothing and the wheel's next deadline stays D_FAR), A_OFFERED (A offered: the detach takes
 * it and files it, and the wheel's next deadline is D_A), B_DECIDING (as A_OFFERED, written by the producer
 * right after {@code offered(D_A)} as the first step of B's decision). So a detach that read A_OFFERED read
 * A before B's decision began, and one that read B_DECIDING or NOT_YET did not: the tuple says exactly
 * whether the tick thread held A unread when B decided. Results: (B skips the tick thread ? 1 : 0, what the
 * first detach read, what the second detach read), the steps as 0, 1, 2.
 *
 * <p>Nothing is handed over, so the tick thread holds A from its offer to the end: B must never skip it.
 * The outcome that the read order decides is B skipping while A was still unread (FORBIDDEN): with
 * {@code mayBypass} reading earliest first, B can read earliest after the raise to D_FAR and before
 * raiseEarliest lowers it back to A's pendingLow, then pendingLow after RESET2, and skip; that gives
 * (1, 0, 2), in Stale only. That window is a few volatile accesses wide, so the other order shows the outcome
 * rarely: a quick run can miss it, {@code -Djcstress.mode=default} runs longer. B skipping while A, read
 * before its decision, waits in the wheel is FORBIDDEN too (earliest would not cover the wheel); no read
 * order gives it.
 *
 * <p>Two starting points, each built through the real methods as the previous loop leaves them (an entry
 * due at D_FAR filed, nothing offered since the last reset): earliest raised to D_FAR ({@link Raised}), or
 * earliest still at D_CANCELLED, before D_A, the deadline of an entry cancelled since the last raise (a cancel
 * moves no bound: {@link Stale}). Only the stale one lets A's lowering of earliest be a no-op, which the
 * window above needs. Time is fixed (D_A is more than the hand-over horizon ahead of the tick thread's loop;
 * B's own horizon check is TaskQueue.dispatch's and moves no bound), so only the interleaving decides.
 *
 * <p>Not part of the default build. Run (from the repository root):
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify -Djcstress.tests=HandOffBypass
 * </pre>
 */
public final class HandOffBypass {
    static final long NOW = 1_000_000_000L;
    /** An entry cancelled since the last raise (Stale): its lowering of earliest stays until the next raise. */
    static final long D_CANCELLED = NOW + 500_000_000L; // 0.5 s ahead
    static final long D_A = NOW + 1_000_000_000L; // 1 s ahead: beyond the horizon, nothing is due
    static final long D_B = NOW + 2_000_000_000L;
    /** The entry the wheel holds throughout. */
    static final long D_FAR = NOW + 60_000_000_000L; // 60 s ahead
    static final long RESET0 = LowBound.resetValue(NOW); // the previous loop's
    static final long RESET1 = LowBound.resetValue(NOW + 1_000_000L);
    static final long RESET2 = LowBound.resetValue(NOW + 2_000_000L);

    /** The producer's steps, as a detach reads them. */
    static final int NOT_YET = 0;
    static final int A_OFFERED = 1;
    static final int B_DECIDING = 2;

    private HandOffBypass() {}

    /** The bounds of a served queue whose wheel holds an entry at D_FAR, nothing offered since the last reset. */
    abstract static class Race {
        final HandOffBounds bounds = new HandOffBounds(NOW);
        /** The producer's step (the inbox, for A). Written by the producer, read by the tick thread's detaches. */
        volatile int step = NOT_YET;

        Race(boolean stale) {
            // the previous loop: the entries offered before its reset, read and filed, earliest raised
            bounds.offered(D_FAR);
            if (stale) {
                bounds.offered(D_CANCELLED);
            }
            long seen = bounds.earliest();
            bounds.resetPending(RESET0);
            long next = stale ? D_CANCELLED : D_FAR;
            long limit = bounds.pendingLow();
            bounds.raiseEarliest(seen, limit - next < 0 ? limit : next, limit);
            // stale: the entry at D_CANCELLED is cancelled and unlinked since; the wheel holds D_FAR alone
            long earliest = stale ? D_CANCELLED : D_FAR;
            if (bounds.earliest() != earliest || bounds.pendingLow() != RESET0) {
                throw new IllegalStateException("start state: earliest " + bounds.earliest()
                        + ", pendingLow " + bounds.pendingLow());
            }
        }

        final void produce(III_Result r) {
            step = A_OFFERED; // WheelOwner.offer: A is in the inbox
            bounds.offered(D_A); // pendingLow, then earliest
            step = B_DECIDING; // B's decision begins
            r.r1 = bounds.mayBypass(D_B) ? 1 : 0;
        }

        final void tick(III_Result r) {
            long seen = bounds.earliest(); // beginDrain
            bounds.resetPending(RESET1); // right before the detachAll
            int first = step; // the detach: A, if offered, is filed
            long next = first == NOT_YET ? D_FAR : D_A;
            long limit = bounds.pendingLow(); // expire: the hand-over limit; nothing is due
            bounds.raiseEarliest(seen, limit - next < 0 ? limit : next, limit);
            bounds.resetPending(RESET2); // the next loop's detach
            r.r2 = first;
            r.r3 = step;
        }
    }

    @JCStressTest
    @Description("HandOffBounds: B never skips the tick thread while it holds A (due before B); earliest raised to the wheel's next deadline")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "both loops before A's offer; B goes through the tick thread")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the next loop read A before B decided; B goes through the tick thread")
    @Outcome(id = "0, 0, 2", expect = ACCEPTABLE, desc = "A unread when B decided; B goes through the tick thread")
    @Outcome(id = {"0, 1, 1", "0, 1, 2"}, expect = ACCEPTABLE, desc = "the first loop read A before B decided; B goes through the tick thread")
    @Outcome(id = "0, 2, 2", expect = ACCEPTABLE, desc = "the first loop read A after B began to decide; B goes through the tick thread")
    @Outcome(id = {"1, 0, 0", "1, 0, 2", "1, 2, 2"}, expect = FORBIDDEN, desc = "B skipped the tick thread while A was offered to it and unread")
    @Outcome(id = {"1, 0, 1", "1, 1, 1", "1, 1, 2"}, expect = FORBIDDEN, desc = "B skipped the tick thread while A waited in its wheel")
    @Outcome(expect = FORBIDDEN, desc = "no interleaving gives this tuple")
    @State
    public static class Raised extends Race {
        public Raised() {
            super(false);
        }

        @Actor
        public void producer(III_Result r) {
            produce(r);
        }

        @Actor
        public void tickThread(III_Result r) {
            tick(r);
        }
    }

    @JCStressTest
    @Description("HandOffBounds: B never skips the tick thread while it holds A (due before B); earliest stale, before A")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "both loops before A's offer; B goes through the tick thread")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the next loop read A before B decided; B goes through the tick thread")
    @Outcome(id = "0, 0, 2", expect = ACCEPTABLE, desc = "A unread when B decided; B goes through the tick thread")
    @Outcome(id = {"0, 1, 1", "0, 1, 2"}, expect = ACCEPTABLE, desc = "the first loop read A before B decided; B goes through the tick thread")
    @Outcome(id = "0, 2, 2", expect = ACCEPTABLE, desc = "the first loop read A after B began to decide; B goes through the tick thread")
    @Outcome(id = {"1, 0, 0", "1, 0, 2", "1, 2, 2"}, expect = FORBIDDEN, desc = "B skipped the tick thread while A was offered to it and unread")
    @Outcome(id = {"1, 0, 1", "1, 1, 1", "1, 1, 2"}, expect = FORBIDDEN, desc = "B skipped the tick thread while A waited in its wheel")
    @Outcome(expect = FORBIDDEN, desc = "no interleaving gives this tuple")
    @State
    public static class Stale extends Race {
        public Stale() {
            super(true);
        }

        @Actor
        public void producer(III_Result r) {
            produce(r);
        }

        @Actor
        public void tickThread(III_Result r) {
            tick(r);
        }
    }
}
