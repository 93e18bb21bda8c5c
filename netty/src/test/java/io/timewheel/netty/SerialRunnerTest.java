package io.timewheel.netty;

import org.junit.jupiter.api.Test;

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
 * so that the race between a hand-over and the thread's end is met all the time); and with no thread to be
 * had, the hand-over runs the work itself.
 */
class SerialRunnerTest {

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
}
