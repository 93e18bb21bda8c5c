package io.timewheel.bench.harness;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Punctuality as a user who swaps timewheel in checks it first: the lateness of timers in a cold JVM, and the
 * tail of every warm round, next to the JDK's STPE in the same run. Each round: {@code timers} timers with
 * random delays 1..{@code max-delay-ms} ms, scheduled back to back from one thread, on a fresh instance with
 * one worker (LatenessHarness.round: no warm-up of its own).
 * <ul>
 * <li>{@code cold}: a fresh JVM per launch, which runs one round and nothing else; launches alternate between
 * the peers (timewheel, stpe, timewheel, ...), so machine noise falls on both alike. Per peer: every launch's
 * p50 / p99 / max, and the median over launches of each.</li>
 * <li>{@code warm}: one JVM, {@code rounds} rounds per peer, interleaved (the order alternates per round).
 * Per peer: every round's p99 and max, the median of the per-round p99s and the worst round's max, over the
 * rounds after the first (the first is a cold round: reported, not counted). Before each round the harness
 * calls {@code System.gc()}, with the heap kept at its size (LatenessHarness.keepHeap), as {@code lateness}
 * does: so that no round collects the garbage of the rounds before it, its own peer's or the other's (the
 * harness allocates ~1 MB per round, an executor 2-3 MB). Without it a young pause of a few ms falls in some
 * rounds of each run, whichever peer's round is running when the eden fills, and the worst round's max of either
 * peer is that pause.</li>
 * </ul>
 * Early fires and missing timers are counted in every round; a round with either is reported as such. Each
 * round also counts the collections that fell in it, from the executor's construction to the round's end (the
 * {@code gc} column): a round measured with a pause in it says so.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar punctuality cold|warm [--launches 5] [--rounds 12]
 * [--timers 20000] [--max-delay-ms 100] [--peers timewheel,stpe]}
 */
public final class PunctualityHarness {

    /** The rounds of {@link #warm} not counted: the first of each peer, a cold round. */
    public static final int WARM_SKIP = 1;

