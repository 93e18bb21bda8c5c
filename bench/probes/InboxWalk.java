/*
 * Probe (not built with the project): what the tick thread pays per entry to take in what a producer on the
 * other CPU offered, when the entries come as a linked stack (StripedInbox: a Treiber stack per stripe, each
 * detach a walk over the entries' own links, every step a load that waits for the one before) or as an array
 * of references (a single-producer ring, issue 26's design direction: the consumer reads the addresses from
 * the array, so the loads of several entries can be in flight at once).
 *
 * One producer thread allocates 56-byte entries (as ScheduledTask) and offers them at a fixed pace; one
 * consumer thread takes them in and files each as the wheel does (reads its deadline, writes its location
 * and links it at the tail of one of 512 lists picked by the deadline, as TimerWheel's level-0 lanes), and
 * drops a list once it holds 4096 entries (so the heap holds a bounded number); after each batch it sleeps
 * 1 ms, as the tick thread reads its inbox about once per ms under a stream of far timers. Printed per second: the
 * entries the consumer took in, and its CPU time per entry (thread CPU time / entries), ns. The producer is
 * the same in both modes apart from the offer itself.
 *
 *   javac -d /tmp/iw bench/probes/InboxWalk.java
 *   for m in stack ring stack ring; do java -Xms2g -Xmx2g -cp /tmp/iw InboxWalk $m 5; done
 *
 * The last argument is the producer's pace, M entries per second (default 5), so that the consumer keeps up
 * and both modes take in the same stream.
 *
 * What it showed: bench/results/jdk17/producer-floor.txt (session 48).
 */
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

public class InboxWalk {
    /** About a ScheduledTask: 12-byte header, two longs, three ints, four references (56 bytes). */
    static final class Entry {
        long deadline;
        long period;
        int sequence;
        int state;
        int location;
        Entry next;
        Entry prev;
        Object task;
        Object outcome;
    }

    static final int LISTS = 512;
    static final int RING = 1 << 16;

    static final AtomicReference<Entry> top = new AtomicReference<>();
    static final Entry[] ring = new Entry[RING];
    /** The ring's tail (written by the producer) at TAIL and head (by the consumer) at HEAD, 128 bytes apart. */
    static final long[] indexes = new long[48];
    static final int TAIL = 16, HEAD = 32;
    static final VarHandle INDEX = MethodHandles.arrayElementVarHandle(long[].class);
    static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Entry[].class);

    static final Entry[] heads = new Entry[LISTS], tails = new Entry[LISTS];
    static final int[] counts = new int[LISTS];
    static long taken;

    public static void main(String[] args) throws Exception {
        boolean stack = args[0].equals("stack");
        double rate = Double.parseDouble(args.length > 1 ? args[1] : "5"); // M entries per second offered
        AtomicBoolean stop = new AtomicBoolean();
        Thread producer = new Thread(() -> {
            long d = 0;
            int seq = 0;
            long t = 0, headSeen = 0, begin = System.nanoTime(), offered = 0;
            while (!stop.get()) {
                // paced: the consumer keeps up, so both modes take in the same stream
                while ((System.nanoTime() - begin) * rate / 1000 < offered) {
                    Thread.onSpinWait();
                }
                offered += 1000;
                for (int i = 0; i < 1000; i++) {
                    Entry e = new Entry();
                    e.deadline = d += 977;
                    e.sequence = seq++;
                    if (stack) {
                        for (;;) {
                            Entry was = top.get();
                            e.next = was;
                            if (top.compareAndSet(was, e)) {
                                break;
                            }
                        }
                    } else {
                        while (t - headSeen >= RING) {
                            headSeen = (long) INDEX.getAcquire(indexes, HEAD); // full as last seen: look again
                            Thread.onSpinWait();
                        }
                        SLOT.setRelease(ring, (int) t & (RING - 1), e);
                        INDEX.setRelease(indexes, TAIL, ++t);
                    }
                }
            }
        }, "producer");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] perSecond = new long[10];
        long[] cpu = new long[10];
        Thread consumer = new Thread(() -> {
            long id = Thread.currentThread().getId();
            long start = System.nanoTime();
            int second = -2; // two seconds of warm-up
            long taken0 = 0, cpu0 = mx.getThreadCpuTime(id);
            while (second < perSecond.length) {
                if (stack) {
                    Entry chain = top.getAndSet(null);
                    // reverse into offer order, as StripedInbox.detachAll does, then file
                    Entry first = null;
                    for (Entry e = chain, below; e != null; e = below) {
                        below = e.next;
                        e.next = first;
                        first = e;
                    }
                    for (Entry e = first, after; e != null; e = after) {
                        after = e.next;
                        file(e);
                    }
                } else {
                    long h = indexes[HEAD], t = (long) INDEX.getAcquire(indexes, TAIL);
                    for (; h != t; h++) {
                        int i = (int) h & (RING - 1);
                        Entry e = ring[i];
                        ring[i] = null;
                        file(e);
                    }
                    INDEX.setRelease(indexes, HEAD, h);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // as the tick thread: a batch per ~ms
                long now = System.nanoTime();
                if (now - start >= 1_000_000_000L) {
                    start = now;
                    long c = mx.getThreadCpuTime(id);
                    if (second >= 0) {
                        perSecond[second] = taken - taken0;
                        cpu[second] = c - cpu0;
                    }
                    taken0 = taken;
                    cpu0 = c;
                    second++;
                }
            }
        }, "consumer");
        producer.start();
        consumer.start();
        consumer.join();
        stop.set(true);
        producer.join();
        StringBuilder taken = new StringBuilder(), cost = new StringBuilder();
        for (int s = 0; s < perSecond.length; s++) {
            taken.append(String.format(" %.1f", perSecond[s] / 1e6));
            cost.append(String.format(" %.1f", (double) cpu[s] / Math.max(1, perSecond[s])));
        }
        System.out.printf("%-5s %.0f M/s offered; M entries taken in per second:%s | consumer CPU ns per entry:%s%n",
                args[0], rate, taken, cost);
    }

    /** As TimerWheel.link: the entry goes to the tail of the list its deadline picks. */
    static void file(Entry e) {
        int list = (int) (e.deadline >>> 10) & (LISTS - 1);
        Entry t = tails[list];
        e.location = list;
        e.state = 1;
        e.next = null;
        e.prev = t;
        if (t == null || counts[list] >= 4096) {
            heads[list] = e; // a full list is dropped (the heap stays bounded)
            e.prev = null;
            counts[list] = 0;
        } else {
            t.next = e;
        }
        tails[list] = e;
        counts[list]++;
        taken++;
    }
}
