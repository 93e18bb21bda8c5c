package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.Log;
import io.timewheel.executor.internal.LowBound;
import io.timewheel.executor.internal.NanoClock;
import io.timewheel.executor.internal.Pacer;
import io.timewheel.executor.internal.queue.HandOverBatch;
import io.timewheel.executor.internal.queue.QueueEntry;
import io.timewheel.executor.internal.queue.QueueWheel;
import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.queue.TaskEntry;
import io.timewheel.executor.internal.queue.WheelOwner;
import io.timewheel.executor.jfr.Jfr;
import io.timewheel.wheel.StripedInbox;
import io.timewheel.wheel.TimerEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The paper's "hardware assist": the one thread that owns the wheels of the task queues it serves. It
 * sleeps until the earliest deadline, moves due tasks to their queue's ready queue (which wakes a worker),
 * and never runs user code. Producer-side methods: any thread; the rest: this thread only.
 */
public final class TickThread implements Runnable, WheelOwner {
    /*
     * Implementation notes
     *
     * Ownership. Each served TaskQueue has one TimerWheel, in the queue's QueueWheel (this thread's room for
     * it), created and touched by this thread alone (or, once a dedicated tick thread has ended, by a
     * Snapshot's waiting caller: Snapshot.await). Beside that room it touches, of an executor: the queue's
     * HandOffBounds (earliest, pendingLow, terminated: TaskQueue's notes), each entry's queued state
     * (QueueEntry: tryFile, tryUnfile, tryRemove), the ready queue under its lock (a hand-over's splice, a
     * Snapshot), and what its watches read (Watching, below). The queue room below never names this class:
     * it reaches it as its WheelOwner, and a worker about to block in a ready queue reaches it as that queue's
     * Waker (which WheelOwner extends); from above, an executor picks it (shared or dedicated) and a watch
     * reaches it through Watch and wakeBy. Other threads reach a wheel only through the inbox, a StripedInbox
     * (a stack per stripe of producer threads, so producers share no cache line; a thread takes back the entry
     * it offered last if that entry leaves the queue before this thread detached it): entries to file, and
     * Commands (Unlink, Refile, a SnapshotRequest, StartWatch).
     *
     * The inbox is unordered, so nothing here rests on the order entries are read in:
     *   - equal deadlines: each entry carries the sequence its queue gave it at creation (TaskQueue's notes),
     *     by which the wheel and the ready queue order ties;
     *   - a command read before its entry: Unlink is sent for an entry this thread has filed, or for a
     *     DecoratedEntry, whose filing is not recorded; read before its entry it finds it in no wheel and does
     *     nothing, and the entry, no longer queued, is dropped when read (tryFile fails). Refile of an entry
     *     still in the inbox does nothing: the entry is filed, with its new deadline, when read
     *     (TimerEntry.isInInbox);
     *   - a command someone waits for (urgent: a SnapshotRequest, TickProbe.sync's) runs only after a
     *     detachAll that started after it was read, and after everything detached was filed: it sees every
     *     entry offered before it (a Snapshot's last step is in Snapshot's notes);
     *   - handing over early, and producers skipping this thread: an entry B may have been scheduled after
     *     an entry A of the same queue with an earlier or equal deadline that this thread has not read yet
     *     (A's stripe was detached just before A was offered). B must be neither handed over nor pushed
     *     straight to the ready queue while A is unread, or B could run first. Each queue's pendingLow
     *     (HandOffBounds; TaskQueue's notes: reset by this thread right before each detachAll, lowered by the
     *     queue's producers after each offer) bounds both the hand-over and the queue's earliest bound.
     *
     * Loop. For each served queue, note its earliest bound (QueueWheel.beginDrain); reset the pendingLows (the
     * queues' and the gate's) and detach every stripe; file everything detached, then run the urgent commands
     * read; read the clock once; for each served queue, hand over every entry due by now +
     * ReadyQueue.HORIZON_NANOS and before the queue's pendingLow, publish the queue's earliest bound
     * (QueueWheel.expire), and stop serving it once its executor has terminated and its wheel is empty; run
     * the watches whose time has come; park until MARGIN_NANOS before the earliest next deadline or look.
     * A detach takes what has arrived by then and what arrives while it is filed waits for the next loop, so
     * under a flood expiry still runs between chunks; and when expiry runs, every entry detached has been
     * filed: none waits read but unfiled. The park time is reckoned from a fresh clock reading (park): the
     * loop's is as old as the expiry step, which a busy CPU or a stopped process can make long.
     *
     * Hand-over. The workers own the near term (ReadyQueue): this thread hands an entry over when it is due
     * within HORIZON_NANOS (134 ms), and looks again when the earliest entry it still holds is MARGIN_NANOS
     * (the horizon less a stride, 130 ms) away, or up to DEFER_NANOS after that (Deferred, below). So every
     * entry reaches the workers at least MARGIN_NANOS - DEFER_NANOS (125.8 ms) before its deadline: a wake-up
     * of this thread late by less than that (a busy CPU's time slice, a GC pause, a stopped process) makes no
     * task late, and the workers, not this thread, make the last, exact wait, as on STPE. Each hand-over moves
     * about STRIDE_NANOS (4.2 ms) of deadlines: having handed over up to now + HORIZON_NANOS, it next wakes
     * MARGIN_NANOS before the first deadline beyond that, once the horizon has moved a stride past it. The
     * stride is short because a hand-over is a burst of this thread (its entries are cold by then) on a CPU a
     * worker may be waiting for, and the timers that fall due during a long burst start late; a margin of a
     * quarter of the horizon (a stride of 101 ms of deadlines instead of 4.2) makes each hand-over of a dense
     * stream some 24 times longer, and loses in `lateness`. The cost: timers that fall due over a long span
     * wake this thread once per stride while they do; a lone far timer, or a burst narrower than a stride,
     * costs one wake-up; a steady stream of schedules wakes it every DRAIN_NANOS or two anyway (ParkGate). With
     * nothing pending it parks with no timeout: no periodic ticking, no wake-up while idle (`idle`).
     *
     * Failures. An exception anywhere is reported (Log.tickFailure) and the loop goes on; an entry being
     * handed over when it happened is put back in its wheel (HandOverBatch), so none is lost. An interrupt
     * from outside is cleared: it would make every park return at once.
     *
     * Watching (opt-in, per executor: a Watch, which StarvationWatch implements). After the expiry step the
     * loop asks each watch to look if its time has come and when it wants to look next, and wakes for the
     * earliest of those times as for a deadline (given to ParkGate as that time plus MARGIN_NANOS, since
     * ParkGate wakes MARGIN_NANOS before what it is given). A watch that wants no look (an answer more than
     * NEVER_AHEAD away) costs no wake-up: the starvation watch answers so while nothing is queued in its ready
     * queue, and a push there wakes this thread (wakeBy, as an offer would) if the look it wants comes before
     * this thread would wake. A look runs here, so it must not block or run user code: the starvation watch scans the
     * ready queue under its lock, reads the pool's worker count and run state, may commit a JFR event, and
     * hands its log call to the common pool. A watch whose executor has terminated is dropped. An executor
     * that watches nothing costs nothing here.
     *
     * Deferred wake-ups. This thread's own timer for a long park (over DRAIN_NANOS: between hand-overs, or
     * before a watch's look) fires DEFER_NANOS (one stride) after the time it means to look (ParkGate's
     * wakeAt), and a worker of a queue it serves that is about to block in its ready queue (nothing due for
     * it) wakes it as soon as that time has passed (ReadyQueue.take -> Waker.wakeIfDue -> ParkGate.wakeIfDue:
     * one CAS to AWAKE, then an unpark). So while the workers are busy a hand-over waits, up to a stride, for
     * one of them to block, and takes the CPU that worker leaves instead of one a worker runs on: on Linux a
     * thread that mostly sleeps preempts the running one when it wakes, and the worker would wait out the
     * hand-over while its own timers fell due (`lateness`, `punctuality warm`). The kernel then tends to run
     * this thread on the CPU of the worker that woke it, which that worker soon needs back in a dense stream
     * of timers: hence Pacing, below. A short park is not deferred, so the inbox is still read within
     * DRAIN_NANOS, and a message still wakes a long one (ParkGate: PARKED_LAZY). The price: a deferred
     * hand-over covers up to a stride more deadlines, and a watch looks up to a stride late while every
     * worker is busy. Producers still decide by wakeAt. A worker's wake-up is only one more unpark: whoever
     * wakes this thread, the loop reads the inbox and the clock afresh (jcstress ParkGateWorkerWake).
     *
     * Priority (opt-in: the system property timewheel.tickThreadPriority, 1 to 10, read when a tick thread is
     * created; by default Thread.NORM_PRIORITY, a pool thread's). This thread's work is never urgent (it has
     * the margin), but at the workers' priority its wake-ups on Linux take the CPU of a busy worker, which
     * then waits out this thread's stint; below theirs, the worker keeps its CPU (`lateness`, where neither a
     * yield after each wake-up nor pinning this thread to one CPU helps). Not the default: a JVM on
     * Linux applies Java priorities only with -XX:ThreadPriorityPolicy=1 (which maps Thread.MIN_PRIORITY to
     * nice 4), and where it always applies them (Windows) a lower-priority thread can wait seconds for a CPU
     * that normal-priority threads keep busy, longer than the margin.
     *
     * Pacing (Pacer). During a long stint (a hand-over, a flood to file) this thread yields its CPU every
     * Pacer.PACE_NANOS (2^14 ns = 16.4 us) of work, within a budget of yield time per loop: a worker woken for
     * its task on the CPU this thread holds (where the kernel put it, beside the worker that woke it:
     * Deferred) waits about that long, not the whole stint, and the budget keeps a hand-over within the
     * margin behind CPU-bound threads. The wheels it serves run the pacer inside their advances
     * (TimerWheel.pacer, set when it starts serving a queue); the inbox's and the hand-over's loops step it
     * per entry (Pacer.step).
     *
     * Late wake-ups (JFR TickThreadLate). After a timed park it did not leave early, if JFR is initialized in
     * this JVM (Jfr.recording), it reads the clock once more and reports a wake-up later than asked (deferral
     * included) by more than LATE_WAKE_NANOS.
     *
     * Waking (ParkGate's notes: the protocol and its four states, AWAKE, PARKED_SHORT, PARKED_LONG and
     * PARKED_LAZY). It parks until MARGIN_NANOS before the earliest deadline it holds or has been offered and
     * not read (the gate's pendingLow), a long park up to DEFER_NANOS past that unless a blocking worker
     * wakes it first, or indefinitely with nothing pending. A producer unparks it only if its deadline needs
     * it earlier, or if it has been parked DRAIN_NANOS or longer and work keeps coming; an urgent command
     * always wakes it; a message that only frees memory (an Unlink, or a cancel of an entry still in the
     * inbox that could not be retracted) is read within DRAIN_NANOS of its offer. Volatile handshakes in
     * Dekker's pattern make sure no offer is missed (jcstress ParkGateLostWakeUp, ParkGateUrgentCommand,
     * ParkGateMessage).
     */

