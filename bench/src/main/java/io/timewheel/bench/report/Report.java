package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.peer.Peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The full run's Markdown report. */
public final class Report {

    /** How every report begins: the line that tells a results folder from any other. */
    public static final String TITLE = "# timewheel benchmark results";

    private Report() {
    }

    public static String markdown(Figures f, String[] argv, String loadBefore, String loadAfter, double minutes, boolean matrix) {
        StringBuilder md = new StringBuilder();
        md.append(TITLE).append(" (Java ").append(Machine.javaFeature()).append(")\n\n");
        md.append("Written by `full` (").append(String.format("%.1f", minutes)).append(" min). Every figure comes from this one run,"
                + " with timewheel and the peers measured side by side on the same machine.\n\n");
        md.append("## Machine\n\n").append(Machine.markdown(argv, loadBefore, loadAfter)).append('\n');
        int cpus = Runtime.getRuntime().availableProcessors();
        if (cpus <= 2) {
            md.append("> **Small machine.** ").append(cpus).append(" CPUs: the producer threads, our tick thread, the"
                    + " workers and JMH share them, so multi-threaded figures mostly measure contention for CPUs. A load"
                    + " average above the CPU count means other work was running: treat differences under ~20% as noise.\n\n");
        }
        md.append("## Peers\n\n");
        for (Peer p : f.peers) {
            md.append("- `").append(p.id()).append("`: ").append(p.description()).append('\n');
        }
        for (Peer p : Peer.values()) {
            if (!p.isAvailable()) {
                md.append("- `").append(p.id()).append("`: not measured: ").append(p.unavailableReason()).append('\n');
            }
        }
        md.append("\nEvery implementation runs due tasks on one thread (a pool of one, or the timer's own worker).\n\n");

        md.append("## Headline\n\n").append(Headline.table(f).markdown()).append('\n').append(Headline.note(f)).append("\n\n");
        md.append("## Targets\n\n").append(Targets.table(f).markdown()).append('\n').append(Targets.summary(f))
                .append(". A target whose figure is missing (a failed JMH fork, a peer not run, a harness that saw nothing) reads"
                        + " \"not measured\", and is not counted as met.\n\n");

        md.append("## Schedule + cancel (the timeout pattern)\n\n");
        md.append("`ScheduleCancelBenchmark`: schedule a 30 s timer and cancel it at once, with far timers (1 to 2 h away) pending."
                + " Million operations (one schedule plus one cancel) per second, ± JMH's 99.9% error. STPE with"
                + " removeOnCancel=false is purged between iterations (its cancelled tasks otherwise stay until their deadline).\n\n");
        int[] pd = f.pendings;
        int large = f.largePending();
        String big = Headline.count(large);
        List<String> head = new ArrayList<>(List.of("peer"));
        for (int p : pd) {
            head.add(Headline.count(p) + " pending");
        }
        head.addAll(List.of(big + ", 2 threads", big + ", 4 threads", big + ", 8 threads", big + " vs 0"));
        Table sc = new Table(head.toArray(new String[0]));
        for (Peer p : f.peers) {
            List<String> row = new ArrayList<>(List.of(p.id()));
            for (int n : pd) {
                row.add(score(f, p, n, 1));
            }
            double zero = f.scheduleCancel(p, 0, 1), top = f.scheduleCancel(p, large, 1);
            row.addAll(List.of(score(f, p, large, 2), score(f, p, large, 4), score(f, p, large, 8), Double.isNaN(zero) ? "-" : String.format("%.2fx", top / zero)));
            sc.row(row.toArray(new String[0]));
        }
        md.append(sc.markdown()).append('\n');
        if (matrix) {
            List<String> h = new ArrayList<>(List.of("peer", "threads"));
            for (int p : pd) {
                h.add(Headline.count(p) + " pending");
            }
            Table all = new Table(h.toArray(new String[0]));
            for (Peer p : f.peers) {
                for (int t : new int[] {1, 2, 4, 8}) {
                    List<String> row = new ArrayList<>(List.of(p.id(), Integer.toString(t)));
                    for (int n : pd) {
                        row.add(score(f, p, n, t));
                    }
                    all.row(row.toArray(new String[0]));
                }
            }
            md.append("The whole matrix:\n\n").append(all.markdown()).append('\n');
        }
        md.append("![schedule+cancel vs pending](schedule-cancel-vs-pending.png)\n\n");
        md.append("![schedule+cancel vs threads](schedule-cancel-vs-threads.png)\n\n");

        md.append("## Schedule only (insert rate)\n\n`ScheduleOnlyBenchmark`: 30 s timers, never cancelled, into a fresh"
                + " instance holding " + big + " far timers (filled in the unmeasured setup of every iteration). Million schedules per second.\n\n");
        Table so = new Table("peer", "Mops/s", "vs timewheel");
        double ourInsert = rowScore(f, Figures.SCHEDULE_ONLY, Peer.TIMEWHEEL.id());
        for (Peer p : f.peers) {
            double v = rowScore(f, Figures.SCHEDULE_ONLY, p.id());
            so.row(p.id(), rowCell(f, Figures.SCHEDULE_ONLY, p.id()), ratio(v, ourInsert));
        }
        md.append(so.markdown()).append('\n');

        md.append("## Expiry throughput\n\n`ExpiryBenchmark`: schedule 1M timers with random whole-millisecond delays 0..999 ms"
                + " and wait until all have run; milliseconds per batch, one shot per iteration on a fresh instance (the ideal is"
                + " 1000 ms: the excess is scheduling plus expiring late).\n\n");
        Table ex = new Table("peer", "ms per batch", "vs timewheel");
        double ourExpiry = rowScore(f, Figures.EXPIRY, Peer.TIMEWHEEL.id());
        for (Peer p : f.peers) {
            ex.row(p.id(), rowCell(f, Figures.EXPIRY, p.id()), ratio(rowScore(f, Figures.EXPIRY, p.id()), ourExpiry));
        }
        md.append(ex.markdown()).append('\n');

        md.append("## The data structures: TimerWheel vs Agrona's DeadlineTimerWheel\n\n`WheelBenchmark`, one thread, no clock,"
                + " both with a 2^20 ns tick (Agrona: one level of 512 slots). Nanoseconds per timer. `addCancel`: arm 30 s ahead"
                + " and cancel; `add`: 100k timers 30 s ahead spread over 100 ms; `cancel`: cancel them in random order;"
                + " `advance`: 100k timers due within 100 ms,"
                + " time moved in 1 ms steps until all expired.\n\n");
        Table wh = new Table("operation", "pending", "timewheel ns", "agrona ns", "agrona / timewheel");
        for (String op : new String[] {"addCancel", "add", "cancel", "advance"}) {
            for (int pendingCount : pd) {
                String pending = Integer.toString(pendingCount);
                JmhRow ours = JmhRow.find(f.jmh, "WheelBenchmark." + op, 1, "impl", "timewheel", "pending", pending);
                JmhRow agrona = JmhRow.find(f.jmh, "WheelBenchmark." + op, 1, "impl", "agrona", "pending", pending);
                wh.row(op, Headline.count(pendingCount), ours == null ? "-" : withError(ours), agrona == null ? "-" : withError(agrona),
                        ours == null || agrona == null ? "-" : String.format("%.2fx", agrona.score / ours.score));
            }
        }
        md.append(wh.markdown()).append('\n');

        md.append("## Lateness\n\n`lateness`: 100k timers with random delays 1..500 ms (whole milliseconds) scheduled back to back"
                + " from one thread, after a warm-up round, on a fresh instance; " + f.latenessRounds + " rounds, the peers interleaved, and each"
                + " peer's round with the median p99 shown (its other rounds' p99 in the last column); lateness = the task's start (`nanoTime`) minus (`nanoTime` read just"
                + " before the schedule call + delay). Early = started before that, which is early for certain.\n\n");
        Table lt = new Table("peer", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "early (all rounds)", "never ran", "p99 per round");
        for (Map.Entry<Peer, LatenessHarness.Result> e : f.lateness.entrySet()) {
            LatenessHarness.Result r = e.getValue();
            lt.row(e.getKey().id(), ms(r.percentileMillis(50)), ms(r.percentileMillis(90)), ms(r.percentileMillis(99)),
                    ms(r.percentileMillis(99.9)), ms(r.maxMillis()),
                    r.early + " of " + r.timers + (r.early > 0 ? String.format(" (up to %.3f ms early)", r.worstEarlyNanos / 1e6) : ""),
                    Integer.toString(r.missing), rounds(r.roundP99s));
        }
        md.append(lt.markdown()).append("\n![lateness](lateness.png)\n\nFull distributions: `raw/lateness-*.hgrm`.\n\n");

        md.append("## Lateness under load\n\n`lateness-under-load`: one producer thread schedules and cancels 30 s timers non-stop"
                + " (the timeout pattern at full speed) while a probe schedules one 10 ms timer at a time, waits for it and sleeps"
                + " 10 ms, for 3 s. How well each implementation keeps firing timers while flooded; a probe not run within 10 s"
                + " counts as missed.\n\n");
        Table ll = new Table("peer", "probe p50 ms", "probe p99 ms", "probe max ms", "probes", "missed", "producer Mops/s");
        for (Map.Entry<Peer, LoadedLatenessHarness.Result> e : f.loadedLateness.entrySet()) {
            LoadedLatenessHarness.Result r = e.getValue();
            ll.row(e.getKey().id(), ms(r.percentileMillis(50)), ms(r.percentileMillis(99)), ms(r.maxMillis()),
                    Long.toString(r.probes.getTotalCount()), Integer.toString(r.missed), String.format("%.2f", r.producerMops));
        }
        md.append(ll.markdown()).append('\n');

        if (!f.bursts.isEmpty()) {
            BurstLatenessHarness.Config d = f.bursts.get(0).config;
            md.append("## Lateness in bursts under load\n\n`lateness-burst --matrix`: bursts of one-shot timers due a"
                    + " fixed delay ± a jitter after they are scheduled, arriving within a fraction of a millisecond, each callback"
                    + " busy-spinning a few microseconds, while other threads keep CPUs busy; the same bursts on the JDK's STPE and"
                    + " on timewheel, in interleaved slots (stpe, timewheel, timewheel, stpe, ...) after warm-up slots not counted,"
                    + " on executors created once per variant and reused by every burst. Lateness = the callback's `nanoTime`, read"
                    + " before its work, minus (`nanoTime` before the schedule call + the delay). ")
                    .append(String.format("The default row: %d bursts per kind of %,d timers due %d ms ± %s ms, arriving over %d us,"
                            + " %d us callbacks, %d worker(s), %d executor(s), %d load thread(s), a burst every %d ms.", d.bursts, d.timers,
                            d.deadlineMs, Bursts.us(d.jitterMs), d.arrivalUs, d.workUs, d.workers, d.executors, d.load, d.gapMs))
                    .append(" Each other row changes one thing.\n\n");
            md.append(Bursts.table(f.bursts).markdown()).append('\n').append(Bursts.checks(f.bursts).markdown()).append('\n')
                    .append(Bursts.NOTE).append("\n\n");
            for (BurstLatenessHarness.Result r : f.bursts) {
                md.append("- ").append(r.config.name).append(": ").append(r.config.describe())
                        .append(String.format(" (%.0f s)", r.seconds)).append('\n');
            }
            md.append("\nPer-burst p50, p99, max, early fires: `raw/lateness-burst.csv`.\n\n");
        }

        md.append("## Punctuality against STPE\n\n`punctuality cold`, `punctuality warm` and runs of"
                + " `lateness-burst`'s default row and of three variant rows, each of its own (per-burst figures:"
                + " `raw/punctuality-bursts.csv`), timewheel and STPE side by side: a cold JVM's first round, warm rounds, and the"
                + " tail of bursts under load.\n\n");
        md.append(Punctuality.table(f).markdown()).append('\n').append(Punctuality.note(f)).append("\n\n");
        md.append(Targets.table(Punctuality.targets(f), List.of()).markdown()).append('\n');

        md.append("## Memory per pending timer\n\n`memory`: JOL `GraphLayout.parseInstance(root).totalSize()` with 1M timers"
                + " pending minus the same with none, all timers running one shared Runnable (the user's task is not counted;"
                + " the handle each schedule returns is); JOL's object count likewise (below 1 per timer: JOL did not reach"
                + " the timers). Heap used after a full GC beside it as a cross-check.\n\n");
        Table mem = new Table("peer", "JOL bytes/timer", "JOL objects/timer", "heap bytes/timer");
        for (Map.Entry<Peer, MemoryHarness.Result> e : f.memory.entrySet()) {
            MemoryHarness.Result r = e.getValue();
            mem.row(e.getKey().id(), String.format("%.1f", r.jolBytesPerTimer) + (r.jolSawTimers() ? "" : " (does not reach the timers)"),
                    String.format("%.2f", r.jolObjectsPerTimer), String.format("%.1f", r.heapBytesPerTimer));
        }
        md.append(mem.markdown()).append('\n');
        if (f.peers.contains(Peer.FJP)) {
            md.append("Java 25's ForkJoinPool keeps its delayed tasks in a heap held by a local variable of its delay-scheduler"
                    + " thread's loop, which no object field reaches: JOL cannot see them, and the headline uses the heap figure"
                    + " for it (marked " + Headline.HEAP_MARK + ").\n\n");
        }

        md.append("## Idle cost\n\n`idle`: each implementation in a fresh JVM, its threads found by diffing before/after, one task run"
                + " so all are started, then a 10 s window with nothing due. Wake-ups = voluntary + involuntary context switches"
                + " of those threads (/proc/self/task/*/status); CPU from ThreadMXBean. All JVMs ran side by side, their windows"
                + " opening at one common instant once every JVM had filled its timers.\n\n");
        Table idle = new Table("peer", "timers", "wake-ups/s", "voluntary/s", "CPU ms/s", "threads");
        for (int timers : new int[] {0, f.idleTimers}) {
            for (Peer p : f.peers) {
                IdleHarness.Result r = f.idle(p, timers);
                if (r != null) {
                    idle.row(p.id(), Headline.count(timers), perSecond(r.wakeupsPerSecond), perSecond(r.voluntaryPerSecond),
                            String.format("%.3f", r.cpuMillisPerSecond), r.threads + ": " + r.threadNames);
                }
            }
        }
        md.append(idle.markdown()).append('\n');

        md.append("## Threads added\n\n`threads`: threads a fresh JVM gains from 1 and from 10 instances, each of which ran one task.\n\n");
        Table th = new Table("peer", "1 instance", "10 instances");
        for (Map.Entry<Peer, int[]> e : f.threads.entrySet()) {
            th.row(e.getKey().id(), Integer.toString(e.getValue()[0]), Integer.toString(e.getValue()[1]));
        }
        md.append(th.markdown()).append('\n');

        if (f.netty != null) {
            md.append(io.timewheel.bench.netty.NettySection.markdown(f.netty)).append('\n');
        }
        md.append("## Agent start-up cost\n\n");
        if (f.agent == null) {
            md.append("Not measured: the agent was not built yet (`agent/target/timewheel-agent.jar` did not exist).\n\n");
        } else {
            md.append(String.format("Hello-world JVM (one scheduled executor, one task), %d runs each, median wall time:"
                            + " %.1f ms without, %.1f ms with `-javaagent` (%+.1f ms). With the agent it printed: `%s`.%n%n",
                    f.agent.runs, f.agent.withoutMillis, f.agent.withMillis, f.agent.withMillis - f.agent.withoutMillis, f.agent.agentOutput));
        }

        md.append("## Reproduce\n\n```bash\n./mvnw -B -q -pl bench,agent -am package -DskipTests   # the agent too: full measures its start-up\n")
                .append("java -jar bench/target/timewheel-bench.jar full          # this report\n")
                .append("java -jar bench/target/timewheel-bench.jar quick         # the 3.5-4.5 minute headline table, targets and punctuality verdicts\n")
                .append("java -jar bench/target/timewheel-bench.jar jmh ScheduleCancelBenchmark -p peer=timewheel,stpe-roc -p pending=1000000 -t 2\n")
                .append("java -jar bench/target/timewheel-bench.jar jmh ScheduleCancelBenchmark -p peer=timewheel -p pending=1000000 -prof gc\n")
                .append("```\n\nJMH's results for every benchmark, as JSON: `raw/*.json`.\n");
        return md.toString();
    }

