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
 * sleeps until the earliest deadline, moves due tasks to their queue's ready heap (which wakes a worker),
 * and never runs user code. Producer-side methods: any thread; the rest: this thread only.
 */
public final class TickThread implements Runnable, WheelOwner {
    /*
     * Implementation notes
     *
     * Ownership. Each served TaskQueue has one TimerWheel, created and touched only by this thread, in the
     * queue's QueueWheel (this thread's room for it); of an executor it touches nothing else but the queue's
     * protocol fields (TaskQueue's notes) and, to hand entries over, its ready queue. Other threads reach
     * a wheel only through the inbox (a StripedInbox: a stack per stripe of producer threads, so that
     * producers share no cache line; a thread takes back the entry it offered last if it leaves the queue
     * before this thread detached it): entries to file, and Commands (unlink an entry, re-file a re-armed
     * periodic task, collect a queue's entries).
     *
     * The inbox is unordered, so nothing here rests on the order entries are read in:
     *   - equal deadlines: entries carry the sequence their queue gave them at creation (TaskQueue), which
     *     the wheel and the ready heap order by;
     *   - a command about an entry read before the entry: Unlink is sent for an entry this thread has filed,
     *     or for a DecoratedEntry, whose filing is not recorded: an Unlink read before its entry finds it in no
     *     wheel and does nothing, and the entry, no longer queued, is dropped when read (tryFile fails);
     *     Refile of an entry still in the inbox does nothing (it is filed, with its new deadline, when read:
     *     TimerEntry.isInInbox); Snapshot and the tests' Sync (urgent) are answered only after a detachAll
     *     that started after they were read, and after everything detached was filed: so they see every
     *     entry offered before them. A Snapshot then detaches once more and adds the entries of its queue
     *     read then (still queued): an entry offered while it collected may have been scheduled before one
     *     it found gone (schedule Y, then remove X: at every instant X or Y is queued), and a snapshot
     *     holding neither would match no instant (jcstress SnapshotVsProducer);
     *   - handing over early, and producers skipping this thread: an entry B may have been scheduled after
     *     an entry A of the same queue with an earlier or equal deadline that this thread has not read yet
     *     (A's stripe was detached just before A was offered). B must neither be handed over nor pushed
     *     straight to the ready heap while A is unread, or B could run first. Each queue keeps a pendingLow
     *     for that (TaskQueue's notes: reset by this thread right before each detachAll, lowered by its
     *     producers after each offer); it bounds both the hand-over and the queue's earliest bound.
     *
     * Loop. for each served queue, note its earliest bound (QueueWheel.beginDrain); reset the pendingLows (the
     * queues' and its own) and detach every stripe; file everything detached (a flood is read in chunks of
     * what arrived during the previous loop, so expiry still runs between them; and when expiry runs, every
     * entry detached has been filed, so no entry waits read but unfiled); read the clock once;
     * for each served queue, hand every entry due by now + ReadyQueue.HORIZON_NANOS and before the queue's
     * hand-over limit to its ready heap and publish the queue's earliest bound (QueueWheel.expire), and stop
     * serving a queue whose executor has terminated and whose wheel is empty; park until MARGIN_NANOS before
     * the earliest next deadline, for a time reckoned from a fresh clock reading (park: the loop's reading is
     * as old as the expiry step, which a busy CPU or a stopped process can make long).
     *
     * Hand-over. The workers own the near term (ReadyQueue): this thread hands an entry over when it is due
     * within HORIZON_NANOS (134 ms), and looks again when the earliest entry it still holds is MARGIN_NANOS
     * (HORIZON_NANOS - STRIDE_NANOS, 130 ms) away, or up to DEFER_NANOS after that (below: Deferred). So every
     * entry reaches the workers at least MARGIN_NANOS - DEFER_NANOS (125.8 ms) before its deadline: a wake-up
     * of this thread that is late by less than that (a busy CPU's time slice, a GC pause, a stopped process)
     * makes no task late, and the workers, not this thread, decide when a task
     * starts (the exact wait is theirs, as on STPE). And each hand-over moves about STRIDE_NANOS (4.2 ms) of
     * deadlines: after handing over up to now + HORIZON it next wakes MARGIN before the first deadline beyond
     * that, i.e. once the horizon has moved a stride past it. The work per hand-over (~100-400 ns per entry
     * in situ: the entries are cold by then) is a burst of this thread on a CPU that a worker may be waiting
     * for, so the stride keeps each burst short: at 200 far timers falling due per ms a hand-over is ~800
     * entries, a fraction of a ms. Until 2026-11-26 the margin was a quarter of the horizon (a stride of
     * 101 ms, ~20,000 entries of that stream per hand-over, 3-11 ms of this thread's CPU each): in `lateness`
     * (100k timers of 1-500 ms) the timers due during those hand-overs were the late ones; with the 4.2 ms
     * stride the median per-round p99 against STPE's in the same JVMs went from 3.8x to 2.3x on JDK 17 and
     * from 2.3x to 0.94x on JDK 25 (bench/results/jdk17/stride-compare.txt: 15 rounds each). The cost: timers scheduled at once that then fall due over
     * a long span wake this thread once per stride while they do (~240 times a second) instead of once per
     * 101 ms; a lone far timer, or a burst narrower than a stride, still costs one wake-up; a steady stream of
     * schedules costs the same as before, since the drain rule below already wakes it every 1-2 ms (500
     * wake-ups a second at 1,000 timers a second of 1 s, with either margin: bench/probes/TickWakeups.java,
     * bench/results/jdk17/stride-compare.txt). With nothing pending it parks with no timeout: no periodic ticking,
     * zero wake-ups while idle. An exception anywhere is reported through System.Logger and the loop goes
     * on; an entry being handed over when it happened is put back in its wheel, so none is lost. An
     * interrupt from outside is cleared (it would make every park return at once).
     *
     * Watching (opt-in, per executor: StarvationWatch). After the expiry step the loop asks each watched
     * executor's watch when it wants to look next (it looks if its time has come) and wakes for the earliest
     * of those times as for a deadline (passed to ParkGate as that time plus MARGIN_NANOS, since ParkGate wakes
     * MARGIN_NANOS before what it is given). An executor that watches nothing costs nothing here.
     *
     * Deferred (2026-11-27). Its own timed wake-up for a hand-over comes DEFER_NANOS (one stride, 4.2 ms)
     * after the time it means to look (ParkGate's wakeAt); a worker of a queue it serves that is about to block
     * in its ready queue (nothing due for it) wakes it as soon as that time has passed (ReadyQueue.take ->
     * wakeIfDue -> ParkGate.wakeIfDue: one CAS to AWAKE, then unpark). So while workers are busy the hand-over
     * waits for one of them to block, up to a stride, instead of taking the CPU from a running worker: on Linux
     * a thread that mostly sleeps preempts the running one when it wakes (Priority, below), and the worker
     * waited out the hand-over (~0.1-0.4 ms) while its timers fell due. (The kernel then runs this thread on
     * the CPU of the worker that woke it, which that worker needs back within microseconds in a dense stream
     * of timers: Pacing, below.) In `lateness`'s shape
     * (100k timers of 1-500 ms), the median per-round p99 against STPE's in the same JVMs went from 1.42x to
     * 1.10x on JDK 25 and from 1.87x to 1.35x on JDK 17 (`punctuality warm`, 5 JVMs x 23 rounds per build,
     * builds alternating; a quieter hour's probe runs: 1.24x to 0.94x; bench/results/jdk25/tick-priority.txt).
     * The opt-in priority below does more where it applies. Only a long park (over DRAIN_NANOS: between
     * hand-overs, or before a watch's look) is deferred, so a short one still reads the inbox within
     * DRAIN_NANOS, and a message still wakes a long one (PARKED_LAZY). A deferred hand-over covers up to a
     * stride more deadlines (everything due by now + HORIZON_NANOS); a starvation watch looks up to a stride
     * later while every worker is busy. Producers still wake it by wakeAt, as before. A worker's wake-up is
     * only one more unpark: the loop reads the inbox and the clock afresh whoever wakes it (jcstress
     * ParkGateWorkerWake).
     *
     * Priority (opt-in: the system property timewheel.tickThreadPriority, 1 to 10, read when a tick thread is
     * created; default Thread.NORM_PRIORITY, as every pool thread). This thread's work is never urgent (the
     * margin), but on Linux at the same priority its wake-ups take a CPU from a busy worker: the kernel lets
     * a thread that mostly sleeps preempt the one running when it wakes, and the worker then waits out this
     * thread's stint (a hand-over, ~0.1-0.4 ms). In `lateness` (100k timers of 1-500 ms, 200 falling due per
     * ms) that made timers due after the flood ~2x as often late by over 0.12 ms as on STPE, the whole gap in
     * its p99 (JDK 25: horizon raised past the timers' delays, so that they skip this thread: p99 as STPE's;
     * this thread reniced to 19 from outside, or at Thread.MIN_PRIORITY with -XX:ThreadPriorityPolicy=1, which
     * maps it to nice 4: as STPE's; a yield after each wake-up, or pinning it to one CPU: no change;
     * bench/results/jdk25/tick-priority.txt). Not the default: a JVM on Linux applies Java priorities only with
     * -XX:ThreadPriorityPolicy=1, and where it applies them always (Windows) a lower-priority thread can wait
     * seconds for a CPU that normal-priority threads keep busy, which would make the margin too short.
     *
     * Pacing (Pacer). During a long stint (a hand-over, a flood to file) this thread yields its CPU every
     * Pacer.PACE_NANOS (16.4 us) of work, up to a budget of yields per loop: a worker that wakes for its task
     * on the CPU this thread holds (where the kernel put it, beside the worker that woke it: Deferred) waits
     * at most about that long, not the whole stint. The wheels it serves run the pacer inside their advances
     * (TimerWheel.pacer), the inbox's and the hand-over's loops after every few entries.
     *
     * Late wake-ups (JFR TickThreadLate): after a timed park it did not leave early, if JFR is initialized
     * (Jfr.recording), it reads the clock once more and reports a wake-up later than asked by more than
     * LATE_WAKE_NANOS.
     *
     * Waking: ParkGate (its notes). In short: it parks until MARGIN_NANOS before the earliest deadline it
     * holds or has been offered and not read (pendingLow), or a long park up to DEFER_NANOS past that unless a
     * blocking worker wakes it first (Deferred), indefinitely with nothing pending; a producer unparks it only
     * if its deadline needs it earlier, or if it has been parked long (DRAIN_NANOS) and work
     * keeps coming; an urgent command always wakes it; a message that only frees memory (Unlink, or a cancel
     * of an entry still in the inbox that could not be retracted) is read within DRAIN_NANOS of its offer. Dekker-style volatile handshakes make sure no offer is
     * missed (jcstress ParkGateLostWakeUp, ParkGateUrgentCommand).
     */