    /**
     * How long a message, or a stream of offers, waits at most to be read by a parked tick thread; a park this
     * long or shorter is short (ParkGate: PARKED_SHORT) and never deferred: 2^20 ns = 1.05 ms.
     */
    static final long DRAIN_NANOS = 1L << 20;
    /**
     * About how much of the deadlines ahead one hand-over moves: 2^22 ns = 4.2 ms, one tick of the executor's
     * default wheel (see the notes: Hand-over).
     */
    static final long STRIDE_NANOS = 1L << 22;
    /**
     * How far ahead of the earliest deadline it holds this thread wakes to hand entries over: the horizon
     * less a stride, 2^27 - 2^22 ns = 130 ms (see the notes: Hand-over). Public for the tests and jcstress.
     */
    public static final long MARGIN_NANOS = ReadyQueue.HORIZON_NANOS - STRIDE_NANOS;
    /**
     * How long after the time it meant to look for a hand-over this thread waits for a worker to block before
     * it wakes on its own: one stride, 2^22 ns = 4.2 ms (see the notes: Deferred wake-ups).
     */
    static final long DEFER_NANOS = STRIDE_NANOS;
    /** The system property that sets the tick threads' priority (see the notes: Priority). Immutable. */
    public static final String PRIORITY_PROPERTY = "timewheel.tickThreadPriority";
    /**
     * A wake-up later than asked by more than this is reported (JFR TickThreadLate): 2^21 ns = 2.1 ms. A late
     * wake-up makes the tasks it hands over late only past MARGIN_NANOS, but it delays the drain of the inbox
     * and the starvation watch, and it shows a CPU too busy for this thread.
     */
    static final long LATE_WAKE_NANOS = 1L << 21;

