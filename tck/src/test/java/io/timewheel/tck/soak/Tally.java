package io.timewheel.tck.soak;

import java.util.concurrent.atomic.LongAdder;

/** Outcome counts of a soak run, summed over its rounds. Any thread. */
final class Tally {
    final LongAdder ops = new LongAdder();            // public calls made by producers, the controller and tasks
    final LongAdder tasks = new LongAdder();          // tasks handed to an executor (accepted or rejected)
    final LongAdder periodic = new LongAdder();
    final LongAdder runs = new LongAdder();           // body runs, every task kind
    final LongAdder ran = new LongAdder();            // one-shot tasks that ran and completed
    final LongAdder cancelledByCaller = new LongAdder();
    final LongAdder startedAfterCancel = new LongAdder(); // FutureTask's race: started as a cancel returned true
    final LongAdder cancelledByExecutor = new LongAdder();
    final LongAdder failed = new LongAdder();         // completed exceptionally (the task threw)
    final LongAdder returned = new LongAdder();       // returned by shutdownNow
    final LongAdder removed = new LongAdder();        // taken out by remove / getQueue operations
    final LongAdder rejected = new LongAdder();
    final LongAdder executeNotRun = new LongAdder();  // execute()d commands that never ran (no future to ask)
    final LongAdder executors = new LongAdder();
    final LongAdder rounds = new LongAdder();

    String summary() {
        return String.format("rounds=%d executors=%d ops=%d tasks=%d (periodic %d) runs=%d | ran=%d "
                        + "cancelledByCaller=%d (startedAfterCancel %d) cancelledByExecutor=%d failed=%d "
                        + "returnedByShutdownNow=%d removed=%d rejected=%d executedNotRun=%d",
                rounds.sum(), executors.sum(), ops.sum(), tasks.sum(), periodic.sum(), runs.sum(), ran.sum(),
                cancelledByCaller.sum(), startedAfterCancel.sum(), cancelledByExecutor.sum(), failed.sum(), returned.sum(), removed.sum(),
                rejected.sum(), executeNotRun.sum());
    }
}