    /**
     * One round's figures, in milliseconds; {@code createMillis}: how long the peer's executor took to construct
     * (in a cold launch, the class loading and initialization a fresh JVM pays before its first timer), NaN if
     * not measured; {@code gcs}: the garbage collections that fell in the round, from the construction on (-1 if
     * not counted).
     */
    public record Round(Peer peer, double p50, double p99, double max, int early, int missing, double createMillis,
                        int gcs) {
        public Round(Peer peer, double p50, double p99, double max, int early, int missing) {
            this(peer, p50, p99, max, early, missing, Double.NaN, -1);
        }

        static Round of(LatenessHarness.Result r, long createNanos, long gcs) {
            return new Round(r.peer, r.percentileMillis(50), r.percentileMillis(99), r.maxMillis(), r.early, r.missing,
                    createNanos / 1e6, (int) gcs);
        }

        String line() {
            return String.format("ROUND %s %.4f %.4f %.4f %d %d %.4f %d", peer.id(), p50, p99, max, early, missing,
                    createMillis, gcs);
        }

        static Round parse(String line) {
            String[] f = line.trim().split(" ");
            return new Round(Peer.parse(f[1]).get(0), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                    Double.parseDouble(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]),
                    f.length > 7 ? Double.parseDouble(f[7]) : Double.NaN, f.length > 8 ? Integer.parseInt(f[8]) : -1);
        }
    }

    /** Garbage collections so far in this JVM, all collectors. */
    static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /**
     * One peer's rounds reduced to the figures the punctuality goals compare: the median over rounds of each round's
     * p50 and p99 and the worst round's max (ms; NaN without a round), early fires and missing timers summed; and
     * the median time to construct the executor (no goal; NaN if not measured).
     */
    public record Summary(int rounds, double medianP50, double medianP99, double worstMax, int early, int missing,
                          double medianCreate) {
        public Summary(int rounds, double medianP50, double medianP99, double worstMax, int early, int missing) {
            this(rounds, medianP50, medianP99, worstMax, early, missing, Double.NaN);
        }

        /** Over the rounds after the first {@code skip} ({@link #WARM_SKIP} for warm rounds, 0 for cold launches). */
        public static Summary of(List<Round> rounds, int skip) {
            List<Round> counted = rounds.subList(Math.min(skip, rounds.size()), rounds.size());
            return new Summary(counted.size(), median(counted.stream().mapToDouble(Round::p50).toArray()),
                    median(counted.stream().mapToDouble(Round::p99).toArray()),
                    counted.stream().mapToDouble(Round::max).max().orElse(Double.NaN),
                    counted.stream().mapToInt(Round::early).sum(), counted.stream().mapToInt(Round::missing).sum(),
                    median(counted.stream().mapToDouble(Round::createMillis).filter(v -> !Double.isNaN(v)).toArray()));
        }
    }

    private PunctualityHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv.length > 0 && !argv[0].startsWith("--") ? Arrays.copyOfRange(argv, 1, argv.length) : argv);
        String mode = argv.length > 0 && !argv[0].startsWith("--") ? argv[0] : "both";
        List<Peer> peers = Peer.parse(args.get("peers", "timewheel,stpe"));
        int timers = args.getInt("timers", 20_000);
        int maxDelayMs = args.getInt("max-delay-ms", 100);
        switch (mode) {
            case "child" -> child(Peer.parse(args.get("peer", "timewheel")).get(0), timers, maxDelayMs,
                    args.getInt("seed", 1));
            case "cold" -> cold(peers, args.getInt("launches", 5), timers, maxDelayMs, System.out);
            case "warm" -> warm(peers, args.getInt("rounds", 12), timers, maxDelayMs, System.out);
            case "both" -> {
                cold(peers, args.getInt("launches", 5), timers, maxDelayMs, System.out);
                warm(peers, args.getInt("rounds", 12), timers, maxDelayMs, System.out);
            }
            default -> throw new IllegalArgumentException("punctuality cold|warm|both, not " + mode);
        }
    }

    /** In a fresh JVM: one round, nothing before it; prints its ROUND line. */
    private static void child(Peer peer, int timers, int maxDelayMs, long seed) throws Exception {
        long gc0 = collections();
        long start = System.nanoTime();
        try (TimerService service = peer.create()) {
            long created = System.nanoTime() - start;
            LatenessHarness.Result result = LatenessHarness.round(service, timers, maxDelayMs, seed);
            System.out.println(Round.of(result, created, collections() - gc0).line());
        }
    }

    /** Cold: a fresh JVM per launch, peers alternating; returns every launch's round per peer. */
    public static Map<Peer, List<Round>> cold(List<Peer> peers, int launches, int timers, int maxDelayMs, PrintStream out)
            throws Exception {
        out.println(Console.wrap("", String.format("punctuality, cold: a fresh JVM per launch, one round of %,d timers (delays"
                + " 1..%d ms, one producer, one worker), %d launches per peer, alternating", timers, maxDelayMs, launches)));
        String java = ProcessHandle.current().info().command().orElse("java");
        Map<Peer, List<Round>> rounds = new LinkedHashMap<>();
        for (int launch = 0; launch < launches; launch++) {
            for (Peer peer : peers) {
                List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                        PunctualityHarness.class.getName(), "child", "--peer", peer.id(), "--timers",
                        Integer.toString(timers), "--max-delay-ms", Integer.toString(maxDelayMs), "--seed",
                        Integer.toString(launch + 1)));
                Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
                Round round = null;
                StringBuilder output = new StringBuilder();
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.startsWith("ROUND ")) {
                            round = Round.parse(line);
                        } else {
                            output.append(line).append('\n');
                        }
                    }
                }
                int exit = process.waitFor();
                if (round == null || exit != 0) {
                    throw new IllegalStateException("launch of " + peer.id() + " failed (exit " + exit + "):\n" + output);
                }
                rounds.computeIfAbsent(peer, p -> new ArrayList<>()).add(round);
            }
        }
        print(out, rounds, 0, "launch", "launches");
        return rounds;
    }

    /** Warm: rounds interleaved in this JVM; the first round of each peer is reported but not counted. */
    public static Map<Peer, List<Round>> warm(List<Peer> peers, int rounds, int timers, int maxDelayMs, PrintStream out)
            throws Exception {
        out.println(Console.wrap("", String.format("punctuality, warm: one JVM, %d interleaved rounds of %,d timers per peer"
                + " (delays 1..%d ms, one producer, one worker, a fresh instance each); the first round is cold: shown, not"
                + " counted", rounds, timers, maxDelayMs)));
        Map<Peer, List<Round>> all = new LinkedHashMap<>();
        String maxHeapFreeRatio = LatenessHarness.keepHeap();
        try {
            for (int round = 0; round < rounds; round++) {
                List<Peer> order = new ArrayList<>(peers);
                if (round % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Peer peer : order) {
                    System.gc(); // no round collects the garbage of the rounds before it (see the class notes)
                    long gc0 = collections();
                    long start = System.nanoTime();
                    try (TimerService service = peer.create()) {
                        long created = System.nanoTime() - start;
                        LatenessHarness.Result result = LatenessHarness.round(service, timers, maxDelayMs, 100 + round);
                        all.computeIfAbsent(peer, p -> new ArrayList<>()).add(Round.of(result, created, collections() - gc0));
                    }
                }
            }
        } finally {
            LatenessHarness.restoreHeap(maxHeapFreeRatio);
        }
        print(out, all, WARM_SKIP, "round", "rounds");
        return all;
    }

    private static void print(PrintStream out, Map<Peer, List<Round>> all, int skip, String unit, String units) {
        out.printf("%-10s %6s %10s %10s %10s %6s %8s %8s %4s%n", "peer", unit, "p50 ms", "p99 ms", "max ms", "early", "missing",
                "new ms", "gc");
        for (Map.Entry<Peer, List<Round>> e : all.entrySet()) {
            List<Round> rounds = e.getValue();
            for (int i = 0; i < rounds.size(); i++) {
                Round r = rounds.get(i);
                out.printf("%-10s %6s %10.3f %10.3f %10.3f %6d %8d %8.2f %4s%s%n", e.getKey().id(), i + 1, r.p50(), r.p99(), r.max(),
                        r.early(), r.missing(), r.createMillis(), r.gcs() < 0 ? "-" : Integer.toString(r.gcs()),
                        i < skip ? "  (cold: not counted)" : "");
            }
        }
        out.printf("%-10s %8s %14s %14s %14s %6s %8s %12s%n", "peer", units, "median p50", "median p99", "worst max",
                "early", "missing", "median new");
        for (Map.Entry<Peer, List<Round>> e : all.entrySet()) {
            Summary s = Summary.of(e.getValue(), skip);
            out.printf("%-10s %8d %14.3f %14.3f %14.3f %6d %8d %12.2f%n", e.getKey().id(), s.rounds(), s.medianP50(), s.medianP99(),
                    s.worstMax(), s.early(), s.missing(), s.medianCreate());
        }
        out.println(Console.wrap("", "new ms: how long the peer's executor took to construct (no goal; in a cold launch, what a"
                + " fresh JVM pays before its first timer can be scheduled); gc: garbage collections that fell in the round"));
    }

    /** The median (the mean of the middle two for an even count); NaN without values. */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