    /**
     * A watch's look more than this far ahead (2^61 ns, 73 years) means none (Watch.look): a watch that wants
     * none answers a time 2^62 ns ahead, which stays past this bound for 73 years and keeps every difference
     * of nanoTime values in range.
     */
    public static final long NEVER_AHEAD = Long.MAX_VALUE >> 2;

    /**
     * ParkGate's states that the loop and sleeping() ask about, public for the tests, which see the other two
     * (PARKED_SHORT, PARKED_LAZY) only as "parked" (TickProbe.parkState).
     */
    public static final int AWAKE = ParkGate.AWAKE;
    public static final int PARKED_LONG = ParkGate.PARKED_LONG;

    /** NanoClock.SYSTEM, or a test's clock (the builder's testSeam, with a TickProbe). Immutable. */
    final NanoClock clock;
    /** Producers offer (any thread); this thread alone detaches and polls (StripedInbox). Immutable reference. */
    private final StripedInbox inbox = new StripedInbox();
    /**
     * When this thread sleeps and when producers and workers wake it (ParkGate). Immutable reference; TickProbe
     * reads its state and wakeAt for the tests.
     */
    final ParkGate gate;
    /** The thread that runs the loop. Immutable. */
    private final Thread thread;
    /** Whether this thread serves one executor only, and ends once that executor has terminated. Immutable. */
    private final boolean dedicated;
    /** A dedicated thread's executor has terminated. Written by any thread (false to true), read by this one. */
    private volatile boolean ownerTerminated;
    /** The tests' seam into this thread (TickProbe), or null: every production tick thread. Immutable. */
    private final Probe probe;

