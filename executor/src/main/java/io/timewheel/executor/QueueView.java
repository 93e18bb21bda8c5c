package io.timewheel.executor;

import io.timewheel.executor.internal.queue.DecoratedEntry;
import io.timewheel.executor.internal.queue.QueueEntry;
import io.timewheel.executor.internal.queue.TaskQueue;

import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * What {@code getQueue()} returns: a live view of the executor's TaskQueue (wherever its tasks wait: the tick
 * thread's inbox and wheel, the ready queue), with the operations of STPE's own queue.
 *
 * <p>Any thread. size and isEmpty read a striped count without a lock: isEmpty is exact at an instant during
 * the call, size exact when nothing is queued or taken meanwhile (else a value between the counts seen
 * during the call; see QueuedCount); contains is O(1) for
 * the executor's own tasks; iterator and toArray work on a snapshot taken by the tick thread (weakly
 * consistent, as STPE's iterator is a snapshot too); the iterator's remove takes the task out of the
 * queue. offer accepts a RunnableScheduledFuture, as STPE's queue does; poll, take and drainTo take due
 * tasks out of the queue.
 */
final class QueueView extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

    /** The queue it shows. Immutable. */
    private final TaskQueue queue;

    QueueView(TaskQueue queue) {
        this.queue = queue;
    }

    @Override
    public int size() {
        return queue.sizeAsInt();
    }

    @Override
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    @Override
    public boolean contains(Object o) {
        return queue.contains(o);
    }

    @Override
    public boolean remove(Object o) {
        return queue.remove(o);
    }

    private List<Runnable> tasks() {
        List<QueueEntry> entries = queue.collect(false);
        List<Runnable> tasks = new ArrayList<>(entries.size());
        for (QueueEntry entry : entries) {
            tasks.add(entry.runnable());
        }
        return tasks;
    }

    @Override
    public Object[] toArray() {
        return tasks().toArray();
    }

    @Override
    public <T> T[] toArray(T[] a) {
        return tasks().toArray(a);
    }

    @Override
    public Iterator<Runnable> iterator() {
        List<Runnable> tasks = tasks();
        return new Iterator<>() {
            private int cursor;
            private int last = -1;

            @Override
            public boolean hasNext() {
                return cursor < tasks.size();
            }

            @Override
            public Runnable next() {
                if (cursor >= tasks.size()) {
                    throw new NoSuchElementException();
                }
                last = cursor++;
                return tasks.get(last);
            }

            @Override
            public void remove() {
                if (last < 0) {
                    throw new IllegalStateException();
                }
                queue.remove((Object) tasks.get(last));
                last = -1;
            }
        };
    }

    // ---------------------------------------------------------------------------------------------
    // Queue operations, as STPE's DelayedWorkQueue offers them

    @Override
    public boolean offer(Runnable r) {
        if (r == null) {
            throw new NullPointerException();
        }
        RunnableScheduledFuture<?> task = (RunnableScheduledFuture<?>) r; // ClassCastException for others, as STPE
        queue.add(new DecoratedEntry(queue, task, queue.deadlineOf(task)), queue.clock.nanoTime());
        return true;
    }

    @Override
    public void put(Runnable r) {
        offer(r);
    }

    @Override
    public boolean offer(Runnable r, long timeout, TimeUnit unit) {
        return offer(r);
    }

    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    /** The earliest queued task, due or not, or null. */
    @Override
    public Runnable peek() {
        List<QueueEntry> entries = queue.collect(false);
        return entries.isEmpty() ? null : entries.get(0).runnable();
    }

    /** Takes the earliest due task out of the queue, or returns null if none is due. */
    @Override
    public Runnable poll() {
        return queue.pollDue();
    }

    @Override
    public Runnable take() throws InterruptedException {
        return queue.removeDue(false, 0L);
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        return queue.removeDue(true, unit.toNanos(timeout));
    }

    @Override
    public int drainTo(Collection<? super Runnable> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> c, int maxElements) {
        if (c == null) {
            throw new NullPointerException();
        }
        if (c == this) {
            throw new IllegalArgumentException();
        }
        int n = 0;
        Runnable r;
        while (n < maxElements && (r = queue.pollDue()) != null) {
            c.add(r);
            n++;
        }
        return n;
    }
}
