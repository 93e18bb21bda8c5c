package io.timewheel.netty;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A timer's runner: every item handed over runs exactly once, one at a time and in the order one thread handed
 * them over, while its thread ends and starts again under the hand-overs (a keep-alive of one microsecond,
 * so that the race between a hand-over and the thread's end is met all the time); items handed over ahead of
 * their deadlines run in deadline order and never before; and with no thread to be had, the hand-over runs the
 * work itself, each item at its deadline.
 */
class SerialRunnerTest {

    /** A deadline already passed: the item runs as soon as it is taken. */
    private static final long PAST = System.nanoTime();

    @Test
    void everyItemRunsOnce_oneAtATime_inEachHandersOrder_whileItsThreadComesAndGoes() throws Exception {
        int handers = 3, perHander = 30_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(handers * perHander);
        int[] lastOf = new int[handers];
        java.util.Arrays.fill(lastOf, -1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger(), outOfOrder = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(handers * perHander);
        AtomicInteger threads = new AtomicInteger();
        ThreadFactory factory = r -> {
            threads.incrementAndGet();
            Thread t = new Thread(r, "runner-test");
            t.setDaemon(true);
            return t;
        };
        SerialRunner runner = new SerialRunner(factory, TimeUnit.MICROSECONDS.toNanos(1), new SerialRunner.Work() {
            @Override
            public void run(Object item) {
                if (running.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                int id = (Integer) item;
                int hander = id / perHander;
                if (id <= lastOf[hander]) { // plain: written and read by the runner alone, one at a time
                    outOfOrder.incrementAndGet();
                }
                lastOf[hander] = id;
                runs.incrementAndGet(id);
                running.decrementAndGet();
                done.countDown();
            }

            @Override
            public long deadline(Object item) {
                return PAST;
            }

            @Override
            public void noThread(Throwable why) {
                throw new AssertionError("the test's factory always gives a thread", why);
            }
        });
        Thread[] producers = new Thread[handers];
        for (int h = 0; h < handers; h++) {
            int base = h * perHander;
            producers[h] = new Thread(() -> {
                for (int i = 0; i < perHander; i++) {
                    runner.handOver(base + i);
                    if ((i & 63) == 0) {
                        // a pause, not a wait for anything: the runner's thread finds the queue empty, ends after
                        // its 1 us keep-alive, and the next hand-over races that end or starts a new thread
                        LockSupport.parkNanos(200_000);
                    }
                }
            });
            producers[h].start();
        }
        for (Thread p : producers) {
            p.join();
        }
        assertTrue(done.await(60, TimeUnit.SECONDS), "left to run: " + done.getCount());
        for (int i = 0; i < runs.length(); i++) {
            assertEquals(1, runs.get(i), "item " + i);
        }
        assertEquals(0, overlaps.get(), "two items ran at the same time");
        assertEquals(0, outOfOrder.get(), "a hander's items ran out of order");
        assertTrue(threads.get() > 10, threads.get() + " runner threads: the race with the thread's end was seldom met");
        System.out.println("SerialRunnerTest: " + threads.get() + " runner threads over " + runs.length() + " items");
    }

    @Test
    void aFactoryThatGivesNoThread_runsTheWorkOnTheHandingThread() {
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger told = new AtomicInteger();
        SerialRunner runner = new SerialRunner(r -> null, TimeUnit.MILLISECONDS.toNanos(500), new SerialRunner.Work() {
            @Override
            public void run(Object item) {
                ran.incrementAndGet();
            }

            @Override
            public long deadline(Object item) {
                return PAST;
            }

            @Override
            public void noThread(Throwable why) {
                told.incrementAndGet();
            }
        });
        runner.handOver("a");
        runner.handOver("b");
        assertEquals(2, ran.get());
        assertEquals(2, told.get());
        assertEquals(false, runner.stop(), "nothing to wait for");
    }

    @Test
    void stop_runsWhatIsQueued_andEndsTheThread() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1), release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        Thread[] thread = new Thread[1];
        SerialRunner runner = new SerialRunner(r -> thread[0] = new Thread(r, "runner-stop"),
                TimeUnit.SECONDS.toNanos(30), new SerialRunner.Work() {
                    @Override
                    public void run(Object item) {
                        if ("block".equals(item)) {
                            blocked.countDown();
                            try {
                                release.await(); // interrupted by stop(), as HashedWheelTimer.stop() interrupts
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        ran.incrementAndGet();
                    }

                    @Override
                    public long deadline(Object item) {
                        return PAST;
                    }

                    @Override
                    public void noThread(Throwable why) {
                    }
                });
        runner.handOver("block");
        runner.handOver("next");
        assertTrue(blocked.await(10, TimeUnit.SECONDS));
        runner.stop();
        assertEquals(2, ran.get());
        assertTrue(!thread[0].isAlive(), "the runner's thread outlived stop()");
    }

    @Test
    void itemsHandedOverAhead_runInDeadlineOrder_neverEarly_equalDeadlinesInHandOverOrder() throws Exception {
        long base = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        // handed over latest first; 3 and 4 share a deadline; 5's deadline is long past
        long[] deadlineOf = {base + 6_000_000, base + 4_000_000, base + 2_000_000, base + 1_000_000, base + 1_000_000,
                base - TimeUnit.SECONDS.toNanos(1)};
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger early = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(deadlineOf.length);
        SerialRunner runner = new SerialRunner(r -> new Thread(r, "runner-ahead"), TimeUnit.SECONDS.toNanos(30),
                new SerialRunner.Work() {
                    @Override
                    public void run(Object item) {
                        int id = (Integer) item;
                        if (System.nanoTime() - deadlineOf[id] < 0) {
                            early.incrementAndGet();
                        }
                        order.add(id);
                        done.countDown();
                    }

                    @Override
                    public long deadline(Object item) {
                        return deadlineOf[(Integer) item];
                    }

                    @Override
                    public void noThread(Throwable why) {
                        throw new AssertionError("the test's factory always gives a thread", why);
                    }
                });
        for (int id = 0; id < deadlineOf.length; id++) {
            runner.handOver(id);
        }
        assertTrue(done.await(10, TimeUnit.SECONDS), "left to run: " + done.getCount());
        assertEquals(0, early.get(), "items ran before their deadlines");
        assertEquals(List.of(5, 3, 4, 2, 1, 0), order);
        runner.stop();
    }

    @Test
    void aWaitingThread_isWokenByAnEarlierItem_andStopRunsWhatItHoldsAtOnce() throws Exception {
        long far = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long soon = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
        CountDownLatch soonRan = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        Thread[] thread = new Thread[1];
        SerialRunner runner = new SerialRunner(r -> thread[0] = new Thread(r, "runner-waiting"),
                TimeUnit.SECONDS.toNanos(30), new SerialRunner.Work() {
                    @Override
                    public void run(Object item) {
                        order.add((String) item);
                        if ("soon".equals(item)) {
                            soonRan.countDown();
                        }
                    }

                    @Override
                    public long deadline(Object item) {
                        return "far".equals(item) ? far : soon;
                    }

                    @Override
                    public void noThread(Throwable why) {
                    }
                });
        runner.handOver("far"); // its thread waits for a deadline 30 s away
        runner.handOver("soon"); // earlier: the hand-over must wake it
        assertTrue(soonRan.await(10, TimeUnit.SECONDS), "an earlier item left waiting behind a later one");
        assertEquals(List.of("soon"), order);
        runner.stop(); // the stop runs "far" now, whatever its deadline, and ends the thread
        assertEquals(List.of("soon", "far"), order);
        assertTrue(!thread[0].isAlive(), "the runner's thread outlived stop()");
    }
}
