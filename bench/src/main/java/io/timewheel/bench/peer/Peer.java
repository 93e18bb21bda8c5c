package io.timewheel.bench.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

/**
 * The implementations measured side by side. Every one is created with one thread that runs due tasks
 * (a pool of one, or the timer's own worker), so the figures compare the timer machinery, not pool sizes;
 * except {@link #TIMEWHEEL_VT}, timewheel's virtual-thread mode, whose pool thread hands every due run to a
 * new virtual thread: it is opt-in ({@link #optIn()}), never part of "all", and runs only when named, e.g.
 * {@code lateness --peers timewheel,timewheel-vt} to compare the two modes' lateness in one run.
 */
public enum Peer {
    TIMEWHEEL("timewheel", "timewheel WheelScheduledExecutorService, 1 worker, shared tick thread, 4.2 ms tick (the default)"),
    TIMEWHEEL_VT("timewheel-vt", "timewheel as above with virtualThreadPerRun(): its 1 pool thread starts a virtual thread"
            + " per due run (Java 21+; opt-in, not in \"all\")"),
    STPE("stpe", "JDK ScheduledThreadPoolExecutor(1), removeOnCancel=false (the default)"),
    STPE_ROC("stpe-roc", "JDK ScheduledThreadPoolExecutor(1), removeOnCancel=true"),
    FJP("fjp", "JDK 25 ForkJoinPool(1) used as a ScheduledExecutorService"),
    NETTY_1MS("netty-1ms", "Netty 4.1 HashedWheelTimer, 1 ms tick, 512 slots"),
    NETTY_100MS("netty-100ms", "Netty 4.1 HashedWheelTimer, 100 ms tick (its default), 512 slots"),
    KAFKA("kafka", "Kafka 3.9 SystemTimer (1 ms tick, 20 slots) with its SystemTimerReaper");

    private final String id;
    private final String description;

    Peer(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    /** Why this peer cannot run in this JVM, or null if it can. */
    public String unavailableReason() {
        switch (this) {
            case TIMEWHEEL_VT:
                return Runtime.version().feature() >= 21 ? null
                        : "virtual threads need Java 21+ (running " + Runtime.version().feature() + ")";
            case FJP:
                return ScheduledExecutorService.class.isAssignableFrom(ForkJoinPool.class)
                        ? null : "ForkJoinPool has no scheduler before Java 25 (running " + Runtime.version().feature() + ")";
            case KAFKA:
                return classPresent("org.apache.kafka.server.util.timer.SystemTimer") ? null : "kafka-server-common not on the class path";
            case NETTY_1MS:
            case NETTY_100MS:
                return classPresent("io.netty.util.HashedWheelTimer") ? null : "netty-common not on the class path";
            default:
                return null;
        }
    }

    /**
     * How early this peer may run a timer by design, in nanoseconds (exclusive), against a deadline read with
     * {@code nanoTime()} just before the schedule call: Kafka's API and clock are whole milliseconds (its
     * clock truncates {@code nanoTime}, so its deadline can fall up to just under 1 ms before ours); 0, none
     * at all, for the others.
     */
    public long earlyToleranceNanos() {
        return this == KAFKA ? 1_000_000 : 0;
    }

    /**
     * Whether this peer runs only when named (in {@code --peers} or a benchmark's {@code -p peer=}): it is not in
     * {@link #available()} ("all"), and no target requires a figure for it.
     */
    public boolean optIn() {
        return this == TIMEWHEEL_VT;
    }

    public boolean isAvailable() {
        return unavailableReason() == null;
    }

    /** A new, running instance with no timers. The caller closes it. */
    public TimerService create() {
        String reason = unavailableReason();
        if (reason != null) {
            throw new UnsupportedOperationException(id + ": " + reason);
        }
        switch (this) {
            case TIMEWHEEL:
                return ExecutorPeer.timewheel(this);
            case TIMEWHEEL_VT:
                return ExecutorPeer.timewheelVirtualThreads(this);
            case STPE:
                return ExecutorPeer.stpe(this, false);
            case STPE_ROC:
                return ExecutorPeer.stpe(this, true);
            case FJP:
                return ExecutorPeer.forkJoin(this);
            case NETTY_1MS:
                return new NettyPeer(this, 1);
            case NETTY_100MS:
                return new NettyPeer(this, 100);
            case KAFKA:
                return new KafkaPeer(this);
            default:
                throw new AssertionError(this);
        }
    }

    public static Peer of(String id) {
        for (Peer p : values()) {
            if (p.id.equals(id) || p.name().equalsIgnoreCase(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown peer '" + id + "'; known: " + ids(List.of(values())));
    }

    /** The peers that can run in this JVM, timewheel first; not the {@link #optIn()} ones. */
    public static List<Peer> available() {
        List<Peer> list = new ArrayList<>();
        for (Peer p : values()) {
            if (p.isAvailable() && !p.optIn()) {
                list.add(p);
            }
        }
        return list;
    }

    /** Parses a comma-separated list of ids; "all" or null means {@link #available()} (opt-in peers only by id). */
    public static List<Peer> parse(String ids) {
        if (ids == null || ids.isBlank() || ids.equals("all")) {
            return available();
        }
        List<Peer> list = new ArrayList<>();
        for (String id : ids.split(",")) {
            Peer p = of(id.trim());
            if (p.isAvailable()) {
                list.add(p);
            } else {
                System.err.println("skipping " + p.id + ": " + p.unavailableReason());
            }
        }
        return list;
    }

    public static String ids(List<Peer> peers) {
        return peers.stream().map(Peer::id).collect(Collectors.joining(","));
    }

    private static boolean classPresent(String name) {
        try {
            Class.forName(name, false, Peer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
