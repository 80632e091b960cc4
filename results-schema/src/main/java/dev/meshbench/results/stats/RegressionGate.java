package dev.meshbench.results.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Fails a build when a figure got worse than the baseline by more than a threshold and beyond noise: a step's
 * throughput fell, or its p99 or mesh CPU per transaction rose, by more than {@code maxRegressionPercent}, and the
 * change is {@link Comparison.Verdict#SIGNIFICANT} by Welch's t. With one repeat on either side there is no interval,
 * so the threshold alone decides (the message says so). Cells present on one side only are reported, never skipped
 * in silence.
 */
public final class RegressionGate {
    /** The figures the gate watches, and which way is worse. */
    public enum Metric {
        THROUGHPUT("throughput", "tx/s", false),
        P99("p99", "ms", true),
        MESH_CPU_PER_TX("mesh CPU", "ms/tx", true);

        private final String label;
        private final String unit;
        private final boolean higherIsWorse;

        Metric(String label, String unit, boolean higherIsWorse) {
            this.label = label;
            this.unit = unit;
            this.higherIsWorse = higherIsWorse;
        }

        public String label() {
            return label;
        }

        public String unit() {
            return unit;
        }

        /** How much worse a change in percent is: positive when worse. */
        double worsening(double changePercent) {
            return higherIsWorse ? changePercent : -changePercent;
        }
    }

    /** One case, step and metric. */
    public record Key(String caseId, int clients, Metric metric) implements Comparable<Key> {
        public Key {
            Objects.requireNonNull(caseId, "caseId");
            Objects.requireNonNull(metric, "metric");
        }

        @Override
        public int compareTo(Key o) {
            int c = caseId.compareTo(o.caseId);
            c = c != 0 ? c : Integer.compare(clients, o.clients);
            return c != 0 ? c : metric.compareTo(o.metric);
        }

        @Override
        public String toString() {
            return caseId + " @" + clients + " clients: " + metric.label;
        }
    }

    /** The gate's judgement of one cell. */
    public record Finding(Key key, Comparison comparison, boolean regression, String message) {
    }

    /**
     * @param findings every cell present on both sides, regressions first
     * @param missing  cells present on one side only, named
     */
    public record Result(List<Finding> findings, List<String> missing, double maxRegressionPercent) {
        /** True when the build must fail. */
        public boolean fails() {
            return findings.stream().anyMatch(Finding::regression);
        }

        public List<Finding> regressions() {
            return findings.stream().filter(Finding::regression).toList();
        }
    }

    private RegressionGate() {
    }

    public static Result check(Map<Key, Sample> baseline, Map<Key, Sample> current, double maxRegressionPercent) {
        if (!(maxRegressionPercent >= 0) || Double.isInfinite(maxRegressionPercent)) {
            throw new IllegalArgumentException("maxRegressionPercent (" + maxRegressionPercent + ") must be 0 or more");
        }
        List<Finding> regressions = new ArrayList<>();
        List<Finding> ok = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        TreeSet<Key> keys = new TreeSet<>(baseline.keySet());
        keys.addAll(current.keySet());
        for (Key k : keys) {
            Sample b = baseline.get(k);
            Sample c = current.get(k);
            if (b == null || c == null) {
                missing.add(k + (b == null ? ": not in the baseline" : ": in the baseline but not in this run"));
                continue;
            }
            Comparison cmp = new Comparison(b, c);
            double worse = k.metric().worsening(cmp.changePercent());
            Comparison.Verdict v = cmp.verdict();
            boolean beyondThreshold = worse > maxRegressionPercent;
            boolean regression = beyondThreshold && v != Comparison.Verdict.WITHIN_NOISE;
            String why;
            if (!beyondThreshold) {
                why = worse > 0 ? "worse, within the " + fmt(maxRegressionPercent) + "% allowed" : "not worse";
            } else if (v == Comparison.Verdict.WITHIN_NOISE) {
                why = "beyond the " + fmt(maxRegressionPercent) + "% allowed but within noise";
            } else if (v == Comparison.Verdict.SIGNIFICANT) {
                why = "beyond the " + fmt(maxRegressionPercent) + "% allowed and beyond noise";
            } else {
                why = "beyond the " + fmt(maxRegressionPercent) + "% allowed (one repeat on a side: no noise estimate)";
            }
            String message = String.format(Locale.ROOT, "%s %s %s vs baseline %s %s: %+.1f%%, %s", k, figure(c),
                    k.metric().unit(), figure(b), k.metric().unit(), cmp.changePercent(), why);
            (regression ? regressions : ok).add(new Finding(k, cmp, regression, message));
        }
        List<Finding> all = new ArrayList<>(regressions);
        all.addAll(ok);
        return new Result(all, missing, maxRegressionPercent);
    }

    private static String figure(Sample s) {
        return s.intervalKnown() ? String.format(Locale.ROOT, "%.1f (±%.1f)", s.mean(), s.halfWidth95())
                : String.format(Locale.ROOT, "%.1f", s.mean());
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
