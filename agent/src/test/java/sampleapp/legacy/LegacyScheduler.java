package sampleapp.legacy;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/** Constructs an STPE from a package the integration tests exclude. */
public final class LegacyScheduler {

    private LegacyScheduler() {
    }

    public static ScheduledThreadPoolExecutor create() {
        return new ScheduledThreadPoolExecutor(1);
    }
}