    /** The queues with a wheel: this thread's rooms for them. Tick thread only. */
    final List<QueueWheel> served = new ArrayList<>();
    /** Urgent commands read and not yet run (drainInbox). Tick thread only. */
    private final List<Command> urgent = new ArrayList<>();
    /** The scratch in which entries are gathered for a hand-over, outside the ready queue's lock. Tick thread only. */
    private final HandOverBatch handOver = new HandOverBatch();
    /**
     * Gives this thread's CPU away during long stints (see the notes: Pacing). Tick thread only (the tests
     * read its yields on this thread, through TickProbe.sync).
     */
    final Pacer pacer = new Pacer();
    /** The watches of the executors that asked for one (see the notes: Watching). Tick thread only. */
    private final List<Watch> watched = new ArrayList<>();

    private TickThread(NanoClock clock, String name, boolean dedicated, Probe probe) {
        this.clock = clock;
        this.dedicated = dedicated;
        this.probe = probe;
        this.gate = new ParkGate(MARGIN_NANOS, DRAIN_NANOS, clock.nanoTime());
        this.thread = new Thread(null, this, name, 0, false);
        thread.setDaemon(true);
        thread.setContextClassLoader(null); // runs no user code; must not pin an application's class loader
        int priority = priorityFromProperty();
        if (priority != Thread.NORM_PRIORITY) {
            thread.setPriority(priority); // opt-in (see the notes: Priority)
        }
        if (probe != null) {
            probe.attach(this);
        }
        thread.start();
    }

