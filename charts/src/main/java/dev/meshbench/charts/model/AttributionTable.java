package dev.meshbench.charts.model;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.stats.Comparison;
import dev.meshbench.results.stats.Interval;
import dev.meshbench.results.stats.MeanDifference;
import dev.meshbench.results.stats.NoiseFloor;
import dev.meshbench.results.stats.Sample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * "Where the cost differs": mesh CPU per transaction at the report's step split into the MongoDB path, where the
 * cases differ, and the parts every case shares ({@link MeshPart}, from each step's
 * {@link dev.meshbench.results.StepCpu#attribution()}), per case with its change against bypass of the same data
 * plane, and the noise floor each data plane's runs measured. The totals of the headline comparison add up both
 * sides, so noise in the shared parts can reorder the cases there; here it cannot.
 *
 * @param clients the report's step (client count)
 * @param lines   one per case and data plane, in report order (data plane, then the kit's case order)
 * @param noise   one per data plane, in report order
 */
public record AttributionTable(int clients, List<Line> lines, List<Noise> noise) {
    /** The relative difference the report says how many repeats it takes to see: 10%. */
    public static final double SUGGESTED_DIFFERENCE = 0.10;
    /** Noise assumed in the hint for a sitting of one repeat: shared parts moving 5% between repeats. */
    public static final double EXAMPLE_NOISE = 0.05;

    public AttributionTable {
        lines = List.copyOf(lines);
        noise = List.copyOf(noise);
    }

    /**
     * A figure of a case over its attributed runs.
     *
     * @param value  CPU ms per transaction: mean, lowest and highest run, and the mean's 95% interval
     * @param change the change of the mean against bypass of the same data plane, ms per transaction, with its 95%
     *               interval by Welch's t (unknown with one run on a side); {@code null} for bypass itself and where
     *               there is no bypass to compare with
     * @param points {@code change} in points: percent of bypass's mean mesh CPU per transaction on the same data
     *               plane (taken as exact); {@code null} where {@code change} is
     */
    public record Figure(Spread value, Interval change, Interval points) {
        /** Whether the change is beyond noise; {@code null} without a change. */
        public Comparison.Verdict verdict() {
            if (change == null) {
                return null;
            }
            return !change.isKnown() ? Comparison.Verdict.UNKNOWN
                    : change.contains(0) ? Comparison.Verdict.WITHIN_NOISE : Comparison.Verdict.SIGNIFICANT;
        }
    }

    /**
     * A case on a data plane.
     *
     * @param summary         the case and its runs
     * @param baseline        whether it is its data plane's bypass, has one with an attribution, or has none
     * @param runs            its runs with an attribution at the step (the figures' repeats)
     * @param parts           one figure per {@link MeshPart}, in its order; empty when {@code absent}
     * @param mongoPath       the MongoDB path (the sum of {@link MeshPart#side(boolean) side(true)}); {@code null}
     *                        when {@code absent}
     * @param shared          the shared parts; {@code null} when {@code absent}
     * @param absent          why the case has no attribution at the step; {@code null} when it has
     */
    public record Line(CaseSummary summary, ReportTables.Baseline baseline, int runs, Map<MeshPart, Figure> parts,
            Figure mongoPath, Figure shared, String absent) {
        public Line {
            parts = parts.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(parts));
        }

        /** Whether the case has figures. */
        public boolean attributed() {
            return absent == null;
        }

        /**
         * The MongoDB path's change against bypass in points, percent of bypass's mean mesh CPU per transaction, with
         * its 95% interval; {@code null} for bypass, without a bypass, or when {@code absent}.
         */
        public Interval mongoPathPoints() {
            return mongoPath == null ? null : mongoPath.points();
        }
    }

    /**
     * How much the parts every case shares moved between repeats on one data plane, from which the sitting's
     * resolution follows.
     *
     * @param dataPlane the data plane's label
     * @param floor     the pooled relative standard deviation of the shared parts' CPU per transaction
     *                  ({@link MeshPart#side(boolean) side(false)}) over the repeats of each case; {@code null} when no
     *                  case has two attributed runs
     * @param repeats   the fewest attributed runs of a case on the data plane (0 when none)
     * @param runs      the attributed runs on the data plane
     * @param cases     the cases with attributed runs
     */
    public record Noise(String dataPlane, NoiseFloor floor, int repeats, int runs, int cases) {
        /** The smallest relative difference a 95% interval tells from 0 with {@link #repeats}; NaN without one. */
        public double detectableDifference() {
            return floor == null || repeats < 2 ? Double.NaN : floor.detectableDifference(repeats);
        }

        /**
         * The repeats per case for a {@link #SUGGESTED_DIFFERENCE} difference ({@link NoiseFloor#repeatsFor}); 0
         * without a noise floor.
         */
        public int repeatsForSuggested() {
            return floor == null ? 0 : floor.repeatsFor(SUGGESTED_DIFFERENCE);
        }

        /** As {@link #repeatsForSuggested()} by the normal formula alone ({@link NoiseFloor#normalRepeatsFor}). */
        public int normalRepeatsForSuggested() {
            return floor == null ? 0 : floor.normalRepeatsFor(SUGGESTED_DIFFERENCE);
        }
    }

    /** The table of {@code m} at its client count. */
    public static AttributionTable of(ReportModel m) {
        Map<CaseSummary, Values> values = new LinkedHashMap<>();
        for (CaseSummary c : m.cases()) {
            values.put(c, Values.of(c, m.clients()));
        }
        List<Line> lines = new ArrayList<>();
        for (CaseSummary c : m.cases()) {
            lines.add(line(m, c, values));
        }
        List<Noise> noise = new ArrayList<>();
        for (String plane : m.dataPlanes()) {
            List<Values> planeValues = values.entrySet().stream().filter(e -> e.getKey().dataPlane().equals(plane))
                    .map(Map.Entry::getValue).filter(v -> v.runs() > 0).toList();
            List<Sample> shared = new ArrayList<>();
            for (Values v : planeValues) {
                for (MeshPart p : MeshPart.side(false)) {
                    shared.add(new Sample(p.label(), v.parts().get(p)));
                }
            }
            noise.add(new Noise(plane, NoiseFloor.pooled(shared),
                    planeValues.stream().mapToInt(Values::runs).min().orElse(0),
                    planeValues.stream().mapToInt(Values::runs).sum(), planeValues.size()));
        }
        return new AttributionTable(m.clients(), lines, noise);
    }

    /**
     * A short summary per data plane for a console, e.g. {@code MongoDB-path CPU at 20 clients, envoy (change in
     * points of bypass's mesh CPU/tx): bypass 0.000 ms/tx, sidecar 0.052 ms/tx (+5.8 ± 1.2 pts), ...}.
     */
    public List<String> summary() {
        List<String> out = new ArrayList<>();
        for (Noise n : noise) {
            List<Line> plane = lines.stream().filter(l -> l.summary().dataPlane().equals(n.dataPlane())).toList();
            if (plane.stream().noneMatch(Line::attributed)) {
                out.add("MongoDB-path CPU at " + clients + " clients, " + n.dataPlane() + ": not attributed ("
                        + plane.stream().flatMap(l -> Arrays.stream(l.absent().split("; "))).distinct()
                                .collect(Collectors.joining("; ")) + ")");
                continue;
            }
            String cases = plane.stream().map(l -> l.summary().caseId() + " " + (!l.attributed() ? "n/a"
                    : String.format(Locale.ROOT, "%.3f ms/tx", l.mongoPath().value().mean())
                            + (l.mongoPathPoints() == null ? "" : " (" + signed(l.mongoPathPoints()) + " pts"
                                    + (l.mongoPathPoints().isKnown() ? "" : ", one run") + ")")))
                    .collect(Collectors.joining(", "));
            out.add("MongoDB-path CPU at " + clients + " clients, " + n.dataPlane() + " (change in points of "
                    + ResultsSchema.BASELINE_CASE + "'s mesh CPU/tx): " + cases);
        }
        return out;
    }

    /** A change with its 95% interval, one decimal: {@code +5.8 ± 1.2}, or {@code +5.8} without an interval. */
    public static String signed(Interval i) {
        String estimate = Math.abs(i.estimate()) < 0.05 ? "0.0" : String.format(Locale.ROOT, "%+.1f", i.estimate());
        return i.isKnown() ? estimate + String.format(Locale.ROOT, " \u00b1 %.1f", i.halfWidth()) : estimate;
    }

    private static Line line(ReportModel m, CaseSummary c, Map<CaseSummary, Values> values) {
        Values v = values.get(c);
        CaseSummary bypass = m.baseline(c.dataPlane());
        Values base = bypass == null ? null : values.get(bypass);
        boolean isBase = c.caseId().equals(ResultsSchema.BASELINE_CASE);
        boolean compared = !isBase && base != null && base.runs() > 0;
        ReportTables.Baseline b = isBase ? ReportTables.Baseline.IS_BASELINE
                : compared ? ReportTables.Baseline.PRESENT : ReportTables.Baseline.MISSING;
        if (v.runs() == 0) {
            return new Line(c, b, 0, Map.of(), null, null, whyAbsent(c, m.clients()));
        }
        Values against = compared ? base : null;
        Map<MeshPart, Figure> parts = new EnumMap<>(MeshPart.class);
        for (MeshPart p : MeshPart.values()) {
            parts.put(p, figure(v, against, x -> x.parts().get(p)));
        }
        return new Line(c, b, v.runs(), parts, figure(v, against, Values::mongoPath), figure(v, against, Values::shared),
                null);
    }

    /** {@code figure} of {@code v}, compared with {@code bypass} unless that is {@code null}. */
    private static Figure figure(Values v, Values bypass, Function<Values, List<Double>> figure) {
        if (bypass == null) {
            return new Figure(Spread.of(figure.apply(v)), null, null);
        }
        MeanDifference d = new MeanDifference(new Sample(figure.apply(bypass)), new Sample(figure.apply(v)));
        double bypassMesh = new Sample(bypass.mesh()).mean();
        return new Figure(Spread.of(figure.apply(v)), d.interval(), bypassMesh > 0 ? d.inPercentOf(bypassMesh) : null);
    }

    /**
     * Why no run of {@code c} has an attribution at {@code clients}, from what its results show: no such step, no
     * CPU, no transactions, a run on Kubernetes without counters (an older kit), a bypass run converted before the split
     * (which needs no counter), no counters, or counters without bytes per listener.
     */
    static String whyAbsent(CaseSummary c, int clients) {
        Set<String> why = new LinkedHashSet<>();
        for (LoadedRun r : c.runs()) {
            Optional<StepResult> step = r.results().step(clients);
            if (step.isEmpty()) {
                why.add("no run measured " + clients + " clients");
            } else if (step.get().cpu() == null) {
                why.add("no CPU samples");
            } else if (step.get().transactions() == 0) {
                why.add("no transactions");
            } else if (r.results().inputs().target() == TargetKind.KUBERNETES && step.get().work() == null) {
                why.add("the run on kubernetes recorded no work counters (a kit that did not yet read its sidecars' bytes)");
            } else if (r.caseId().equals(ResultsSchema.BASELINE_CASE)) {
                // bypass needs no counter: its results.json predates the split
                why.add("bypass converted before the split: convert it again");
            } else if (step.get().work() == null) {
                why.add("no " + ResultsSchema.COUNTERS_FILE);
            } else {
                why.add("counters without bytes per listener of every sidecar");
            }
        }
        return String.join("; ", why);
    }

    /** Whether a step's mesh CPU is split into the MongoDB path and the shared parts (and it had transactions). */
    static boolean attributed(StepResult s) {
        return s.cpu() != null && s.cpu().attribution() != null && s.transactions() > 0;
    }

    /** A step's MongoDB-path mesh CPU per transaction, ms; {@code null} when the step is not {@link #attributed}. */
    static Double mongoPathPerTransaction(StepResult s) {
        return attributed(s) ? s.cpu().attribution().mongoPath().cpuMsPerTransaction() : null;
    }

    /** A step's mesh CPU per transaction, ms; {@code null} without. */
    static Double meshPerTransaction(StepResult s) {
        return s.cpu() == null || s.cpu().mesh() == null ? null : s.cpu().mesh().cpuMsPerTransaction();
    }

    /** The per-run figures of a case's attributed runs at one step, ms per transaction. */
    private record Values(int runs, Map<MeshPart, List<Double>> parts, List<Double> mongoPath, List<Double> shared,
            List<Double> mesh) {
        static Values of(CaseSummary c, int clients) {
            List<StepResult> steps = c.runs().stream().map(r -> r.results().step(clients)).flatMap(Optional::stream)
                    .filter(AttributionTable::attributed).toList();
            Map<MeshPart, List<Double>> parts = new EnumMap<>(MeshPart.class);
            for (MeshPart p : MeshPart.values()) {
                parts.put(p, steps.stream().map(s -> p.cpuMillis(s.cpu()) / s.transactions()).toList());
            }
            return new Values(steps.size(), parts,
                    perTransaction(steps, AttributionTable::mongoPathPerTransaction),
                    perTransaction(steps, s -> s.cpu().attribution().shared().cpuMsPerTransaction()),
                    perTransaction(steps, AttributionTable::meshPerTransaction));
        }

        private static List<Double> perTransaction(List<StepResult> steps, Function<StepResult, Double> figure) {
            return steps.stream().map(figure).filter(Objects::nonNull).toList();
        }
    }
}
