package io.timewheel.netty;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** A thread factory that names its daemon threads "prefix-N" and remembers every thread it made. */
final class TestThreads implements ThreadFactory {
    final String prefix;
    final List<Thread> created = new CopyOnWriteArrayList<>();
    private final AtomicInteger count = new AtomicInteger();

    TestThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
        t.setDaemon(true);
        created.add(t);
        return t;
    }

    boolean made(Thread t) {
        return created.contains(t);
    }
}