    /**
     * The priority a new tick thread gets: {@link #PRIORITY_PROPERTY} if it is set to a priority (1 to 10),
     * else {@link Thread#NORM_PRIORITY}, with one warning per JVM if it is set to anything else.
     */
    static int priorityFromProperty() {
        String value = System.getProperty(PRIORITY_PROPERTY);
        if (value != null) {
            try {
                int priority = Integer.parseInt(value.trim());
                if (priority >= Thread.MIN_PRIORITY && priority <= Thread.MAX_PRIORITY) {
                    return priority;
                }
            } catch (NumberFormatException notANumber) {
                // reported below
            }
            Log.warnOnce(PRIORITY_PROPERTY + "=" + value, "ignoring " + PRIORITY_PROPERTY + "=" + value
                    + ": not a thread priority from " + Thread.MIN_PRIORITY + " to " + Thread.MAX_PRIORITY);
        }
        return Thread.NORM_PRIORITY;
    }

    /** The JVM-wide tick thread, started on first use. */
    public static TickThread shared() {
        return Shared.INSTANCE;
    }

    /**
     * A tick thread of one executor's own, named after {@code owner}'s identity hash, which ends after that
     * executor has terminated; {@code probe}: the tests' seam into it (TickProbe), or null.
     */
    public static TickThread dedicated(Object owner, NanoClock clock, Probe probe) {
        return new TickThread(clock, "timewheel-tick-" + Integer.toHexString(System.identityHashCode(owner)), true,
                probe);
    }

    private static final class Shared {
        static final TickThread INSTANCE = new TickThread(NanoClock.SYSTEM, "timewheel-tick", false, null);
    }

    /** The thread. Any thread. */
    public Thread thread() {
        return thread;
    }

    // ---------------------------------------------------------------------------------------------
    // Producer side (WheelOwner): any thread

    @Override
    public void offer(QueueEntry task, long deadline, long now) {
        inbox.offer(task);
        offered(deadline, now);
    }

    @Override
    public void refile(QueueWheel room, QueueEntry task, long deadline) {
        inbox.offer(new Refile(room, task));
        offered(deadline, clock.nanoTime());
    }

