package io.timewheel.bench.report;

/** One target: the goal, what was measured for it, the verdict and, where it helps, why (an immutable value). */
public final class Target {

    public final String goal;
    /** The figures behind the verdict, or "-" when there are none. */
    public final String measured;
    public final Verdict verdict;
    /** Why the verdict, in a few words (which figure is missing, what went wrong), or "". */
    public final String why;

    public Target(String goal, String measured, Verdict verdict, String why) {
        this.goal = goal;
        this.measured = measured;
        this.verdict = verdict;
        this.why = why == null ? "" : why;
    }

    public Target(String goal, String measured, Verdict verdict) {
        this(goal, measured, verdict, "");
    }

    static Target notMeasured(String goal, String why) {
        return new Target(goal, "-", Verdict.NOT_MEASURED, why);
    }

    /** The verdict cell: "met", "MISSED (3 never ran)", "not measured (no figure for netty-100ms)". */
    public String verdictText() {
        return verdict.text() + (why.isEmpty() ? "" : " (" + why + ")");
    }

    @Override
    public String toString() {
        return goal + ": " + measured + ": " + verdictText();
    }
}
