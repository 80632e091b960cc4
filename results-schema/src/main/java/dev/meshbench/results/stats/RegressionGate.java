package dev.meshbench.results.stats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides, cell by cell (case, client step, metric), whether a run regressed against a baseline run, from the
 * repeats of each side. A cell is a {@link Status#REGRESSION} only when its change is worse than
 * {@code maxRegressionPercent} in the metric's bad direction (less throughput; more p99 latency or mesh CPU per
 * transaction) <em>and</em> beyond noise: Welch's verdict is {@link Comparison.Verdict#SIGNIFICANT}. When either side
 * has a single value there is no noise estimate, so the threshold alone decides, and the cell's message says so.
 * Cells present on one side only are reported ({@link Status#NOT_IN_CURRENT}, {@link Status#NOT_IN_BASELINE}), never
 * skipped in silence; they do not fail the build by themselves ({@link Result#missing()} lets a caller decide).
 *
 * @param maxRegressionPercent how much worse than the baseline a figure may get, percent, {@code >= 0}
 */
public record RegressionGate(double maxRegressionPercent) {
    /** Which way a metric gets better. */
    public enum Direction {
        HIGHER_IS_BETTER, LOWER_IS_BETTER
    }

    /** The figures the gate watches, with their direction and how they are printed. */
    public enum Metric {
        THROUGHPUT("throughput", "tx/s", Direction.HIGHER_IS_BETTER, 1),
        P99("p99", "ms", Direction.LOWER_IS_BETTER, 1),
        MESH_CPU_PER_TX("mesh CPU", "ms/tx", Direction.LOWER_IS_BETTER, 3);

        private final String label;
        private final String unit;
        private final Direction direction;
        private final int decimals;

        Metric(String label, String unit, Direction direction, int decimals) {
            this.label = label;
            this.unit = unit;
            this.direction = direction;
            this.decimals = decimals;
        }

        public String label() {
            return label;
        }

        public String unit() {
            return unit;
        }

        public Direction direction() {
            return direction;
        }

        /** How much worse a change of {@code changePercent} is, percent: positive when worse, negative when better. */
        public double worseningPercent(double changePercent) {
            return direction == Direction.HIGHER_IS_BETTER ? -changePercent : changePercent;
        }

        String format(double value) {
            return String.format(Locale.ROOT, "%." + decimals + "f", value);
        }
    }

    /**
     * One cell: a case, a client step and a metric.
     *
     * @param caseId  the case, e.g. {@code sni}
     * @param clients the step's client count, positive
     * @param metric  the figure
     */
    public record Key(String caseId, int clients, Metric metric) implements Comparable<Key> {
        public Key {
            if (caseId == null || caseId.isBlank()) {
                throw new IllegalArgumentException("caseId (" + (caseId == null ? "null" : "\"" + caseId + "\"")
                        + ") must not be blank");
            }
            if (clients <= 0) {
                throw new IllegalArgumentException("clients (" + clients + ") must be positive");
            }
            if (metric == null) {
                throw new IllegalArgumentException("metric is missing");
            }
        }

        /** By case, then client count, then metric. */
        @Override
        public int compareTo(Key o) {
            int c = caseId.compareTo(o.caseId);
            c = c != 0 ? c : Integer.compare(clients, o.clients);
            return c != 0 ? c : metric.compareTo(o.metric);
        }

        /** E.g. {@code sni @20 clients: throughput}. */
        @Override
        public String toString() {
            return caseId + " @" + clients + " clients: " + metric.label;
        }
    }

    /** The gate's decision on one cell. */
    public enum Status {
        /** Worse than allowed and beyond noise (or, with a single value on a side, worse than allowed). */
        REGRESSION,
        /** Not worse, worse within the threshold, or worse beyond it but within noise. */
        OK,
        /** In the baseline, not in the current run. */
        NOT_IN_CURRENT,
        /** In the current run, not in the baseline: nothing to compare with. */
        NOT_IN_BASELINE
    }

    /**
     * The decision on one cell.
     *
     * @param key        the cell
     * @param status     the decision
     * @param comparison current against baseline; {@code null} when the cell is on one side only
     * @param message    one line naming case, step, metric and both values, e.g. {@code sni @20 clients: throughput
     *                   612.3 tx/s (±14.2) vs baseline 701.0 tx/s (±9.8): -12.7%, beyond the 10% allowed and beyond
     *                   noise}
     */
    public record Cell(Key key, Status status, Comparison comparison, String message) {
    }

    /**
     * Every cell of both sides, ordered by {@link Key}.
     *
     * @param cells the decisions
     */
    public record Result(List<Cell> cells) {
        public Result {
            cells = List.copyOf(cells);
        }

        /** Whether the build must fail: some cell is a {@link Status#REGRESSION}. */
        public boolean fails() {
            return !regressions().isEmpty();
        }

        /** The cells that regressed. */
        public List<Cell> regressions() {
            return cells.stream().filter(c -> c.status() == Status.REGRESSION).toList();
        }

        /** The cells on one side only. */
        public List<Cell> missing() {
            return cells.stream()
                    .filter(c -> c.status() == Status.NOT_IN_CURRENT || c.status() == Status.NOT_IN_BASELINE).toList();
        }
    }

    public RegressionGate {
        if (!(maxRegressionPercent >= 0) || Double.isInfinite(maxRegressionPercent)) {
            throw new IllegalArgumentException("maxRegressionPercent (" + maxRegressionPercent + ") must be a finite "
                    + "number >= 0");
        }
    }

    /**
     * Decides every cell of {@code baseline} and {@code current}.
     *
     * @param baseline the baseline run's repeat values per cell (finite, {@code >= 0}, at least one per cell)
     * @param current  the current run's repeat values per cell
     * @throws IllegalArgumentException naming the side and cell of a bad value, or a baseline cell whose mean is 0
     */
    public Result check(Map<Key, List<Double>> baseline, Map<Key, List<Double>> current) {
        TreeSet<Key> keys = new TreeSet<>(keys("baseline", baseline));
        keys.addAll(keys("current", current));
        List<Cell> cells = new ArrayList<>();
        for (Key key : keys) {
            Sample b = baseline.containsKey(key) ? new Sample("baseline " + key, baseline.get(key)) : null;
            Sample c = current.containsKey(key) ? new Sample("current " + key, current.get(key)) : null;
            if (c == null) {
                cells.add(new Cell(key, Status.NOT_IN_CURRENT, null, key + ": in the baseline ("
                        + figure(b, key.metric()) + ") but not in this run"));
            } else if (b == null) {
                cells.add(new Cell(key, Status.NOT_IN_BASELINE, null, key + ": in this run ("
                        + figure(c, key.metric()) + ") but not in the baseline, nothing to compare with"));
            } else {
                cells.add(decide(key, new Comparison(b, c)));
            }
        }
        return new Result(cells);
    }

    private Cell decide(Key key, Comparison cmp) {
        double worse = key.metric().worseningPercent(cmp.changePercent());
        String allowed = "the " + BigDecimal.valueOf(maxRegressionPercent).stripTrailingZeros()
                .toPlainString() + "% allowed";
        boolean regression = false;
        String why;
        if (worse <= 0) {
            why = "not worse";
        } else if (worse <= maxRegressionPercent) {
            why = "worse, within " + allowed;
        } else {
            Comparison.Verdict verdict = cmp.verdict();
            regression = verdict != Comparison.Verdict.WITHIN_NOISE;
            why = "beyond " + allowed + switch (verdict) {
                case SIGNIFICANT -> " and beyond noise";
                case UNKNOWN -> "; a single value on a side gives no noise estimate, so the threshold alone decides";
                case WITHIN_NOISE -> String.format(Locale.ROOT, " but within noise (95%% interval of the change "
                        + "%+.1f%% to %+.1f%%)", cmp.changeInterval().lower(), cmp.changeInterval().upper());
            };
        }
        String message = String.format(Locale.ROOT, "%s %s vs baseline %s: %+.1f%%, %s", key,
                figure(cmp.candidate(), key.metric()), figure(cmp.baseline(), key.metric()), cmp.changePercent(), why);
        return new Cell(key, regression ? Status.REGRESSION : Status.OK, cmp, message);
    }

    private static Set<Key> keys(String side, Map<Key, List<Double>> cells) {
        if (cells == null) {
            throw new IllegalArgumentException(side + " is missing");
        }
        if (cells.keySet().stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException(side + " has a cell without a key");
        }
        return cells.keySet();
    }

    /** E.g. {@code 612.3 tx/s (±14.2)}, or {@code 612.3 tx/s} for a single value. */
    private static String figure(Sample s, Metric m) {
        Interval i = s.meanInterval();
        return m.format(i.estimate()) + " " + m.unit() + (i.isKnown() ? " (±" + m.format(i.halfWidth()) + ")" : "");
    }
}
