package io.timewheel.executor;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An accepted task either runs or is cancelled, even when the pool terminates while it goes in (issue 26's
 * "never lost" outcome). The real race: a shutdown's tryTerminate finds the queue empty, the producer (whose
 * isShutdown check came before the shutdown) queues its due task, canRunInCurrentRunState still sees
 * SHUTDOWN, and then tryTerminate's CAS to TIDYING beats ensurePrestart's addWorker. Its window is a few
 * instructions wide (jcstress ScheduleVsShutdown has not hit it), so this test puts the producer's view in
 * that state deterministically instead: the executor's public isShutdown(), which the schedule path calls
 * virtually as STPE's does, answers as it did before the shutdown, and the pool terminated meanwhile. STPE
 * leaves such a task queued in a terminated pool for ever (the tck's ShutdownTest shows it on the JDK).
 */
class TerminationRaceTest {

    /** An executor whose isShutdown() answers as before the shutdown while {@code stale} is set. */
    static final class StaleView extends WheelScheduledExecutorService {
        volatile boolean stale;

        StaleView() {
            super(1);
        }

        @Override
        public boolean isShutdown() {
            return !stale && super.isShutdown();
        }
    }

    @Test
    void aDueTaskQueuedAsThePoolTerminated_isCancelled_notLeftQueued() throws Exception {
        StaleView e = new StaleView();
        e.shutdown(); // no worker, empty queue: terminates in this call
        assertTrue(e.isTerminated());
        e.stale = true;
        ScheduledFuture<?> f = e.schedule(() -> { }, 0, NANOSECONDS); // passes both run-state checks
        e.stale = false;
        assertTrue(f.isCancelled(), "accepted into a terminated pool and neither run nor cancelled");
        assertThrows(CancellationException.class, () -> f.get(10, TimeUnit.SECONDS));
        assertEquals(0, e.getQueue().size());
        assertTrue(e.isTerminated());
    }

    @Test
    void aDelayedTaskQueuedAsThePoolTerminated_isCancelled_notLeftQueued() throws Exception {
        StaleView e = new StaleView();
        e.shutdown();
        e.stale = true;
        ScheduledFuture<?> f = e.schedule(() -> { }, 1, TimeUnit.HOURS); // through the tick thread
        e.stale = false;
        assertTrue(f.isCancelled(), "accepted into a terminated pool and neither run nor cancelled");
        assertEquals(0, e.getQueue().size());
    }
}
