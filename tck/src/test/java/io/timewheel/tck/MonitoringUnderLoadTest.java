package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Monitoring calls while the queue changes under them: every getQueue() operation, remove and purge,
 * called in a loop while periodic tasks re-arm (their next time changes on every run) and one-shot tasks
 * come and go. STPE answers every one of them without throwing; so must we. Both toArray forms must also
 * hold the pending one-shot just scheduled and every periodic task but those the workers hold (a worker
 * takes a periodic task out of the queue to run it and puts it back after: at most one each).
 *
 * <p>This is the regression test for a bug the soak found: the wheel's queue snapshot sorted live tasks by
 * their current deadline while periodic tasks re-armed concurrently, so the sort's comparator was
 * inconsistent and purge() threw "IllegalArgumentException: Comparison method violates its general
 * contract!". The snapshot must order by keys copied once, by the thread that owns them.
 */
class MonitoringUnderLoadTest extends TckTest {

    private static final int PERIODIC = 400;
    private static final int ROUNDS = 3_000;

    @BothImpls
    void monitoringCalls_neverThrow_whilePeriodicTasksRearm(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        AtomicLong runs = new AtomicLong();
        List<ScheduledFuture<?>> periodic = new ArrayList<>();
        for (int i = 0; i < PERIODIC; i++) {
            long period = 50 + (i * 37) % 450; // 50 to 500 us: every snapshot sees tasks mid-re-arm
            periodic.add(i % 2 == 0
                    ? e.scheduleAtFixedRate(runs::incrementAndGet, i % 300, period, MICROSECONDS)
                    : e.scheduleWithFixedDelay(runs::incrementAndGet, i % 300, period, MICROSECONDS));
        }
        Object stranger = new Object();
        BlockingQueue<Runnable> q = e.getQueue();
        List<Throwable> thrown = new ArrayList<>();
        long calls = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ScheduledFuture<?> oneShot = e.schedule(() -> { }, 1 + round % 7, HOURS);
            try {
                switch (round % 8) {
                    case 0: e.purge(); break;
                    case 1: checkSnapshot(e, q.toArray(), oneShot); break;
                    case 2: checkSnapshot(e, q.toArray(new Runnable[0]), oneShot); break;
                    case 3: for (Iterator<Runnable> it = q.iterator(); it.hasNext(); ) { it.next(); } break;
                    case 4: q.contains(stranger); break;
                    case 5: q.remove(stranger); break;
                    case 6: q.peek(); break;
                    default: e.remove((Runnable) oneShot); break;
                }
                calls++;
            } catch (AssertionError wrongSnapshot) {
                throw wrongSnapshot;
            } catch (Throwable t) {
                thrown.add(t);
            }
            oneShot.cancel(false);
        }
        awaitUntil("the periodic tasks ran", () -> runs.get() > PERIODIC);
        for (ScheduledFuture<?> f : periodic) {
            f.cancel(false);
        }
        if (!thrown.isEmpty()) {
            AssertionError failure = new AssertionError(thrown.size() + " of " + ROUNDS
                    + " monitoring calls threw, first: " + thrown.get(0));
            thrown.stream().limit(3).forEach(failure::addSuppressed);
            throw failure;
        }
        assertEquals(ROUNDS, calls);
    }

    /** A snapshot of the queue holds the pending one-shot, and every periodic task but one per worker. */
    private static void checkSnapshot(ScheduledThreadPoolExecutor e, Object[] snapshot, ScheduledFuture<?> oneShot) {
        int workers = e.getLargestPoolSize(); // read after the snapshot: never below the workers during it
        assertTrue(Arrays.asList(snapshot).contains(oneShot), "the pending one-shot is missing from toArray()");
        assertTrue(snapshot.length >= PERIODIC + 1 - workers, () -> "toArray() has " + snapshot.length
                + " tasks: fewer than the one-shot and " + PERIODIC + " periodic tasks less one per worker ("
                + workers + ")");
    }
}
