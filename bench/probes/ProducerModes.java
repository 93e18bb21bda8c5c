/*
 * Probe: why schedule+cancel with two producer threads runs in one of two modes, changing from one JMH fork to
 * the next (ScheduleCancelBenchmark -t 2 is bimodal). Prints the operations per second, second by second, so
 * that a switch between the modes shows inside one JVM, and the tick thread's CPU time over those seconds.
 *
 *   tw N [collide]  N threads schedule a 30 s timer and cancel it at once, on a WheelScheduledExecutorService
 *                   holding 1M far timers (1-2 h), as ScheduleCancelBenchmark (timewheel, 1M pending) does; with
 *                   "collide" the first two producers get thread ids equal mod 16, so they share an inbox stripe
 *                   and a queued-count cell (both picked by thread id); each producer's id mod 16 is printed
 *   alloc N         the control: N threads each allocate small objects into a private ring and share nothing,
 *                   with 1M old objects on the heap (no timewheel code at all)
 *   rtt             what a cache line shared by two threads costs on this host: two threads pass one volatile
 *                   counter back and forth; prints the round trip in ns, second by second
 *
 *   for i in 1 2 3 4 5 6; do JAVA_OPTS="-Xms1g -Xmx4g" bench/probe.sh ProducerModes tw 2; done
 *   for i in 1 2 3; do JAVA_OPTS="-Xms1g -Xmx4g" bench/probe.sh ProducerModes alloc 2; done
 *   for i in 1 2 3 4 5 6; do bench/probe.sh ProducerModes rtt; done
 *
 * Reach for it before reading a multi-producer figure as the executor's: when the control or the round trip
 * changes mode from one launch to the next, so does every peer's schedule+cancel, and only runs interleaved on
 * the same launches (bench/compare-peers.sh) compare them. JAVA_OPTS=-XX:+PrintCompilation shows whether a
 * switch comes with a compilation; JAVA_OPTS=-XX:+UseParallelGC whether it depends on the collector.
 */
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

public class ProducerModes {
    /** The control's object: about a task's size. */
    static final class Node {
        long a, b, c;
        Object d, e;
        int f;
    }

    /** rtt's counter. */
    static volatile long pingPong;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("rtt")) {
            roundTrips();
            return;
        }
        boolean timers = args[0].equals("tw");
        boolean collide = args.length > 2 && args[2].equals("collide");
        int threads = Integer.parseInt(args[1]);
        io.timewheel.executor.WheelScheduledExecutorService executor = null;
        Object[] old = null;
        Runnable noop = new Runnable() {
            @Override
            public void run() {
            }
        };
        if (timers) {
            executor = new io.timewheel.executor.WheelScheduledExecutorService(1);
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < 1_000_000; i++) {
                executor.schedule(noop, 3_600_000 + random.nextInt(3_600_000), TimeUnit.MILLISECONDS);
            }
        } else {
            old = new Object[1_000_000];
            for (int i = 0; i < old.length; i++) {
                old[i] = new Node();
            }
        }
        System.gc();
        LongAdder progress = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        io.timewheel.executor.WheelScheduledExecutorService e = executor;
        Thread[] producers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            if (collide && t == 1) {
                while ((nextId() & 15) != (producers[0].getId() & 15)) {
                    // unstarted threads, only to move the id counter on: producer 1 shares producer 0's stripe
                }
            }
            Thread thread = producers[t] = new Thread(new Runnable() {
                @Override
                public void run() {
                    try {
                        start.await();
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                    Node[] ring = new Node[1024];
                    long x = 0;
                    while (!stop.get()) {
                        for (int i = 0; i < 1000; i++) {
                            if (e != null) {
                                e.schedule(noop, 30, TimeUnit.SECONDS).cancel(false);
                            } else {
                                Node n = new Node();
                                n.a = x++;
                                ring[i & 1023] = n;
                            }
                        }
                        progress.add(1000);
                    }
                }
            }, "producer-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        start.await();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long tick = -1;
        for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("tick")) {
                tick = info.getThreadId();
            }
        }
        Thread.sleep(2000); // warm-up
        long tick0 = tick < 0 ? 0 : mx.getThreadCpuTime(tick);
        StringBuilder perSecond = new StringBuilder();
        for (int s = 0; s < 8; s++) {
            long c0 = progress.sum();
            Thread.sleep(1000);
            perSecond.append(String.format(" %.1f", (progress.sum() - c0) / 1e6));
        }
        stop.set(true);
        for (Thread producer : producers) {
            producer.join();
        }
        StringBuilder stripes = new StringBuilder();
        for (Thread producer : producers) {
            stripes.append(' ').append(producer.getId() & 15);
        }
        System.out.printf("%s %d threads (ids mod 16:%s), M ops per second:%s%s%n", args[0], threads, stripes, perSecond,
                tick < 0 ? "" : String.format(" | tick thread CPU over those 8 s: %.0f ms", (mx.getThreadCpuTime(tick) - tick0) / 1e6));
        if (executor != null) {
            executor.shutdownNow();
        }
        if (old != null && old[0] == null) {
            System.out.println();
        }
    }

    /** Creates an unstarted thread (it only moves the id counter on) and returns the id the next thread will get. */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19
    private static long nextId() {
        return new Thread(() -> { }).getId() + 1;
    }

    private static void roundTrips() throws InterruptedException {
        LongAdder progress = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        for (int t = 0; t < 2; t++) {
            int parity = t;
            Thread thread = new Thread(new Runnable() {
                @Override
                public void run() {
                    while (!stop.get()) {
                        for (int i = 0; i < 10_000; i++) {
                            long x;
                            while (((x = pingPong) & 1) != parity) {
                                Thread.onSpinWait();
                            }
                            pingPong = x + 1;
                        }
                        if (parity == 0) {
                            progress.add(10_000);
                        }
                    }
                }
            });
            thread.setDaemon(true);
            thread.start();
        }
        Thread.sleep(1000);
        StringBuilder perSecond = new StringBuilder();
        for (int s = 0; s < 10; s++) {
            long c0 = progress.sum();
            Thread.sleep(1000);
            perSecond.append(String.format(" %.0f", 1e9 / Math.max(1, progress.sum() - c0)));
        }
        stop.set(true); // a thread may be left waiting for its parity: daemon threads, the JVM exits anyway
        System.out.println("rtt: round trip of a shared line between two threads, ns, per second:" + perSecond);
    }
}