    /** Bound on how long work offered to a busy tick thread waits to be read: 2^20 ns = 1.05 ms. */
    static final long DRAIN_NANOS = 1L << 20;
    /**
     * About how much of the deadlines ahead one hand-over moves: 2^22 ns = 4.2 ms, one tick of the executor's
     * default wheel. See the notes.
     */
    static final long STRIDE_NANOS = 1L << 22;
    /**
     * How far ahead of the earliest deadline it holds this thread wakes to hand entries over: the horizon
     * less a stride, 2^27 - 2^22 ns = 130 ms. See the notes.
     */
    public static final long MARGIN_NANOS = ReadyQueue.HORIZON_NANOS - STRIDE_NANOS;
    /**
     * How long after the time it meant to look for a hand-over this thread waits for a worker to block before
     * it wakes on its own: one stride, 2^22 ns = 4.2 ms. See the notes (Deferred).
     */
    static final long DEFER_NANOS = STRIDE_NANOS;
    /** The system property that sets the tick threads' priority (see the notes: Priority). */
    public static final String PRIORITY_PROPERTY = "timewheel.tickThreadPriority";
    /**
     * A wake-up later than asked by more than this is reported (JFR TickThreadLate): 2^21 ns = 2.1 ms. A late
     * wake-up makes the tasks it hands over late only past MARGIN_NANOS, but it delays the drain of the inbox
     * and the starvation watch, and it shows a CPU too busy for this thread.
     */
    static final long LATE_WAKE_NANOS = 1L << 21;

