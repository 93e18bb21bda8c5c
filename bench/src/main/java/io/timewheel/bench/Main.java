package io.timewheel.bench;

import io.timewheel.bench.harness.AgentHarness;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.harness.StripeHarness;
import io.timewheel.bench.harness.ThreadsHarness;
import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.run.FullRun;
import io.timewheel.bench.run.QuickRun;
import io.timewheel.bench.run.Smoke;

import java.util.Arrays;

/**
 * The jar's entry point: {@code java -jar bench/target/timewheel-bench.jar MODE [options]}.
 * See {@link #USAGE}.
 */
public final class Main {

    static final String USAGE = String.join("\n",
            "usage: java -jar bench/target/timewheel-bench.jar MODE [options]",
            "  quick                 3.5-4.5 minutes: the headline table, timewheel beside every peer, with ratios, the",
            "                        punctuality against STPE (cold, warm, bursts' tail) and the targets",
            "  full [--out DIR] [--matrix] [--tiny]",
            "                        the full run (~28 min on 2 CPUs): every benchmark and harness; writes DIR",
            "                        (default: this JDK's committed results, jdkNN) with report.md, charts and raw",
            "                        figures, after deleting what a full run wrote there before;",
            "                        --matrix runs schedule+cancel at every pending count x thread count,",
            "                        --tiny the same pipeline at toy sizes (a check, not figures to quote)",
            "  jmh [JMH options]     JMH itself, e.g. jmh ScheduleCancelBenchmark -p peer=timewheel -t 2 (jmh -h for help)",
            "  lateness [--timers 100000] [--max-delay-ms 500] [--peers a,b]",
            "  lateness-under-load [--producers 1] [--millis 3000] [--peers a,b]",
            "  lateness-burst [--matrix] [--workers 1] [--executors 1] [--work-us 5] [--bursts 30] [--timers 500]",
            "           [--deadline-ms 50] [--jitter-ms 2.5] [--gap-ms 100] [--load 1] [--arrival-us 600] [--warmup 20]",
            "           [--train N] [--seed 12] [--csv FILE]   bursts of deadlines under CPU load, STPE vs timewheel",
            "  memory   [--timers 1000000] [--peers a,b]",
            "  idle     [--seconds 10] [--timers 1000000] [--peers a,b] [--sequential]",
            "  threads  [--peers a,b]",
            "  agent    [--runs 10] [--agent PATH]",
            "  stripes  [--gap 16] [--rounds 6] [--millis 2000]",
            "                        two producers with thread ids adjacent vs --gap apart (sharing an inbox stripe)",
            "  punctuality cold|warm [--launches 5] [--rounds 12] [--timers 20000] [--max-delay-ms 100] [--peers timewheel,stpe]",
            "                        lateness in fresh JVMs (alternating launches) and over warm interleaved rounds",
            "  netty [--tiny]        WheelTimer vs Netty's HashedWheelTimer: schedule+cancel, lateness, idle (full's section)",
            "  netty-timers [--timeouts 100000] [--max-delay-ms 500] [--rounds 3] [--instances 100] [--seconds 5]",
            "  smoke                 every benchmark and harness at tiny sizes, a few seconds each (what CI runs)",
            "  peers                 the peers and whether each runs on this JDK",
            "peers: " + Peer.ids(Arrays.asList(Peer.values())));

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.out.println(USAGE);
            return;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "quick":
                QuickRun.main(rest);
                break;
            case "full":
                FullRun.main(rest);
                break;
            case "jmh":
                org.openjdk.jmh.Main.main(rest);
                break;
            case "lateness":
                LatenessHarness.main(rest);
                break;
            case "lateness-under-load":
                LoadedLatenessHarness.main(rest);
                break;
            case "lateness-burst":
                BurstLatenessHarness.main(rest);
                break;
            case "punctuality":
                PunctualityHarness.main(rest);
                break;
            case "memory":
                MemoryHarness.main(rest);
                break;
            case "idle":
                IdleHarness.main(rest);
                break;
            case "threads":
                ThreadsHarness.main(rest);
                break;
            case "agent":
                AgentHarness.main(rest);
                break;
            case "stripes":
                StripeHarness.main(rest);
                break;
            case "netty":
                io.timewheel.bench.netty.NettySection.main(rest);
                break;
            case "netty-timers":
                io.timewheel.bench.netty.NettyTimersHarness.main(rest);
                break;
            case "smoke":
                Smoke.main(rest);
                break;
            case "peers":
                for (Peer p : Peer.values()) {
                    String why = p.unavailableReason();
                    System.out.printf("%-12s %s%s%n", p.id(), p.description(), why == null ? "" : "  [unavailable: " + why + "]");
                }
                break;
            case "-h":
            case "--help":
            case "help":
                System.out.println(USAGE);
                break;
            default:
                System.err.println("unknown mode '" + args[0] + "'\n" + USAGE);
                System.exit(2);
        }
    }
}
