package io.timewheel.bench.report;

/**
 * A target's verdict: met, missed, or not measured. Not measured is its own value so that a missing
 * figure (a JMH fork that failed, a peer left out, a harness that saw nothing) can never read as met.
 */
public enum Verdict {
    MET("met"),
    MISSED("MISSED"),
    NOT_MEASURED("not measured");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    /** What the report prints. */
    public String text() {
        return text;
    }

    /** {@code value <= limit}; NOT_MEASURED when either is NaN or infinite (the limit may be a figure too). */
    public static Verdict atMost(double value, double limit) {
        return !Double.isFinite(value) || !Double.isFinite(limit) ? NOT_MEASURED : value <= limit ? MET : MISSED;
    }

    /** {@code value < limit}; NOT_MEASURED when either is NaN or infinite. */
    public static Verdict below(double value, double limit) {
        return !Double.isFinite(value) || !Double.isFinite(limit) ? NOT_MEASURED : value < limit ? MET : MISSED;
    }

    /** {@code value >= goal}; NOT_MEASURED when either is NaN or infinite. */
    public static Verdict atLeast(double value, double goal) {
        return !Double.isFinite(value) || !Double.isFinite(goal) ? NOT_MEASURED : value >= goal ? MET : MISSED;
    }

    /**
     * Both parts of one target: MISSED if either missed (a miss on one figure is a miss whatever the other
     * says), else NOT_MEASURED if either was not measured, else MET.
     */
    public Verdict and(Verdict other) {
        return this == MISSED || other == MISSED ? MISSED : this == NOT_MEASURED || other == NOT_MEASURED ? NOT_MEASURED : MET;
    }
}
