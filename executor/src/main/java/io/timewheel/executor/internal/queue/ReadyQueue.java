package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.ColdStart;
import io.timewheel.executor.internal.NanoClock;

import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The tasks of one executor that are due within {@link #HORIZON_NANOS} (the near term), waiting for a
 * worker, in (deadline, sequence) order: a sorted ring that entries arriving in order are appended to, beside
 * a binary min-heap for the others. Any thread; its lock is private.
 */
public final class ReadyQueue {
    /*
     * Implementation notes
     *
     * The near term belongs to the workers: an entry reaches this queue once it is due within HORIZON_NANOS.
     * A producer puts an entry that is already that close straight in (TaskQueue.dispatch: push), and the
     * tick thread hands over the later ones from the wheel in batches of about a stride
     * (TickThread.STRIDE_NANOS) of deadlines, between HORIZON_NANOS and TickThread.MARGIN_NANOS -
     * TickThread.DEFER_NANOS before them (pushBatch: gathered and sorted outside the lock, spliced in under
     * one acquisition, usually as one copy onto the ring, so a worker never waits behind the tick thread's
     * work). So what waits here is what falls due soon (the far term waits in the wheel, where O(1) matters),
     * and from the hand-over on a task's path is STPE's: the workers make the last, exact wait themselves,
     * leader/follower as in STPE's DelayedWorkQueue (one worker waits timed for the head, the others
     * untimed), and a task starts one timed wake-up of a worker after its deadline. A tick thread late by
     * less than that lead makes no task late; the lead is milliseconds, not microseconds, because on a busy
     * CPU one wake-up of the tick thread can wait a scheduler time slice.
     *
     * Wake-ups, as STPE's queue: a push signals only when the entry becomes the head (the leader must look
     * again); a batch signals once, if it brings a new head. A worker that leaves take passes the wake-up on
     * if there is no leader and entries remain. So a burst handed over costs the workers one wake-up, not
     * one per task, and a worker waiting timed for its head is not woken by entries behind it. The other
     * way: a worker about to block (with nothing due, as leader or with the queue empty) wakes the tick
     * thread if a hand-over it deferred is due (Waker.wakeIfDue; TickThread's notes, Deferred), so that the
     * hand-over takes the CPU the worker leaves. That is the one signal against the flow of data, and it is
     * declared here (Waker) for the tick thread to answer; it costs a blocking worker a volatile read or two
     * (and, with the queue empty and the tick thread parked, a clock reading).
     *
     * Order: by deadline, so that a single worker runs overdue tasks earliest first, as on STPE, then by the
     * entry's sequence (Sequencer; compared with wrap-around), so that equal deadlines run in creation order,
     * as on STPE, however the entries arrived here (from a producer, or from the tick thread, which reads its
     * inbox's stripes in no particular order). A worker never takes an entry before its deadline, less the
     * take-ahead the entry allows (QueueEntry.takeAheadNanos: 0 for every task of the executor's own), and only
     * the head: an entry that allows one is taken early only when a worker looks anyway (a wake-up for an
     * earlier head, or a return for the next task), never waited for, so a stream of such entries costs a
     * worker one wake-up per take-ahead, and the order stays the queue's. Ties are
     * rare, so each push shows both ways a tie can go to the JIT's profile (trainTies), lest the first real
     * one deoptimize the compiled queue.
     *
     * Copies. The heap and the ring keep each entry's deadline, sequence and readyAt beside it in primitive
     * arrays (copied in at push), so ordering compares within those arrays and never loads an entry: with
     * thousands of entries within the horizon each such load would be a cache miss, at every level of a
     * sift. A copy is valid while the entry is here under the deadline it was placed with, and an entry's
     * deadline changes while a copy of it is here in one case only: a periodic task someone ran directly (a
     * worker pops an entry before it runs it) is queued again for its next time while its old copy is still
     * here. It is QUEUED again (its new time written before the release) before the tick thread refreshes
     * its deadline field from that time (QueueEntry.refreshDeadline, in QueueWheel.refile), so the head is
     * checked against nextDeadline() (that time, read after isQueued), not deadline(): a head whose next
     * deadline is not its copy's is a stale copy, dropped like a head that left the queue, and its earlier
     * deadline never runs the task early. For an entry validly here the two are equal: it was placed after
     * refreshDeadline, and its time changes only while it runs.
     *
     * Entries that left the queue (cancelled, removed, run directly) stay here until they come to the head,
     * where they are popped and passed over: they are due within the horizon, so that is soon.
     *
     * Ownership. The arrays, their sizes, ringHead, leader and waiting are guarded by lock (push and pushBatch
     * also read size, ringSize and the arrays' lengths without it, as a hint only: Growth); so is GiveWay's
     * state. clock, tick and giveWay are immutable; watch is set once, before the executor is used.
     *
     * Growth. The heap's and the ring's arrays double, up to ReadyQueueRoom.MAX_CAPACITY entries each, and
     * the pusher allocates the larger ones before it takes the lock (ReadyQueueRoom): for a push, twice the
     * arrays once three quarters are used, on a hint read without the lock, never failing the push (an
     * allocation that fails leaves the growth to the lock); for a batch, doubled until all of it fits. So the
     * lock is held for the copy only. Growing under the lock instead parks a worker whose task is due behind
     * an allocation, which in a fresh eden page-faults for far longer than the copy (`punctuality warm`). A
     * hint made stale by another pusher costs arrays that are dropped (a room is used only if larger than the
     * arrays then), or a growth under the lock. Past MAX_CAPACITY a push or a batch fails with
     * OutOfMemoryError before anything is added.
     *
     * The ring. Most entries arrive in order: the tick thread hands over batches the wheel has sorted, each
     * later than the one before (it covers deadlines up to a later now + HORIZON_NANOS), and a flood of
     * execute() or short delays from one producer comes in creation order. An entry that is not before the
     * last one appended goes onto the ring, a circular array sorted from head to tail by (deadline,
     * sequence), with its copies beside it as in the heap; any other goes into the heap. The queue's head is
     * the lesser of the two heads (headInRing), so the order stays exact whatever mix arrives, and an
     * in-order arrival costs an append and a pop instead of a sift each way: with thousands of entries within
     * the horizon a sift is log n levels of unpredictable branches and stores, paid per task
     * (ExpiryBenchmark). A batch (pushBatch) is split at the ring's tail: the entries before it go into the
     * heap, the rest onto the ring in one copy. Everything said of the heap holds for the ring: copies,
     * stale copies, and entries that left the queue passed over at the head.
     *
     * Giving way. A thread that pushes an entry (a producer, or a worker re-arming a periodic task) may then
     * yield its CPU to the workers, once it has unlocked, while the head is overdue, at most once per interval
     * (GiveWay's notes: a flood of schedules from one thread starves a worker queued on its CPU). pollLocked
     * counts each poll into it.
     *
     * Hand-over times (the executor's statistics). Beside each entry's deadline and sequence the heap and the
     * ring keep when it arrived here (readyAt: the pusher's clock reading, one per batch for the tick thread's
     * hand-overs), so that a worker learns, with the entry it takes, when a worker could first have taken it
     * (the later of deadline and readyAt) without a field in the task: take writes readyAt, the deadline, its
     * own clock reading (the one it found the entry due with) and the idle workers into the worker's Slot.
     * waiting counts the workers blocked in take (idle), for the statistics and the starvation watch; it
     * changes only when a worker starts or stops waiting, never per task taken.
     *
     * Watching. A PushWatch (the starvation watch), set once before the executor is used, is told the
     * deadline of each push and the earliest of each batch, by the pushing thread after it has released the
     * lock. scan (under the lock) answers the watch's and the statistics' looks: the overdue entries, the
     * oldest, the earliest still queued, and the idle workers, in a walk over the ring's and the heap's due
     * parts.
     */

    /**
     * The near term, which the workers own: an entry due within it waits here. 2^27 ns = 134 ms. A timer this
     * close goes from its producer straight to the workers, as on STPE, and never runs the tick thread's code:
     * that code runs once or twice per hand-over, not per timer, so in an application that schedules in bursts
     * it stays interpreted or C1-compiled for long, and its C2 compilations, each taking a CPU for a while,
     * would land while tasks fall due. A shorter horizon (2^25 ns) leaves more bursts with a late tail than
     * STPE (`lateness-burst`, `punctuality cold|warm` decide it). An entry the tick thread holds from beyond
     * the horizon still reaches the workers at least TickThread.MARGIN_NANOS - TickThread.DEFER_NANOS
     * (125.8 ms, the horizon less two hand-over strides) before its deadline when the tick thread wakes on
     * time: far more than a loaded CPU makes a waking thread wait. What waits here costs O(log n) in the heap
     * (O(1) on the ring), which is why the far term stays in the wheel.
     */
    public static final long HORIZON_NANOS = 1L << 27;

    /** Guards every mutable field but watch (see the notes: Ownership). Immutable. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Where workers wait in take. Immutable. */
    private final Condition available = lock.newCondition();
    /** The heap: a binary min-heap by (deadline, sequence), size entries. Guarded by lock. */
    private QueueEntry[] tasks = new QueueEntry[16];
    /** The deadline and sequence of the entry at the same index of tasks (see the notes: Copies). Guarded by lock. */
    private long[] deadlines = new long[16];
    private int[] sequences = new int[16];
    /** When the entry at the same index of tasks was pushed (see the notes: Hand-over times). Guarded by lock. */
    private long[] readyAts = new long[16];
    /** The heap's entries. Guarded by lock (read without it as a hint: see the notes, Growth). */
    private int size;
    /**
     * The ring: entries sorted by (deadline, sequence) from ringHead on, ringSize of them, with their
     * deadlines, sequences and readyAts at the same indices. Capacity a power of two. Guarded by lock
     * (ringSize and the capacity read without it as a hint: see the notes, Growth).
     */
    private QueueEntry[] ring = new QueueEntry[16];
    private long[] ringDeadlines = new long[16];
    private int[] ringSequences = new int[16];
    private long[] ringReadyAts = new long[16];
    private int ringHead, ringSize;
    /** Workers blocked in take (see the notes: Hand-over times). Guarded by lock. */
    private int waiting;
    /** Whether a pusher yields to the workers (see the notes: Giving way). Immutable; its state guarded by lock. */
    private final GiveWay giveWay;
    /** The worker waiting timed for the head's deadline, if any. Guarded by lock. */
    private Thread leader;
    /** The time source. Immutable. */
    private final NanoClock clock;
    /**
     * The thread handing over to this queue (the tick thread), woken by a worker about to block (see the notes:
     * Wake-ups); null when none does (ReadyQueue's own unit tests). Immutable.
     */
    private final Waker tick;
    /** Told the deadline of every push, if set (see the notes: Watching). Volatile; set once, before use. */
    private volatile PushWatch watch;

    /** A ready queue whose hand-overs come from {@code tick} (null: none, as in this class's unit tests). */
    public ReadyQueue(NanoClock clock, Waker tick) {
        this.clock = clock;
        this.tick = tick;
        this.giveWay = new GiveWay(clock.nanoTime());
        ColdStart.initialize(ReadyQueueRoom.class); // the first push that grows would load it after a deadline
    }

    /**
     * What a worker about to block asks of the thread that hands entries over to this queue (the tick thread,
     * which defers its own wake-up for a hand-over until a worker blocks: TickThread's notes, Deferred). The
     * one signal that runs against the flow of data, declared here so that nothing in this package names the
     * thread that answers it. Any thread.
     */
    public interface Waker {
        /** Whether it is parked (it may be waking already). */
        boolean sleeping();

        /** Wakes it if the time it meant to look has passed and it still sleeps. {@code now}: the worker's clock. */
        void wakeIfDue(long now);
    }

    /** What a watch of this queue is told of each push (the starvation warning, StarvationWatch). */
    public interface PushWatch {
        /**
         * An entry due at {@code deadline} was pushed (for a batch, its earliest), by a producer or the tick
         * thread, after the ready queue's lock was released. The pushing thread; must not block.
         */
        void pushed(long deadline);
    }

    /** Starts telling {@code watch} of every push. Once, before the executor is used. */
    public void watch(PushWatch watch) {
        this.watch = watch;
    }

    /**
     * The slot through which take hands a worker the times of the entry it returns: its deadline, when it
     * reached this queue (readyAt), the clock reading it was found due with (takenAt), and the idle workers
     * then. Written by take under the lock, read by the same worker after it returns. Owned by one worker.
     */
    public static class Slot {
        public long deadline;
        public long readyAt;
        public long takenAt;
        public int idleWorkers;
    }

    /** Before a worker blocks in take (see the notes: Wake-ups). */
    private void wakeTickIfDue(long now) {
        if (tick != null) {
            tick.wakeIfDue(now);
        }
    }

    /**
     * Adds an entry due within the horizon, waking one waiting worker if it becomes the head; {@code now}: the
     * pusher's clock reading. Any thread. The pusher may then yield its CPU to a worker (see the notes: Giving
     * way).
     *
     * @return whether it yielded
     */
    boolean push(QueueEntry task, long now) {
        long deadline = task.deadline(); // placed: it stays while this push holds the entry
        // read without the lock, a hint only: the room is used under it only if larger than the arrays then
        ReadyQueueRoom heapRoom = ReadyQueueRoom.ahead(size, tasks.length);
        ReadyQueueRoom ringRoom = ReadyQueueRoom.ahead(ringSize, ring.length);
        boolean yielding;
        lock.lock();
        try {
            grow(heapRoom, ringRoom);
            if (pushLocked(task, now)) {
                available.signal();
            }
            yielding = giveWay.afterPush(headDeadline(), now);
        } finally {
            lock.unlock();
        }
        PushWatch w = watch;
        if (w != null) {
            w.pushed(deadline);
        }
        if (yielding) {
            Thread.yield();
        }
        return yielding;
    }

    /**
     * Tick thread: splices in a batch of entries sorted by (deadline, sequence) (HandOverBatch), under one lock
     * acquisition, with at most one wake-up. Room is made before anything is added: if that fails (out of memory) the
     * exception leaves the queue as it was, and the caller puts the batch back where it came from.
     * {@code now}: the tick thread's clock reading, the batch's readyAt.
     */
    void pushBatch(HandOverBatch batch, long now) {
        int n = batch.size;
        if (n == 0) {
            return;
        }
        boolean newHead = false;
        // read without the lock, a hint only, as in push
        ReadyQueueRoom heapRoom = ReadyQueueRoom.forSize(size + n, tasks.length);
        ReadyQueueRoom ringRoom = ReadyQueueRoom.forSize(ringSize + n, ring.length);
        lock.lock();
        try {
            grow(heapRoom, ringRoom);
            ensureRoom(n);
            boolean wasEmpty = isEmpty();
            long headDeadline = wasEmpty ? 0 : headDeadline();
            int headSequence = wasEmpty ? 0 : headSequence();
            // the part of the batch before the ring's tail goes into the heap (entries the tick thread read late,
            // due before what it handed over last), the rest is copied onto the ring
            int k = ringSize == 0 ? 0 : firstNotBefore(batch, ringDeadlines[ringTail()], ringSequences[ringTail()]);
            for (int i = 0; i < k; i++) {
                siftUp(size++, batch.entries[i], batch.deadlines[i], batch.sequences[i], now);
            }
            appendAll(batch, k, now);
            newHead = wasEmpty || less(headDeadline(), headSequence(), headDeadline, headSequence);
            if (newHead) {
                leader = null; // a new head: whoever waits for the old one must look again
            }
        } finally {
            if (newHead) {
                available.signal(); // one wake-up for the batch
            }
            lock.unlock();
        }
        PushWatch w = watch;
        if (w != null) {
            w.pushed(batch.deadlines[0]); // sorted: the batch's earliest
        }
    }

    /** Grows the heap and the ring so that {@code n} more entries fit in either without allocating. */
    private void ensureRoom(int n) {
        grow(ReadyQueueRoom.forSize(size + n, tasks.length), ReadyQueueRoom.forSize(ringSize + n, ring.length));
    }

    /** Moves the heap and the ring into the rooms given (null: none), each if larger than its arrays. */
    private void grow(ReadyQueueRoom heapRoom, ReadyQueueRoom ringRoom) {
        if (heapRoom != null) {
            growHeap(heapRoom);
        }
        if (ringRoom != null) {
            growRing(ringRoom);
        }
    }

    /** The index of the first entry of a sorted batch that is not before (deadline, sequence), or its size. */
    private static int firstNotBefore(HandOverBatch batch, long deadline, int sequence) {
        int lo = 0, hi = batch.size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (less(batch.deadlines[mid], batch.sequences[mid], deadline, sequence)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Appends a sorted batch from index {@code k} on, which is not before the ring's tail; the caller has made
     * room.
     */
    private void appendAll(HandOverBatch batch, int k, long now) {
        int n = batch.size - k;
        int mask = ring.length - 1;
        int from = (ringHead + ringSize) & mask;
        int first = Math.min(n, ring.length - from); // up to the end of the ring, then from 0
        System.arraycopy(batch.entries, k, ring, from, first);
        System.arraycopy(batch.deadlines, k, ringDeadlines, from, first);
        System.arraycopy(batch.sequences, k, ringSequences, from, first);
        Arrays.fill(ringReadyAts, from, from + first, now);
        System.arraycopy(batch.entries, k + first, ring, 0, n - first);
        System.arraycopy(batch.deadlines, k + first, ringDeadlines, 0, n - first);
        System.arraycopy(batch.sequences, k + first, ringSequences, 0, n - first);
        Arrays.fill(ringReadyAts, 0, n - first, now);
        ringSize += n;
    }

    /** Adds an entry; true if it became the head (the caller then signals). */
    private boolean pushLocked(QueueEntry task, long now) {
        long deadline = task.deadline();
        int sequence = task.sequence();
        trainTies(deadline, sequence);
        boolean head;
        if (ringSize == 0 || !less(deadline, sequence, ringDeadlines[ringTail()], ringSequences[ringTail()])) {
            append(task, deadline, sequence, now);
            head = ringSize == 1 && (size == 0 || less(deadline, sequence, deadlines[0], sequences[0]));
        } else {
            if (size == tasks.length) {
                // no room made ahead (a stale hint, or one that failed)
                growHeap(new ReadyQueueRoom(ReadyQueueRoom.doubled(size)));
            }
            siftUp(size++, task, deadline, sequence, now);
            head = tasks[0] == task && !headInRing();
        }
        if (head) {
            leader = null; // a new head: whoever waits for the old one must look again
        }
        return head;
    }

    /** Appends to the ring; the caller has checked that the entry is not before the ring's tail. */
    private void append(QueueEntry task, long deadline, int sequence, long readyAt) {
        if (ringSize == ring.length) {
            growRing(new ReadyQueueRoom(ReadyQueueRoom.doubled(ringSize))); // as in pushLocked
        }
        int i = (ringHead + ringSize++) & (ring.length - 1);
        ring[i] = task;
        ringDeadlines[i] = deadline;
        ringSequences[i] = sequence;
        ringReadyAts[i] = readyAt;
    }

    /** Moves the ring into {@code room} if that is larger and holds it (else leaves it). */
    private void growRing(ReadyQueueRoom room) {
        int n = ring.length;
        if (room.entries.length <= n) {
            return;
        }
        int first = n - ringHead; // from ringHead to the end of the arrays, then from 0
        System.arraycopy(ring, ringHead, room.entries, 0, first);
        System.arraycopy(ring, 0, room.entries, first, ringHead);
        System.arraycopy(ringDeadlines, ringHead, room.deadlines, 0, first);
        System.arraycopy(ringDeadlines, 0, room.deadlines, first, ringHead);
        System.arraycopy(ringSequences, ringHead, room.sequences, 0, first);
        System.arraycopy(ringSequences, 0, room.sequences, first, ringHead);
        System.arraycopy(ringReadyAts, ringHead, room.readyAts, 0, first);
        System.arraycopy(ringReadyAts, 0, room.readyAts, first, ringHead);
        ring = room.entries;
        ringDeadlines = room.deadlines;
        ringSequences = room.sequences;
        ringReadyAts = room.readyAts;
        ringHead = 0;
    }

    /** Moves the heap into {@code room} if that is larger (a larger one holds it: size <= tasks.length). */
    private void growHeap(ReadyQueueRoom room) {
        if (room.entries.length <= tasks.length) {
            return;
        }
        System.arraycopy(tasks, 0, room.entries, 0, size);
        System.arraycopy(deadlines, 0, room.deadlines, 0, size);
        System.arraycopy(sequences, 0, room.sequences, 0, size);
        System.arraycopy(readyAts, 0, room.readyAts, 0, size);
        tasks = room.entries;
        deadlines = room.deadlines;
        sequences = room.sequences;
        readyAts = room.readyAts;
    }

    private int ringTail() {
        return (ringHead + ringSize - 1) & (ring.length - 1);
    }

    /** Whether the head of the queue is the ring's (else the heap's). Needs an entry in either. */
    private boolean headInRing() {
        return ringSize > 0 && (size == 0 || less(ringDeadlines[ringHead], ringSequences[ringHead], deadlines[0], sequences[0]));
    }

    /** The head entry; the queue must not be empty. */
    private QueueEntry head() {
        return headInRing() ? ring[ringHead] : tasks[0];
    }

    /** The head's deadline as copied in; the queue must not be empty. */
    private long headDeadline() {
        return headInRing() ? ringDeadlines[ringHead] : deadlines[0];
    }

    /** The head's sequence as copied in; the queue must not be empty. */
    private int headSequence() {
        return headInRing() ? ringSequences[ringHead] : sequences[0];
    }

    private QueueEntry pollLocked() {
        giveWay.polled();
        if (headInRing()) {
            QueueEntry head = ring[ringHead];
            ring[ringHead] = null;
            ringHead = (ringHead + 1) & (ring.length - 1);
            ringSize--;
            return head;
        }
        if (size == 0) {
            return null;
        }
        QueueEntry head = tasks[0];
        int last = --size;
        QueueEntry moved = tasks[last];
        tasks[last] = null;
        if (last > 0) {
            siftDown(0, moved, deadlines[last], sequences[last], readyAts[last]);
        }
        return head;
    }

    /** Removes the head if its deadline has passed, else returns null. */
    public QueueEntry pollDue() {
        lock.lock();
        try {
            while (!isEmpty() && head().nextDeadline() != headDeadline()) {
                pollLocked(); // a stale copy (see the notes)
            }
            return !isEmpty() && headDeadline() - clock.nanoTime() <= 0 ? pollLocked() : null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a task whose deadline has passed (or, at the head, one within the take-ahead it allows: see the
     * notes, Order): up to {@code nanos} if {@code timed}, else indefinitely. A
     * worker passes its {@code slot}, into which the entry's deadline, readyAt and the clock reading it was
     * found due with are written (see the notes); others pass null.
     *
     * @return the head, or null on timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public QueueEntry take(boolean timed, long nanos, Slot slot) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            for (;;) {
                if (isEmpty()) {
                    if (timed && nanos <= 0L) {
                        return null;
                    }
                    waiting++;
                    if (tick != null && tick.sleeping()) {
                        wakeTickIfDue(clock.nanoTime()); // the clock only if there is a park to end
                    }
                    try {
                        if (!timed) {
                            available.await();
                        } else {
                            nanos = available.awaitNanos(nanos);
                        }
                    } finally {
                        waiting--;
                    }
                    continue;
                }
                boolean inRing = headInRing();
                QueueEntry head = inRing ? ring[ringHead] : tasks[0];
                long deadline = inRing ? ringDeadlines[ringHead] : deadlines[0];
                if (!head.isQueued() || head.nextDeadline() != deadline) {
                    pollLocked(); // cancelled or removed meanwhile, or a stale copy (see the notes): drop it
                    continue;
                }
                long now = clock.nanoTime();
                long delay = deadline - now;
                if (delay <= 0L || delay <= head.takeAheadNanos()) { // the call only for a head not yet due
                    if (slot != null) {
                        slot.deadline = deadline;
                        slot.readyAt = inRing ? ringReadyAts[ringHead] : readyAts[0];
                        slot.takenAt = now;
                        slot.idleWorkers = waiting;
                    }
                    return pollLocked();
                }
                if (timed && nanos <= 0L) {
                    return null;
                }
                waiting++;
                if (leader != null) {
                    try {
                        if (timed) {
                            nanos = available.awaitNanos(nanos);
                        } else {
                            available.await();
                        }
                    } finally {
                        waiting--;
                    }
                    continue;
                }
                Thread self = Thread.currentThread();
                leader = self;
                wakeTickIfDue(now);
                try {
                    long wait = timed ? Math.min(delay, nanos) : delay;
                    long left = available.awaitNanos(wait);
                    if (timed) {
                        nanos -= wait - left;
                    }
                } finally {
                    waiting--;
                    if (leader == self) {
                        leader = null;
                    }
                }
            }
        } finally {
            if (leader == null && !isEmpty()) {
                available.signal(); // pass the wake-up on: more work, or a new leader needed
            }
            lock.unlock();
        }
    }

    /** Calls {@code action} for each entry here (ring and heap), under the lock; the action must not come back here. */
    public void forEach(Consumer<? super QueueEntry> action) {
        lock.lock();
        try {
            for (int i = 0; i < ringSize; i++) {
                action.accept(ring[(ringHead + i) & (ring.length - 1)]);
            }
            for (int i = 0; i < size; i++) {
                action.accept(tasks[i]);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes every entry, handing each to {@code action} in the queue's order (deadline, then sequence),
     * under the lock. Popping rather than sorting a copy: the order is the ring's and the heap's own, with no
     * comparator over fields that other threads may change.
     */
    public void drain(Consumer<? super QueueEntry> action) {
        lock.lock();
        try {
            QueueEntry entry;
            while ((entry = pollLocked()) != null) {
                action.accept(entry);
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean isEmpty() {
        return size == 0 && ringSize == 0;
    }

    /**
     * What {@link #scan} found: the entries still queued here whose deadline has come, the oldest of them,
     * the earliest deadline among the entries still queued that the walk saw, and the idle workers. Owned by
     * its caller (the tick thread's starvation watch, or a statistics call).
     */
    public static final class Overdue {
        /** Queued entries here with deadline at or before the scan's now. */
        public long count;
        /** The least deadline among them (valid if count > 0), and that entry's readyAt and the entry. */
        public long oldestDeadline;
        public long oldestReadyAt;
        public QueueEntry oldest;
        /**
         * Whether the walk saw an entry still queued, due or not, and the least deadline of those: exact but
         * for the heap's part below a node that is not due and left the queue (see scan).
         */
        public boolean any;
        public long earliestDeadline;
        /** Workers waiting in take at the scan. */
        public int idleWorkers;

        private void clear() {
            count = 0;
            oldest = null;
            any = false;
            idleWorkers = 0;
        }

        private void see(QueueEntry entry, long deadline, long readyAt, long now) {
            if (!entry.isQueued() || entry.nextDeadline() != deadline) {
                return; // left the queue, or a stale copy (see the notes): it waits elsewhere, or nowhere
            }
            if (!any || deadline - earliestDeadline < 0) {
                earliestDeadline = deadline;
            }
            any = true;
            if (deadline - now <= 0) {
                if (count++ == 0 || deadline - oldestDeadline < 0) {
                    oldestDeadline = deadline;
                    oldestReadyAt = readyAt;
                    oldest = entry;
                }
            }
        }
    }

    /**
     * Counts the queued entries here whose deadline is at or before {@code now} (monitoring: the statistics
     * and the tick thread's starvation watch). Under the lock, in time proportional to the due entries and
     * the ring's entries that left the queue ahead of its first live one not due: the ring is sorted, so the
     * walk stops at its first entry not due once it has seen a live one; in the heap a node not due has no
     * due entry below it, so the walk stops there once that node is live or a live deadline at or before it
     * was seen (below a node that left the queue, a live entry may still be the earliest not due:
     * Overdue.earliestDeadline, which the starvation watch looks by). So every due entry still queued is
     * counted, and the earliest live deadline is found. An entry that left the queue or is a stale copy is
     * passed over, not removed.
     */
    public void scan(long now, Overdue into) {
        into.clear();
        lock.lock();
        try {
            into.idleWorkers = waiting;
            int mask = ring.length - 1;
            for (int i = 0; i < ringSize; i++) {
                int j = (ringHead + i) & mask;
                into.see(ring[j], ringDeadlines[j], ringReadyAts[j], now);
                if (ringDeadlines[j] - now > 0 && into.any) {
                    break; // sorted: every later entry is later still
                }
            }
            scanHeap(0, now, into);
        } finally {
            lock.unlock();
        }
    }

    /** The heap below index k, pruned where deadlines pass now (iterative: no recursion depth to worry about). */
    private void scanHeap(int k, long now, Overdue into) {
        if (size == 0) {
            return;
        }
        // A heap node's children are 2k+1 and 2k+2; walk the due part, and below not-due nodes that left the
        // queue, depth first with an explicit stack.
        int[] stack = new int[64];
        int top = 0;
        stack[top++] = k;
        while (top > 0) {
            int i = stack[--top];
            QueueEntry task = tasks[i];
            long deadline = deadlines[i];
            into.see(task, deadline, readyAts[i], now);
            if (deadline - now > 0 && ((task.isQueued() && task.nextDeadline() == deadline)
                    || (into.any && into.earliestDeadline - deadline <= 0))) {
                continue; // min-heap: nothing below is due, nor earlier than a live deadline seen
            }
            for (int child = 2 * i + 1; child <= 2 * i + 2 && child < size; child++) {
                if (top == stack.length) {
                    stack = Arrays.copyOf(stack, top * 2);
                }
                stack[top++] = child;
            }
        }
    }

    private void siftUp(int k, QueueEntry task, long deadline, int sequence, long readyAt) {
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (!less(deadline, sequence, deadlines[parent], sequences[parent])) {
                break;
            }
            move(parent, k);
            k = parent;
        }
        set(k, task, deadline, sequence, readyAt);
    }

    private void siftDown(int k, QueueEntry task, long deadline, int sequence, long readyAt) {
        int half = size >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < size && less(deadlines[right], sequences[right], deadlines[child], sequences[child])) {
                child = right;
            }
            if (!less(deadlines[child], sequences[child], deadline, sequence)) {
                break;
            }
            move(child, k);
            k = child;
        }
        set(k, task, deadline, sequence, readyAt);
    }

    private void move(int from, int to) {
        tasks[to] = tasks[from];
        deadlines[to] = deadlines[from];
        sequences[to] = sequences[from];
        readyAts[to] = readyAts[from];
    }

    private void set(int k, QueueEntry task, long deadline, int sequence, long readyAt) {
        tasks[k] = task;
        deadlines[k] = deadline;
        sequences[k] = sequence;
        readyAts[k] = readyAt;
    }

    /**
     * Shows less's tie branches to the JIT's profile; compiles to nothing once C2 inlines it. Equal deadlines
     * are rare but real (two schedules exactly as far apart as the difference of their delays), and C2
     * compiles a branch its profile never saw taken into an uncommon trap: the first tie would deoptimize a
     * worker's freshly compiled code (pushLocked, less), back to slower code until C2 compiles it again, in
     * the middle of a cold JVM's first timers (ReadyQueueTieDeoptTest). Both ways a tie can go, compared here
     * on every push, are in the profile that C1's code collects before C2 compiles; C2 folds the two calls
     * away (the same deadline minus itself). A branch-free less instead slows every sift (ExpiryBenchmark).
     */
    private static void trainTies(long deadline, int sequence) {
        less(deadline, sequence, deadline, sequence + 1);
        less(deadline, sequence + 1, deadline, sequence);
    }

    private static boolean less(long deadlineA, int sequenceA, long deadlineB, int sequenceB) {
        long diff = deadlineA - deadlineB;
        return diff < 0 || (diff == 0 && sequenceA - sequenceB < 0); // sequences wrap around
    }
}