    /** A watch's look more than this far ahead (2^62 ns, 146 years) means none (Watch.look). */
    public static final long NEVER_AHEAD = Long.MAX_VALUE >> 1;

    /** ParkGate's states that the loop and sleeping() ask about. */
    public static final int AWAKE = ParkGate.AWAKE;
    public static final int PARKED_LONG = ParkGate.PARKED_LONG;

    final NanoClock clock;
    private final StripedInbox inbox = new StripedInbox();
    /** When this thread sleeps and when producers wake it (see ParkGate). Immutable reference. */
    final ParkGate gate;
    private final Thread thread;
    /** Whether this thread serves one executor only, and ends once that executor has terminated. Immutable. */
    private final boolean dedicated;
    /** A dedicated thread's executor has terminated. Written by any thread (false to true), read by this one. */
    private volatile boolean ownerTerminated;
    /** The tests' view of this thread (TickProbe), or null. Immutable. */
    private final Probe probe;

    /** The queues with a wheel: this thread's rooms for them. Tick thread only. */
    final List<QueueWheel> served = new ArrayList<>();
    /** Urgent commands read and not yet run (see the notes). Tick thread only. */
    private final List<Command> urgent = new ArrayList<>();
    /** The scratch in which entries are gathered for a hand-over, outside the ready queue's lock. Tick thread only. */
    private final HandOverBatch handOver = new HandOverBatch();
    /** Gives this thread's CPU away during long stints (see the notes: Pacing). Tick thread only. */
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
     * executor has terminated; {@code probe}: the tests' view of it, or null.
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
     * other (it only frees memory) is read within DRAIN_NANOS, and costs at most one loop per DRAIN_NANOS
     * however many come (ParkGate: PARKED_LONG, PARKED_LAZY).
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
     * detachAll that started after it was read and after everything detached was filed (see the notes).
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
     * Detaches the inbox and reads (files) everything detached, as the loop does, and passes each task entry
     * read to {@code read} afterwards (a Snapshot's last step: see the notes).
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

    /** Resets pendingLow, then detaches every stripe (see the notes: in this order). */
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

        /** Runs on the tick thread, after everything offered before it was read (urgent: and filed). */
        protected abstract void run(TickThread tick);
    }

    /**
     * The tests' seam into this thread (TickProbe implements it): told when a loop starts, when it parks and
     * after each expiry step. Tick thread only, but attach (the constructor's thread).
     */
    public interface Probe {
        void attach(TickThread tick);

        void loopStarted();

        void parking(long delay);

        void afterExpiry();
    }

    /** Answers a Snapshot (see the notes: a snapshot sees every entry offered before it). */
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

    /** Files a re-armed periodic entry again, wherever it is now (used when it was not run by a worker). */
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
