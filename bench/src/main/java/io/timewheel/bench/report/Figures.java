package io.timewheel.bench.report;

import io.timewheel.bench.harness.AgentHarness;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.peer.Peer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one run measured, for the tables, the targets and the charts. Filled by one thread. */
public final class Figures {

    public static final String SCHEDULE_CANCEL = "ScheduleCancelBenchmark.scheduleCancel";
    public static final String SCHEDULE_ONLY = "ScheduleOnlyBenchmark.schedule";
    public static final String EXPIRY = "ExpiryBenchmark.scheduleAndExpireAll";

    /** The pending-timer counts of the schedule+cancel runs; the last is the headline one. */
    public int[] pendings = {0, 10_000, 1_000_000};

    public final List<Peer> peers;
    public final List<JmhRow> jmh = new ArrayList<>();
    public Map<Peer, LatenessHarness.Result> lateness = new LinkedHashMap<>();
    /** How many interleaved rounds {@link #lateness} ran (its figures are each peer's median round). */
    public int latenessRounds = 1;
    public Map<Peer, LoadedLatenessHarness.Result> loadedLateness = new LinkedHashMap<>();
    /** lateness-burst: the default row first, then (full run) the other variants of the matrix. */
    public List<BurstLatenessHarness.Result> bursts = new ArrayList<>();
    /** punctuality cold: each peer's rounds, one per fresh-JVM launch, the launches alternating. */
    public Map<Peer, List<PunctualityHarness.Round>> coldLaunches = new LinkedHashMap<>();
    /** The size of each punctuality round (cold and warm): timers, and their random delays 1..this many ms. */
    public int punctualityTimers = 20_000, punctualityMaxDelayMs = 100;
    /** punctuality warm: each peer's interleaved rounds, the first (cold, not counted) included. */
    public Map<Peer, List<PunctualityHarness.Round>> warmRounds = new LinkedHashMap<>();
    /** The bursts whose per-burst p99s the tail goal counts: lateness-burst's default row (quick: {@link #bursts}' own). */
    public BurstLatenessHarness.Result burstTail;
    /**
     * The same tail goal in three other rows (2 spinning threads, 3 executors, 4 workers), each a run of
     * its own: full run only (empty in quick, whose verdicts are the default row's).
     */
    public List<BurstLatenessHarness.Result> burstTailVariants = new ArrayList<>();
    public Map<Peer, MemoryHarness.Result> memory = new LinkedHashMap<>();
    public Map<String, IdleHarness.Result> idle = new LinkedHashMap<>();
    public int idleTimers = 1_000_000;
    public Map<Peer, int[]> threads = new LinkedHashMap<>();
    /** The Netty section (WheelTimer vs HashedWheelTimer), or null if not run. */
    public io.timewheel.bench.netty.NettySection.Result netty;
    public AgentHarness.Result agent;
    public boolean agentBuilt;
    /** Set by the quick run: the targets whose figures only the full run measures say so. */
    public boolean quick;

    public Figures(List<Peer> peers) {
        this.peers = peers;
    }

    public int largePending() {
        return pendings[pendings.length - 1];
    }

    /** Schedule+cancel throughput (ops/us), or NaN. */
    public double scheduleCancel(Peer peer, int pending, int threads) {
        JmhRow r = JmhRow.find(jmh, SCHEDULE_CANCEL, threads, "peer", peer.id(), "pending", Integer.toString(pending));
        return r == null ? Double.NaN : r.score;
    }

    public double scheduleCancelError(Peer peer, int pending, int threads) {
        JmhRow r = JmhRow.find(jmh, SCHEDULE_CANCEL, threads, "peer", peer.id(), "pending", Integer.toString(pending));
        return r == null ? Double.NaN : r.error;
    }

    public IdleHarness.Result idle(Peer peer, int timers) {
        return idle.get(IdleHarness.key(peer, timers));
    }
}
