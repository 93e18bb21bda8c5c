package io.timewheel.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.ImmediateExecutor;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What WheelTimer promises beyond HashedWheelTimer (or where HashedWheelTimer does it only a tick later): no
 * thread while idle, a cancel that releases the task at once and counts at once, exact deadline order, the
 * agent's facade.
 */
class WheelTimerTest extends TimerTest {

    @Test
    void newTimer_startsNoThread() {
        TestThreads threads = new TestThreads("lazy");
        WheelTimer timer = track(new WheelTimer(threads));
        timer.start();
        assertEquals(0, threads.created.size());
        assertEquals(0, timer.pendingTimeouts());
    }

    @Test
    void idleTimer_holdsNoThread_afterItsLastTaskRan_andStartsOneForTheNext() throws InterruptedException {
        TestThreads threads = new TestThreads("idle");
        WheelTimer timer = track(new WheelTimer(threads));
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 1, MILLISECONDS);
        awaitLatch(ran);
        assertEquals(1, threads.created.size());
        Thread first = threads.created.get(0);
        await().until(() -> !first.isAlive()); // within KEEP_ALIVE_MILLIS and a wake-up
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch again = new CountDownLatch(1);
        timer.newTimeout(t -> {
            ranOn.set(Thread.currentThread());
            again.countDown();
        }, 1, MILLISECONDS);
        awaitLatch(again);
        assertTrue(threads.made(ranOn.get()));
        assertTrue(ranOn.get() != first);
    }

    /** A timer's thread ends after the keep-alive whatever timeouts it still holds: they wait in the shared wheel. */
    @Test
    void idleTimerHoldingAFarTimeout_holdsNoThread() throws InterruptedException {
        TestThreads threads = new TestThreads("holding");
        WheelTimer timer = track(new WheelTimer(threads));
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 1, MILLISECONDS);
        timer.newTimeout(t -> { }, 1, HOURS);
        awaitLatch(ran);
        await().until(() -> threads.created.stream().noneMatch(Thread::isAlive));
    }

    @Test
    void cancel_releasesTheTaskAtOnce() {
        WheelTimer timer = track(new WheelTimer(new TestThreads("release")));
        timer.newTimeout(t -> { }, 1, HOURS); // the timer has a pending timeout and its thread
        WeakReference<TimerTask> task = scheduleAndCancel(timer);
        for (int i = 0; i < 20 && task.get() != null; i++) {
            System.gc(); // no waiting between collections: nothing of the timer has to run first
        }
        assertNull(task.get());
    }

    private static WeakReference<TimerTask> scheduleAndCancel(Timer timer) {
        TimerTask task = new TimerTask() { // a new object (a lambda that captures nothing is one shared instance)
            @Override
            public void run(Timeout timeout) {
            }
        };
        Timeout timeout = timer.newTimeout(task, 1, HOURS);
        assertTrue(timeout.cancel());
        return new WeakReference<>(task);
    }

    @Test
    void pendingTimeouts_dropsAtOnceOnCancel_andIsZeroAfterStop() {
        for (long limit : new long[] {-1, 100}) {
            WheelTimer timer = track(new WheelTimer(new TestThreads("pending"), limit));
            List<Timeout> timeouts = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                timeouts.add(timer.newTimeout(t -> { }, 1, HOURS));
            }
            assertEquals(10, timer.pendingTimeouts());
            timeouts.get(0).cancel();
            timeouts.get(1).cancel();
            assertEquals(8, timer.pendingTimeouts(), "limit " + limit);
            assertEquals(8, timer.stop().size());
            assertEquals(0, timer.pendingTimeouts(), "limit " + limit);
        }
    }

    @Test
    void deadlinesCloseTogether_runInDeadlineOrder() throws InterruptedException {
        WheelTimer timer = track(new WheelTimer(new TestThreads("order")));
        int n = 2_000;
        long[] earliest = new long[n];
        long[] latest = new long[n];
        List<Integer> order = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            int id = i;
            long delay = 50_000 - 20L * i; // microseconds: each deadline 20 us before the previous one, give or take the call
            earliest[i] = System.nanoTime() + MICROSECONDS.toNanos(delay);
            timer.newTimeout(t -> {
                order.add(id);
                all.countDown();
            }, delay, MICROSECONDS);
            latest[i] = System.nanoTime() + MICROSECONDS.toNanos(delay);
        }
        awaitLatch(all);
        int[] position = new int[n];
        for (int p = 0; p < n; p++) {
            position[order.get(p)] = p;
        }
        int checked = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (latest[i] < earliest[j]) { // i's deadline is certainly before j's
                    assertTrue(position[i] < position[j], i + " is due before " + j + " but ran after it");
                    checked++;
                }
            }
        }
        assertTrue(checked > 0);
    }

    @Test
    void behind_timeoutsReturnTheFacade_andStopsMessageNamesIt() throws InterruptedException {
        Facade facade = new Facade();
        WheelTimer timer = track(WheelTimer.behind(facade, new TestThreads("behind"), -1, ImmediateExecutor.INSTANCE));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        Timeout timeout = timer.newTimeout(t -> {
            try {
                timer.stop();
            } catch (IllegalStateException e) {
                thrown.set(e);
            }
            ran.countDown();
        }, 1, MILLISECONDS);
        assertSame(facade, timeout.timer());
        awaitLatch(ran);
        assertEquals("Facade.stop() cannot be called from TimerTask", thrown.get().getMessage());
        assertThrows(NullPointerException.class, () -> WheelTimer.behind(null, new TestThreads("x"), -1, ImmediateExecutor.INSTANCE));
    }

    @Test
    void defaultConstructor_runsTasksOnTheDefaultFactorysThreads() throws InterruptedException {
        WheelTimer timer = track(new WheelTimer());
        AtomicReference<String> name = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> {
            name.set(Thread.currentThread().getName());
            ran.countDown();
        }, 1, MILLISECONDS);
        awaitLatch(ran);
        assertTrue(name.get().matches("pool-\\d+-thread-\\d+"), name.get());
    }

    @Test
    void newTimeoutRacingStop_eitherThrowsOrIsAccountedFor() throws Exception {
        for (int round = 0; round < 50; round++) {
            WheelTimer timer = track(new WheelTimer(new TestThreads("race")));
            List<Timeout> accepted = new CopyOnWriteArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            Thread producer = new Thread(() -> {
                try {
                    go.await();
                    for (;;) {
                        accepted.add(timer.newTimeout(t -> { }, 1, HOURS));
                    }
                } catch (IllegalStateException stopped) {
                    // the timer stopped: nothing more is accepted
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            producer.start();
            go.countDown();
            await().until(() -> accepted.size() > 10);
            Set<Timeout> returned = timer.stop();
            producer.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertEquals(accepted.size(), returned.size(), "every accepted timeout comes back from stop()");
            assertTrue(returned.containsAll(accepted));
        }
    }

    /** A stand-in for the agent's rewritten HashedWheelTimer. */
    private static final class Facade implements Timer {
        @Override
        public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Set<Timeout> stop() {
            throw new UnsupportedOperationException();
        }
    }
}
