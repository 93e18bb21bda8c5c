package io.timewheel.bench.netty;

import io.timewheel.bench.report.JmhRow;
import io.timewheel.bench.report.Table;
import io.timewheel.bench.run.JmhRuns;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The full run's Netty section: WheelTimer beside HashedWheelTimer (1 ms and 100 ms ticks), schedule+cancel at
 * 1M pending timeouts with 1 and 2 producers ({@link NettyScheduleCancelBenchmark}), lateness and idle cost
 * ({@link NettyTimersHarness}), each figure also as a ratio to WheelTimer's.
 *
 * <p>Schedule+cancel runs {@link #FORKS} forks per timer and producer count, the timers in turn and in alternating
 * order (WheelTimer first, then last, then first), and reports each timer's median fork and the forks' range: on a
 * shared 2-CPU machine the forks of one timer spread wider than the timers differ, so one fork per timer would
 * rank them by the machine's moment (the range in the report shows the spread).
 *
 * <p>Run alone: {@code java -jar bench/target/timewheel-bench.jar netty [--tiny]}
 */
public final class NettySection {

    static final String BENCHMARK = "NettyScheduleCancelBenchmark.scheduleCancel";
    static final int[] THREADS = {1, 2};
    /** Forks per timer and producer count, their median reported (see the class notes). */
    static final int FORKS = 3;

    /** What the section measured. */
    public static final class Result {
        final int pending;
        /** Every fork's result, in the order run. */
        final List<JmhRow> jmh = new ArrayList<>();
        int forks = 1;
        Map<NettyTimerKind, NettyTimersHarness.Lateness> lateness = new LinkedHashMap<>();
        int latenessRounds;
        Map<String, NettyTimersHarness.Idle> idle = new LinkedHashMap<>();
        int idleInstances;

        Result(int pending) {
            this.pending = pending;
        }

        /** newTimeout+cancel per microsecond: the median of the timer's forks, or NaN. */
        double scheduleCancel(NettyTimerKind kind, int threads) {
            double[] f = forkScores(kind, threads);
            if (f.length == 0) {
                return Double.NaN;
            }
            Arrays.sort(f);
            return f.length % 2 == 1 ? f[f.length / 2] : (f[f.length / 2 - 1] + f[f.length / 2]) / 2;
        }

        /** Each fork's newTimeout+cancel per microsecond, in the order run. */
        double[] forkScores(NettyTimerKind kind, int threads) {
            return jmh.stream().filter(r -> r.benchmark.equals(BENCHMARK) && r.threads == threads
                            && kind.id().equals(r.param("timer")) && Integer.toString(pending).equals(r.param("pending")))
                    .mapToDouble(r -> r.score).toArray();
        }
    }

    private NettySection() {
    }

    public static void main(String[] argv) throws Exception {
        boolean tiny = Arrays.asList(argv).contains("--tiny");
        Result r = tiny ? run(200, 1, 200, 2_000, 1_000, null, System.out) : run(1_000, 3, 1_000, 100_000, 5_000, null, System.out);
        System.out.println();
        System.out.println(markdown(r));
    }

    /**
     * Measures everything at the full run's sizes: JMH warm-up and measurement as given, {@code latenessTimeouts}
     * per lateness round (5 rounds, as the executor's lateness target takes, 1 if fewer than 10,000 timeouts), an idle window of up to 5 s. {@code raw}:
     * where JMH's logs and JSON go (null: nowhere).
     */
    public static Result run(int warmupMillis, int iterations, int iterationMillis, int latenessTimeouts, int idleMillis,
                             Path raw, PrintStream out) throws Exception {
        boolean tiny = latenessTimeouts < 10_000;
        Result r = new Result(tiny ? 10_000 : 1_000_000);
        List<NettyTimerKind> kinds = Arrays.asList(NettyTimerKind.values());
        List<NettyTimerKind> reversed = new ArrayList<>(kinds);
        Collections.reverse(reversed);
        r.forks = tiny ? 1 : FORKS;
        for (int threads : THREADS) {
            for (int fork = 1; fork <= r.forks; fork++) {
                for (NettyTimerKind kind : fork % 2 == 1 ? kinds : reversed) {
                    JmhRuns.Spec spec = new JmhRuns.Spec(BENCHMARK).param("timer", kind.id()).param("pending", Integer.toString(r.pending))
                            .threads(threads).warmup(1, warmupMillis).measure(iterations, iterationMillis);
                    if (raw != null) {
                        spec.console().json(raw.resolve("netty-schedule-cancel-t" + threads + "-" + kind.id() + "-fork" + fork + ".json"));
                    }
                    r.jmh.addAll(JmhRuns.run(spec));
                }
            }
        }
        r.latenessRounds = tiny ? 1 : 5;
        r.lateness = NettyTimersHarness.lateness(kinds, latenessTimeouts, tiny ? 50 : 500, r.latenessRounds, out);
        r.idleInstances = tiny ? 5 : 100;
        r.idle = NettyTimersHarness.idle(kinds, r.idleInstances, Math.min(idleMillis, 5_000), out);
        return r;
    }

    public static String markdown(Result r) {
        StringBuilder md = new StringBuilder("## Netty timers: WheelTimer vs HashedWheelTimer\n\n");
        md.append("`io.timewheel.netty.WheelTimer` (the `netty/` module) against Netty's `HashedWheelTimer` with a 1 ms tick and"
                + " with its default 100 ms tick, on Netty's `Timer` API. Ratios: the figure over WheelTimer's.\n\n");

        md.append("`NettyScheduleCancelBenchmark`: `newTimeout` of a 30 s timeout and `cancel()` at once, with ")
                .append(String.format("%,d", r.pending)).append(" far timeouts (1 to 2 h away) pending; million operations per"
                        + " second: each timer's median of ").append(r.forks).append(r.forks == 1 ? " fork" : " forks, run in turn with"
                        + " the timers' order alternating, the forks' lowest and highest in brackets").append(".\n\n");
        Table sc = new Table("timer", "1 producer", "vs wheel-timer", "2 producers", "vs wheel-timer");
        for (NettyTimerKind k : NettyTimerKind.values()) {
            List<String> row = new ArrayList<>(List.of(k.id()));
            for (int threads : THREADS) {
                row.add(score(r, k, threads));
                row.add(ratio(r.scheduleCancel(k, threads), r.scheduleCancel(NettyTimerKind.WHEEL, threads)));
            }
            sc.row(row.toArray(new String[0]));
        }
        md.append(sc.markdown()).append('\n');

        md.append("`netty-timers` lateness: timeouts of random whole-millisecond delays scheduled back to back from one thread,"
                + " on a fresh timer per round; lateness = the task's start (`nanoTime`) minus (`nanoTime` before `newTimeout`"
                + " + delay); early = started before that. ").append(r.latenessRounds)
                .append(" interleaved round(s), each timer's round with the median p99 shown.\n\n");
        Table lt = new Table("timer", "p50 ms", "vs wheel-timer", "p99 ms", "vs wheel-timer", "max ms", "early (all rounds)", "never ran",
                "p99 ms of each round");
        NettyTimersHarness.Lateness ours = r.lateness.get(NettyTimerKind.WHEEL);
        for (NettyTimersHarness.Lateness l : r.lateness.values()) {
            lt.row(l.kind.id(), ms(l.percentileMillis(50)), ratio(l.percentileMillis(50), ours == null ? Double.NaN : ours.percentileMillis(50)),
                    ms(l.percentileMillis(99)), ratio(l.percentileMillis(99), ours == null ? Double.NaN : ours.percentileMillis(99)),
                    ms(l.maxMillis()), l.early + " of " + l.timeouts, Integer.toString(l.missing), roundP99s(l));
        }
        md.append(lt.markdown()).append('\n');

        md.append("`netty-timers` idle: ").append(r.idleInstances).append(" timers in a fresh JVM, each of which ran one task and"
                + " holds one timeout an hour away (far) or nothing (none), sampled after 1.5 s of settling. Wake-ups ="
                + " voluntary + involuntary context switches (/proc) of the threads created since the JVM started (WheelTimer's"
                + " include timewheel's shared tick thread), and of the timers' own threads alone.\n\n");
        Table id = new Table("timer", "scenario", "wake-ups/s", "vs wheel-timer", "timers' own wake-ups/s", "CPU ms/s",
                "timers' threads", "threads added");
        for (String scenario : NettyTimersHarness.SCENARIOS) {
            NettyTimersHarness.Idle base = r.idle.get(NettyTimersHarness.key(NettyTimerKind.WHEEL, scenario));
            for (NettyTimerKind k : NettyTimerKind.values()) {
                NettyTimersHarness.Idle i = r.idle.get(NettyTimersHarness.key(k, scenario));
                if (i != null) {
                    id.row(k.id(), scenario, perSecond(i.wakeupsPerSecond),
                            base == null ? "-" : ratio(i.wakeupsPerSecond, base.wakeupsPerSecond), perSecond(i.timerWakeupsPerSecond),
                            String.format("%.3f", i.cpuMillisPerSecond), Integer.toString(i.timerThreads), Integer.toString(i.allThreads));
                }
            }
        }
        md.append(id.markdown()).append('\n');
        return md.toString();
    }

    /** The p99 of each round, in the order run. */
    private static String roundP99s(NettyTimersHarness.Lateness l) {
        StringBuilder sb = new StringBuilder();
        for (double p : l.roundP99s) {
            sb.append(sb.length() == 0 ? "" : " / ").append(ms(p));
        }
        return sb.toString();
    }

    /** The median fork, and the forks' range when there are several. */
    private static String score(Result r, NettyTimerKind k, int threads) {
        double[] f = r.forkScores(k, threads);
        if (f.length == 0) {
            return "-";
        }
        double v = r.scheduleCancel(k, threads);
        return f.length == 1 ? String.format("%.3f", v)
                : String.format("%.3f (%.2f-%.2f)", v, Arrays.stream(f).min().getAsDouble(), Arrays.stream(f).max().getAsDouble());
    }

    /** v over ours; "-" when either is missing, "inf" over a zero. */
    private static String ratio(double v, double ours) {
        if (Double.isNaN(v) || Double.isNaN(ours) || v < 0 || ours < 0) {
            return "-";
        }
        return ours == 0 ? (v == 0 ? "1.00x" : "inf") : String.format("%.2fx", v / ours);
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.3f", v);
    }

    private static String perSecond(double v) {
        return v < 0 ? "n/a" : String.format("%.1f", v);
    }
}