    private static String score(Figures f, Peer p, int pending, int threads) {
        double v = f.scheduleCancel(p, pending, threads);
        double e = f.scheduleCancelError(p, pending, threads);
        return Double.isNaN(v) ? "-" : Double.isNaN(e) ? String.format("%.3f", v) : String.format("%.3f ± %.3f", v, e);
    }

    private static double rowScore(Figures f, String benchmark, String peer) {
        JmhRow r = JmhRow.find(f.jmh, benchmark, 1, "peer", peer);
        return r == null ? Double.NaN : r.score;
    }

    private static String rowCell(Figures f, String benchmark, String peer) {
        JmhRow r = JmhRow.find(f.jmh, benchmark, 1, "peer", peer);
        return r == null ? "-" : withError(r);
    }

    private static String withError(JmhRow r) {
        String fmt = r.score >= 100 ? "%.0f" : r.score >= 1 ? "%.2f" : "%.3f";
        return Double.isNaN(r.error) ? String.format(fmt, r.score) : String.format(fmt + " ± " + fmt, r.score, r.error);
    }

    private static String ratio(double v, double ours) {
        return Double.isNaN(v) || Double.isNaN(ours) || ours == 0 ? "-" : String.format("%.2fx", v / ours);
    }

    private static String rounds(List<Double> p99s) {
        StringBuilder sb = new StringBuilder();
        for (double p : p99s) {
            sb.append(sb.length() == 0 ? "" : " / ").append(String.format("%.2f", p));
        }
        return sb.toString();
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.3f", v);
    }

    private static String perSecond(double v) {
        return v < 0 ? "n/a" : String.format("%.1f", v);
    }
}
