package io.timewheel.bench.harness;

import java.util.LinkedHashMap;
import java.util.Map;

/** Made-up lateness-burst results for the report's tests (the harness's constructors are package-private). */
public final class BurstFixtures {

    private BurstFixtures() {
    }

    /**
     * A result of {@code config} whose bursts have these per-burst p99s (ns), one burst each, 10 timers, the p50 half
     * the p99, none early or missing.
     */
    public static BurstLatenessHarness.Result result(BurstLatenessHarness.Config config, long[] timewheelP99s, long[] stpeP99s) {
        Map<BurstLatenessHarness.Kind, BurstLatenessHarness.Summary> kinds = new LinkedHashMap<>();
        kinds.put(BurstLatenessHarness.Kind.STPE, summary(BurstLatenessHarness.Kind.STPE, stpeP99s));
        kinds.put(BurstLatenessHarness.Kind.TIMEWHEEL, summary(BurstLatenessHarness.Kind.TIMEWHEEL, timewheelP99s));
        return new BurstLatenessHarness.Result(config, kinds, 0);
    }

    private static BurstLatenessHarness.Summary summary(BurstLatenessHarness.Kind kind, long[] p99s) {
        BurstLatenessHarness.Summary s = new BurstLatenessHarness.Summary(kind);
        for (int i = 0; i < p99s.length; i++) {
            s.bursts.add(new BurstLatenessHarness.Burst(kind, i, i, 10, p99s[i] / 2, p99s[i], p99s[i], 0, 0, 0));
        }
        return s;
    }
}
