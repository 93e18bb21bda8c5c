package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Never early; equal trigger times in submission order; overdue tasks in deadline order.
 *
 * <p>Order assertions are exact, yet never depend on how fast the machine is: a task's trigger time is
 * bracketed by {@code System.nanoTime()} read just before and just after the call that scheduled it, and a
 * pair of tasks is checked only when the brackets prove which trigger time is earlier.
 */
class OrderingTest extends TckTest {

    /** When a task was scheduled: its trigger time lies in [before + delay, after + delay]. */
    private static final class Scheduled {
        final int id;
        final long earliest;
        final long latest;

        Scheduled(int id, long before, long after, long delayNanos) {
            this.id = id;
            this.earliest = before + delayNanos;
            this.latest = after + delayNanos;
        }

        /** Whether this one's deadline is proven to come before {@code other}'s by the clock readings. */
        boolean provenBefore(Scheduled other) {
            return latest - other.earliest < 0;
        }
    }

    @BothImpls
    void oneShotTasks_neverStartBeforeTheirDeadline(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 2);
        Random random = new Random(42);
        TimeUnit[] units = {NANOSECONDS, MICROSECONDS, MILLISECONDS};
        int n = 300;
        long[] deadline = new long[n];
        AtomicLong[] start = new AtomicLong[n];
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TimeUnit unit = units[i % units.length];
            long delay = unit.convert(random.nextInt(20_000), MICROSECONDS);
            AtomicLong s = start[i] = new AtomicLong();
            deadline[i] = System.nanoTime() + unit.toNanos(delay);
            futures.add(i % 2 == 0 ? e.schedule(() -> s.set(System.nanoTime()), delay, unit)
                    : e.schedule(() -> s.getAndSet(System.nanoTime()), delay, unit));
        }
        for (Future<?> f : futures) {
            get(f);
        }
        for (int i = 0; i < n; i++) {
            assertTrue(start[i].get() - deadline[i] >= 0,
                    "task " + i + " started " + (deadline[i] - start[i].get()) + " ns early");
        }
    }

    @BothImpls
    void zeroDelayTasks_runInSubmissionOrder_onOneWorker(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        ConcurrentLinkedQueue<Integer> order = new ConcurrentLinkedQueue<>();
        int n = 200;
        for (int i = 0; i < n; i++) {
            int id = i;
            Runnable task = () -> order.add(id);
            switch (i % 5) {
                case 0: e.execute(task); break;
                case 1: e.submit(task); break;
                case 2: e.schedule(task, 0, NANOSECONDS); break;
                case 3: e.schedule(() -> order.add(id), -1, MILLISECONDS); break;
                default: e.submit(() -> order.add(id), "x"); break;
            }
        }
        release.open();
        flush(e, 0, NANOSECONDS);
        assertEquals(ascending(n), new ArrayList<>(order));
    }

    @BothImpls
    void equalDelayTasks_runInSubmissionOrder_onOneWorker(Impl impl) throws Exception {
        // Same delay, scheduled one after the other: trigger times never decrease, and ties go in sequence.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        ConcurrentLinkedQueue<Integer> order = new ConcurrentLinkedQueue<>();
        int n = 150;
        ScheduledFuture<?> last = null;
        for (int i = 0; i < n; i++) {
            int id = i;
            last = e.schedule(() -> order.add(id), 3, MILLISECONDS);
        }
        awaitDue(last);
        release.open();
        flush(e, 0, NANOSECONDS);
        assertEquals(ascending(n), new ArrayList<>(order));
    }

    @BothImpls
    void zeroDelayFromEveryMethod_runInSubmissionOrder_periodicFirstRunsIncluded(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        e.scheduleAtFixedRate(() -> order.add("rate"), 0, 1, HOURS);
        e.schedule(() -> order.add("runnable"), 0, MILLISECONDS);
        e.scheduleWithFixedDelay(() -> order.add("delay"), 0, 1, HOURS);
        e.schedule(() -> order.add("callable"), 0, MILLISECONDS);
        e.execute(() -> order.add("execute"));
        e.submit(() -> order.add("submit"));
        release.open();
        flush(e, 0, NANOSECONDS);
        assertEquals(List.of("rate", "runnable", "delay", "callable", "execute", "submit"), new ArrayList<>(order));
    }

    @BothImpls
    void overdueTasks_runInDeadlineOrder_onOneWorker(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        List<Integer> delaysMillis = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            delaysMillis.add(i);
        }
        Collections.shuffle(delaysMillis, new Random(7));
        ConcurrentLinkedQueue<Integer> order = new ConcurrentLinkedQueue<>();
        List<Scheduled> scheduled = new ArrayList<>();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < delaysMillis.size(); i++) {
            int id = i;
            long delay = delaysMillis.get(i);
            long before = System.nanoTime();
            futures.add(e.schedule(() -> order.add(id), delay, MILLISECONDS));
            long after = System.nanoTime();
            scheduled.add(new Scheduled(id, before, after, MILLISECONDS.toNanos(delay)));
        }
        for (ScheduledFuture<?> f : futures) {
            awaitDue(f);
        }
        release.open();
        flush(e, 0, NANOSECONDS);
        assertOrderRespectsProvenDeadlines(scheduled, new ArrayList<>(order));
    }

    @BothImpls
    void overdueTasksMixedWithNewOnes_runInDeadlineOrder_onOneWorker(Impl impl) throws Exception {
        // Overdue tasks with various delays, then zero-delay tasks submitted after they are all overdue:
        // the zero-delay ones trigger later than every overdue one, so they run last, in submission order.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Gate release = blockWorker(e);
        ConcurrentLinkedQueue<Integer> order = new ConcurrentLinkedQueue<>();
        List<Scheduled> scheduled = new ArrayList<>();
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        int[] delaysMicros = {9_000, 100, 4_000, 2_500, 7_000, 1, 5_000, 3_000, 8_000, 6_500};
        for (int i = 0; i < delaysMicros.length; i++) {
            int id = i;
            long before = System.nanoTime();
            futures.add(e.schedule(() -> order.add(id), delaysMicros[i], MICROSECONDS));
            scheduled.add(new Scheduled(id, before, System.nanoTime(), MICROSECONDS.toNanos(delaysMicros[i])));
        }
        for (ScheduledFuture<?> f : futures) {
            awaitDue(f);
        }
        for (int i = delaysMicros.length; i < delaysMicros.length + 10; i++) {
            int id = i;
            long before = System.nanoTime();
            e.execute(() -> order.add(id));
            scheduled.add(new Scheduled(id, before, System.nanoTime(), 0));
        }
        release.open();
        flush(e, 0, NANOSECONDS);
        List<Integer> ran = new ArrayList<>(order);
        assertEquals(ascending(20).subList(10, 20), ran.subList(10, 20));
        assertOrderRespectsProvenDeadlines(scheduled, ran);
    }

    @BothImpls
    void laterSubmittedEarlierDeadline_runsFirst_onOneWorker(Impl impl) throws Exception {
        // The two deadlines are ordered only if the second schedule call returned less than the first delay
        // (minus the second) after the first began. A GC pause or a busy CPU can stretch that gap past any
        // fixed delay, so an attempt whose gap was too long is undone and tried again with twice the delay:
        // the test does not depend on how fast the machine is.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (long lateMillis = 20; ; lateMillis *= 2) {
            Gate release = blockWorker(e);
            ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
            long b1 = System.nanoTime();
            ScheduledFuture<?> late = e.schedule(() -> order.add("late"), lateMillis, MILLISECONDS);
            long a1 = System.nanoTime();
            long b2 = System.nanoTime();
            ScheduledFuture<?> early = e.schedule(() -> order.add("early"), 10, MICROSECONDS);
            long a2 = System.nanoTime();
            List<Scheduled> scheduled = List.of(new Scheduled(0, b1, a1, MILLISECONDS.toNanos(lateMillis)),
                    new Scheduled(1, b2, a2, MICROSECONDS.toNanos(10)));
            if (!scheduled.get(1).provenBefore(scheduled.get(0))) {
                late.cancel(false);
                early.cancel(false);
                release.open();
                flush(e, 0, NANOSECONDS);
                continue;
            }
            awaitDue(late);
            awaitDue(early);
            release.open();
            flush(e, 0, NANOSECONDS);
            List<Integer> ran = new ArrayList<>();
            for (String s : order) {
                ran.add(s.equals("late") ? 0 : 1);
            }
            assertEquals(2, ran.size());
            assertOrderRespectsProvenDeadlines(scheduled, ran);
            return;
        }
    }

    @BothImpls
    void justDueTask_runsBeforeAZeroDelayTaskSubmittedAfterItFellDue_onOneWorker(Impl impl) throws Exception {
        // The JDK keeps due and delayed tasks in one queue ordered by trigger time (DelayedWorkQueue), so a task
        // whose delay has elapsed always goes before a zero-delay task submitted afterwards, however recently
        // it fell due. Repeated, because the window in which an implementation could get this wrong (the task
        // is due but not yet handed over to the workers) is short.
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        for (int round = 0; round < 20; round++) {
            Gate release = blockWorker(e);
            ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
            ScheduledFuture<?> delayed = e.schedule(() -> order.add("delayed"), 2, MILLISECONDS);
            awaitDue(delayed);
            e.execute(() -> order.add("zero-delay"));
            release.open();
            flush(e, 0, NANOSECONDS);
            assertEquals(List.of("delayed", "zero-delay"), new ArrayList<>(order), "round " + round);
        }
    }

    @BothImpls
    void manyTimersOnOneWorker_neverStartEarly(Impl impl) throws Exception {
        ScheduledThreadPoolExecutor e = executor(impl, 1);
        Random random = new Random(3);
        int n = 1_000;
        long[] deadline = new long[n];
        long[] start = new long[n];
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            long delayMicros = random.nextInt(10_000);
            deadline[i] = System.nanoTime() + MICROSECONDS.toNanos(delayMicros);
            futures.add(e.schedule(() -> start[id] = System.nanoTime(), delayMicros, MICROSECONDS));
        }
        for (Future<?> f : futures) {
            get(f); // get() happens-after the task, so start[] is visible
        }
        for (int i = 0; i < n; i++) {
            assertTrue(start[i] - deadline[i] >= 0, "task " + i + " started " + (deadline[i] - start[i]) + " ns early");
        }
    }

    private static List<Integer> ascending(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    /** Every task ran once, and whenever one task's trigger time is provably earlier, it ran first. */
    private static void assertOrderRespectsProvenDeadlines(List<Scheduled> scheduled, List<Integer> ran) {
        assertEquals(scheduled.size(), ran.size(), "runs: " + ran);
        int[] position = new int[scheduled.size()];
        for (int p = 0; p < ran.size(); p++) {
            position[ran.get(p)] = p;
        }
        int proven = 0;
        for (Scheduled a : scheduled) {
            for (Scheduled b : scheduled) {
                if (a.provenBefore(b)) {
                    proven++;
                    assertTrue(position[a.id] < position[b.id],
                            "task " + a.id + " triggers before task " + b.id + " but ran after it: " + ran);
                }
            }
        }
        assertTrue(proven > 0, "no pair of trigger times could be ordered");
    }
}