    /** After an offer with this deadline: counts it in pendingLow, and wakes this thread if it must (ParkGate). */
    private void offered(long deadline, long now) {
        gate.lowerPending(deadline);
        if (gate.signal(deadline, now)) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void retract(QueueEntry task) {
        if (!inbox.retract(task) && task.isInInbox()) {
            // still in the inbox, below a later offer: the memory it holds goes when this thread reads it,
            // which a message makes happen within DRAIN_NANOS (ParkGate: PARKED_LAZY). A racy read of its
            // location: at worst a spare wake-up, or (a stale value) the wait for this thread's next look.
            if (gate.signal(Long.MIN_VALUE, clock.nanoTime())) {
                LockSupport.unpark(thread);
            }
        }
    }

    @Override
    public void unlink(QueueWheel room, QueueEntry entry) {
        command(new Unlink(room, entry));
    }

    @Override
    public List<QueueEntry> collect(QueueWheel room, boolean take) {
        Snapshot snapshot = new Snapshot(room, take);
        command(new SnapshotRequest(snapshot));
        return snapshot.await(thread, clock);
    }

    /**
     * Hands a command to the tick thread. An urgent one (someone waits for the answer) always wakes it; any
     * other (nobody waits: an Unlink, a StartWatch) is read within DRAIN_NANOS, and costs at most one loop per
     * DRAIN_NANOS however many come (ParkGate: PARKED_LONG, PARKED_LAZY).
     */
    public void command(Command command) {
        inbox.offer(command);
        if (command.urgent ? gate.urgent() : gate.signal(Long.MIN_VALUE, clock.nanoTime())) {
            LockSupport.unpark(thread);
        }
    }

    /** Starts running a watch after each expiry step (see the notes: Watching). Any thread. */
    public void watch(Watch watch) {
        command(new StartWatch(watch));
    }

    /**
     * A watch wants to look by {@code time}: wakes this thread if it would sleep past it, as an offer due at
     * {@code time + MARGIN_NANOS} would (see the notes: Watching). Any thread, after the watch has recorded
     * the time where its next look() answers it.
     */
    public void wakeBy(long time) {
        offered(time + MARGIN_NANOS, clock.nanoTime());
    }

    @Override
    public void queueTerminated() {
        if (dedicated) {
            ownerTerminated = true;
        }
        LockSupport.unpark(thread);
    }

    @Override
    public boolean sleeping() {
        return gate.state() != AWAKE;
    }

    @Override
    public void wakeIfDue(long now) {
        if (gate.wakeIfDue(now)) {
            LockSupport.unpark(thread);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The loop: tick thread only

    @Override
    public void run() {
        for (;;) {
            try {
                // An interrupt from outside means nothing to this thread; left set, it would make every
                // park return at once and the loop spin.
                Thread.interrupted();
                if (probe != null) {
                    probe.loopStarted();
                }
                pacer.begin();
                for (int i = 0; i < served.size(); i++) {
                    served.get(i).beginDrain();
                }
                gate.beginLoop(); // before detachAll: an urgent command offered since is read now or seen at park
                drainInbox();
                long now = clock.nanoTime();
                long next = watch(now, expire(now));
                if (probe != null) {
                    probe.afterExpiry();
                }
                if (inbox.hasDetached()) {
                    continue; // more is waiting: read it before sleeping
                }
                if (dedicated && ownerTerminated && served.isEmpty() && watched.isEmpty() && inbox.isEmpty()) {
                    return;
                }
                park(next);
            } catch (Throwable t) {
                Log.tickFailure("tick loop", t);
            }
        }
    }

    /**
     * Detaches the inbox and files everything detached; then runs the urgent commands read, each after a
     * detachAll that started after it was read and after everything detached was filed, so that it sees
     * every entry offered before it.
     */
    private void drainInbox() {
        detach();
        TimerEntry entry;
        while ((entry = inbox.poll()) != null) {
            read(entry);
            pacer.step();
        }
        while (!urgent.isEmpty()) {
            Command[] commands = urgent.toArray(new Command[0]);
            urgent.clear();
            detach();
            while ((entry = inbox.poll()) != null) {
                read(entry);
                pacer.step();
            }
            for (Command command : commands) {
                try {
                    command.run(this);
                } catch (Throwable t) {
                    Log.tickFailure("command " + command, t);
                }
            }
        }
    }

    /**
     * Detaches the inbox and reads (files) everything detached, as the loop does, then passes each task entry
     * read to {@code read}: a Snapshot's last step, for the entries offered while it collected (Snapshot).
     */
    void detachAndRead(Consumer<TaskEntry> read) {
        detach();
        List<TaskEntry> entries = new ArrayList<>();
        TimerEntry entry;
        while ((entry = inbox.poll()) != null) {
            read(entry);
            if (entry instanceof TaskEntry) {
                entries.add((TaskEntry) entry);
            }
        }
        for (int i = 0; i < entries.size(); i++) {
            read.accept(entries.get(i));
        }
    }

    /**
     * Resets the pendingLows (the served queues' and the gate's), then detaches every stripe: in this order, so
     * that an offer the detach misses has lowered a pendingLow after its reset (TaskQueue's and ParkGate's notes).
     */
    private void detach() {
        long reset = LowBound.resetValue(clock.nanoTime());
        for (int i = 0; i < served.size(); i++) {
            served.get(i).resetPending(reset);
        }
        gate.reset(reset);
        inbox.detachAll();
    }

    private void read(TimerEntry entry) {
        try {
            if (entry instanceof TaskEntry) {
                QueueWheel room = ((TaskEntry) entry).queue.wheel;
                serve(room, room.file((TaskEntry) entry));
            } else if (((Command) entry).urgent) {
                urgent.add((Command) entry);
            } else {
                ((Command) entry).run(this);
            }
        } catch (Throwable t) {
            Log.tickFailure("inbox entry " + entry, t);
        }
    }

    /** Starts serving a queue that just got its wheel. */
    private void serve(QueueWheel queue, boolean gotWheel) {
        if (gotWheel) {
            queue.pace(pacer);
            served.add(queue);
        }
    }

    /**
     * Advances every wheel to now, hands over what is due (before each queue's hand-over limit: see
     * TaskQueue), and returns the earliest next deadline.
     */
    private long expire(long now) {
        long next = now + Long.MAX_VALUE;
        for (int i = served.size() - 1; i >= 0; i--) {
            QueueWheel queue = served.get(i);
            long candidate = queue.expire(now, handOver);
            if (candidate - now == Long.MAX_VALUE) {
                if (queue.retire()) {
                    served.remove(i);
                }
            } else if (candidate - next < 0) {
                next = candidate;
            }
        }
        return next;
    }

    /**
     * Runs the watches whose time has come; returns {@code next} lowered so that the thread wakes when the
     * earliest watch wants to look (see the notes: Watching).
     */
    private long watch(long now, long next) {
        for (int i = watched.size() - 1; i >= 0; i--) {
            Watch watch = watched.get(i);
            try {
                if (watch.retired()) {
                    watched.remove(i);
                    continue;
                }
                long look = watch.look(now);
                if (look - now > NEVER_AHEAD) {
                    continue; // it wants no look until something tells it (see Watch)
                }
                long asDeadline = look + MARGIN_NANOS; // ParkGate wakes MARGIN_NANOS before it
                if (asDeadline - next < 0) {
                    next = asDeadline;
                }
            } catch (Throwable t) {
                Log.tickFailure("watch " + watch, t);
            }
        }
        return next;
    }

    /**
     * Parks until MARGIN_NANOS before {@code next} (or a producer's wake-up). The park time is relative, so
     * it is reckoned from a clock reading taken here, not the loop's, and what prepare took is subtracted
     * right before the park: the expiry step can take milliseconds on a busy CPU, prepare too the first time
     * (VarHandle linkage), and the whole process can be stopped (SIGSTOP) anywhere in between; a park
     * reckoned from an earlier reading would sleep that much past its wake-up time (tck's SuspendedJvmIT).
     * The window left is the few instructions before the park, as for any relative wait (STPE's workers
     * have the same).
     */
    private void park(long next) {
        long now = clock.nanoTime();
        long delay = gate.prepare(now, next);
        if (delay <= 0) {
            return; // something was offered meanwhile: look again now
        }
        // offered after the detach by producers that found this thread awake (a message has no deadline for
        // prepare to see): read it by parkedAt + DRAIN_NANOS, as if it came while parked (ParkGate)
        boolean lazy = gate.state() == PARKED_LONG && !inbox.isEmpty() && gate.lazy();
        // what is left of the delay after prepare: the first parks of a fresh JVM link its VarHandles
        // (milliseconds), and a process stopped meanwhile must not sleep the whole delay after it resumes
        long left = delay == ParkGate.INDEFINITELY ? delay : delay - (clock.nanoTime() - now);
        if (probe != null) {
            probe.parking(left);
        }
        if (!lazy && left == ParkGate.INDEFINITELY) {
            LockSupport.park(this);
        } else if (!lazy) {
            // a long park's own wake-up waits up to DEFER_NANOS more for a worker to block (see the notes)
            long deferred = delay > DRAIN_NANOS ? DEFER_NANOS : 0L;
            if (left > 0) {
                LockSupport.parkNanos(this, left + deferred);
            }
            if (Jfr.recording()) {
                long late = clock.nanoTime() - (now + delay + deferred);
                if (late > LATE_WAKE_NANOS) {
                    Jfr.tickThreadLate(thread.getName(), delay, late);
                }
            }
        }
        // unparked for a message that only frees memory: park on until parkedAt + DRAIN_NANOS (ParkGate)
        for (long again; (again = gate.reparkLazy(clock.nanoTime())) > 0; ) {
            LockSupport.parkNanos(this, again);
        }
        gate.awake();
    }

    // ---------------------------------------------------------------------------------------------
    // Watches and commands

    /**
     * Something that looks at an executor on this thread, after an expiry step, at times it chooses (the
     * starvation warning). It never blocks and runs no user code.
     */
    public interface Watch {
        /** Whether its executor has terminated: the thread drops it. */
        boolean retired();

        /**
         * Looks if its time has come ({@code now}); returns when it wants to look next, or a time more than
         * {@link #NEVER_AHEAD} ahead of {@code now} for none (it wakes this thread itself when it wants one:
         * wakeBy).
         */
        long look(long now);
    }

    /** A request for the tick thread, carried through the inbox. */
    public abstract static class Command extends TimerEntry {
        /** Whether the tick thread should look at once (someone waits for the answer). */
        final boolean urgent;

        protected Command(boolean urgent) {
            this.urgent = urgent;
        }

        /**
         * Runs on the tick thread: an urgent command after everything offered before it was read and filed; any
         * other when it is read (the inbox is unordered: an entry another thread offered before it may still
         * be unread).
         */
        protected abstract void run(TickThread tick);
    }

    /**
     * The tests' seam into this thread (TickProbe implements it; given through the executor builder's
     * testSeam): told when a loop starts, when it parks and after each expiry step. Tick thread only, but
     * attach (the constructor's thread, before the thread starts).
     */
    public interface Probe {
        void attach(TickThread tick);

        void loopStarted();

        void parking(long delay);

        void afterExpiry();
    }

    /**
     * Answers a Snapshot. Urgent, so it runs after everything offered before it was read and filed; it
     * collects, then reads the inbox once more for what was offered meanwhile (Snapshot's notes).
     */
    private static final class SnapshotRequest extends Command {
        private final Snapshot snapshot;

        SnapshotRequest(Snapshot snapshot) {
            super(true);
            this.snapshot = snapshot;
        }

        @Override
        protected void run(TickThread tick) {
            try {
                snapshot.collect(tick.clock.nanoTime());
                tick.detachAndRead(snapshot::read);
            } finally {
                snapshot.done();
            }
        }
    }

    /** Drops an entry that left the queue from its wheel, so its memory does not wait for its deadline. */
    private static final class Unlink extends Command {
        private final QueueWheel room;
        private final QueueEntry entry;

        Unlink(QueueWheel room, QueueEntry entry) {
            super(false);
            this.room = room;
            this.entry = entry;
        }

        @Override
        protected void run(TickThread tick) {
            room.unlink(entry);
        }
    }

    /** Starts a watch (see the notes: Watching). */
    private static final class StartWatch extends Command {
        private final Watch watch;

        StartWatch(Watch watch) {
            super(false);
            this.watch = watch;
        }

        @Override
        protected void run(TickThread tick) {
            tick.watched.add(watch);
        }
    }

    /**
     * Files a re-armed periodic entry again, wherever it is now: a periodic task someone ran directly, not
     * through a worker, which this thread may still hold at its old time (TaskQueue.readd).
     */
    private static final class Refile extends Command {
        private final QueueWheel room;
        private final QueueEntry entry;

        Refile(QueueWheel room, QueueEntry entry) {
            super(false);
            this.room = room;
            this.entry = entry;
        }

        @Override
        protected void run(TickThread tick) {
            tick.serve(room, room.refile(entry));
        }
    }
}
