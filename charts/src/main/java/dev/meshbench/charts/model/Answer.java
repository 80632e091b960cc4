package dev.meshbench.charts.model;

import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.SittingInfo;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.stats.Comparison;
import dev.meshbench.results.stats.Interval;
import dev.meshbench.results.stats.MeanDifference;
import dev.meshbench.results.stats.PairedDifference;
import dev.meshbench.results.stats.Sample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The report's answer, one sentence per case other than bypass on each data plane: how much mesh CPU per transaction
 * its MongoDB path costs against bypass (ms per transaction and points of bypass's mesh CPU per transaction), how its
 * P99 and P50 response time changed against bypass (ms), each with the 95% half-width over rounds, and from how many
 * rounds. The page opens with it, the console prints it first and {@code answer.csv} holds it.
 *
 * <p>Runs are compared with bypass <b>paired by round</b>: the run of round r of sitting S against bypass's run of round
 * r of S ({@link SittingInfo}); runs that recorded no sitting (results schema 6 and older) pair by
 * {@code measurement.repeat}. Each figure is the mean of the per-round differences with its interval by Student's t on
 * n - 1 degrees of freedom ({@link PairedDifference}). Runs that recorded no round at all, or two runs of a case in the
 * same round, cannot be paired: their figures compare the means with Welch's t ({@link MeanDifference}), as the tables
 * below the answer do, and the sentence says so. An interval that includes 0 is said to be not distinguishable from
 * noise at the sitting's precision, with its bounds, and no sign; one round gives the differences and no interval.
 *
 * @param clients the report's step (client count)
 * @param planes  one per data plane, in report order
 */
public record Answer(int clients, List<Plane> planes) {
    /** The words for a difference whose 95% interval includes 0. */
    public static final String WITHIN_NOISE = "not distinguishable from noise";

    public Answer {
        planes = List.copyOf(planes);
    }

    /** How a case's runs were set against bypass's. */
    public enum Pairing {
        /** The run of round r of a sitting against bypass's run of round r of the same sitting. */
        ROUND,
        /** Runs without a sitting record: the run of repeat r against bypass's run of repeat r. */
        REPEAT,
        /** No round to pair by: the means compared (Welch's t). */
        UNPAIRED
    }

    /**
     * A figure's change against bypass.
     *
     * @param value  the change in the figure's unit (ms per transaction, ms) with its 95% interval (unknown with one
     *               round, or one run on a side when unpaired)
     * @param points the change in points of bypass's mean mesh CPU per transaction (the MongoDB path only, taken as
     *               exact); {@code null} otherwise
     * @param n      the rounds (pairs) it is computed from; when unpaired, the case's runs
     */
    public record Change(Interval value, Interval points, int n) {
        /** Beyond noise, within it, or unknown (no interval). */
        public Comparison.Verdict verdict() {
            return !value.isKnown() ? Comparison.Verdict.UNKNOWN
                    : value.contains(0) ? Comparison.Verdict.WITHIN_NOISE : Comparison.Verdict.SIGNIFICANT;
        }
    }

    /**
     * One case on one data plane against bypass of the same data plane.
     *
     * @param summary         the case's runs
     * @param pairing         how its runs were set against bypass's; {@code null} when not compared
     * @param pairs           the rounds compared (pairs of runs); when unpaired, 0
     * @param caseRuns        the case's runs compared
     * @param bypassRuns      bypass's runs compared
     * @param sittings        the sittings the compared runs came from, sorted
     * @param mongoPath       its MongoDB path's mesh CPU per transaction against bypass's; {@code null} when not
     *                        attributed
     * @param mongoPathAbsent why the MongoDB path has no figure; {@code null} when it has one
     * @param p99             its P99 against bypass's, ms; {@code null} when not measured
     * @param p50             its P50 (median) against bypass's, ms; {@code null} when not measured
     * @param notCompared     why the case is not compared with bypass (no bypass run on the data plane, or none in
     *                        its sitting); {@code null} when it is
     * @param gaps            the rounds of the case that have no bypass run to pair with, in words (the sentence also
     *                        names a compared window that did not hold its fixed rate)
     * @param unpairedWhy     why the runs could not be paired; {@code null} when they were
     * @param text            the sentence after the case's name, e.g. {@code +0.263 ± 0.012 ms of mesh CPU per
     *                        transaction on the MongoDB path (+30.2 ± 1.4 points of bypass's mesh CPU per transaction),
     *                        P99 +1.7 ± 0.6 ms, P50 +0.3 ± 0.1 ms, from 3 rounds.}
     */
    public record Sentence(CaseSummary summary, Pairing pairing, int pairs, int caseRuns, int bypassRuns,
            List<String> sittings, Change mongoPath, String mongoPathAbsent, Change p99, Change p50, String notCompared,
            List<String> gaps, String unpairedWhy, String text) {
        public Sentence {
            sittings = List.copyOf(sittings);
            gaps = List.copyOf(gaps);
        }

        /** The case. */
        public String caseId() {
            return summary.caseId();
        }

        /** The whole sentence: {@code sni: ...}. */
        public String line() {
            return caseId() + ": " + text;
        }
    }

    /**
     * A data plane's answer.
     *
     * @param dataPlane the data plane's label
     * @param heading   what was compared, how: e.g. {@code envoy, fixed rate 120 req/s (calibrated), 20 clients,
     *                  switched sitting 20261129-101500-sitting (3 rounds)}
     * @param sentences one per case other than bypass, in report order; empty when only bypass ran
     */
    public record Plane(String dataPlane, String heading, List<Sentence> sentences) {
        public Plane {
            sentences = List.copyOf(sentences);
        }
    }

    /** The answer of {@code m} at its client count. */
    public static Answer of(ReportModel m) {
        List<Plane> planes = new ArrayList<>();
        for (String plane : m.dataPlanes()) {
            List<CaseSummary> cases = m.cases().stream().filter(c -> c.dataPlane().equals(plane)).toList();
            CaseSummary bypass = m.baseline(plane);
            List<Sentence> sentences = cases.stream().filter(c -> !isBaseline(c))
                    .map(c -> sentence(c, bypass, m.clients())).toList();
            planes.add(new Plane(plane, heading(plane, cases, m), sentences));
        }
        return new Answer(m.clients(), planes);
    }

    /**
     * What a console prints, per data plane: the heading and then each sentence, e.g.
     * <pre>
     * envoy, fixed rate 120 req/s (calibrated), 20 clients, switched sitting S (3 rounds), against bypass:
     *   sni: +0.263 ± 0.012 ms of mesh CPU per transaction on the MongoDB path (...), P99 ..., from 3 rounds.
     * </pre>
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Plane p : planes) {
            out.add(p.heading() + ", against " + ResultsSchema.BASELINE_CASE + ":");
            if (p.sentences().isEmpty()) {
                out.add("  only " + ResultsSchema.BASELINE_CASE + " ran: nothing to compare.");
            }
            p.sentences().forEach(s -> out.add("  " + s.line()));
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------------------- heading

    private static String heading(String plane, List<CaseSummary> cases, ReportModel m) {
        List<LoadedRun> runs = cases.stream().flatMap(c -> c.runs().stream()).toList();
        Set<String> rates = new LinkedHashSet<>();
        boolean calibrated = false;
        boolean closedLoop = false;
        for (LoadedRun r : runs) {
            Double rate = targetRate(r, m.clients());
            if (rate == null) {
                closedLoop = true;
            } else {
                rates.add(plain(rate));
            }
            calibrated |= r.results().inputs().measurementOrDefault().calibration() != null;
        }
        String load;
        if (rates.isEmpty()) {
            load = "closed loop";
        } else {
            load = "fixed rate" + (rates.size() > 1 ? "s " : " ") + String.join(", ", rates) + " req/s"
                    + (calibrated ? " (calibrated)" : "") + (closedLoop ? " and closed loop" : "");
        }
        Map<String, String> methods = new TreeMap<>();
        Map<String, Integer> rounds = new TreeMap<>();
        boolean unrecorded = false;
        for (LoadedRun r : runs) {
            SittingInfo s = SittingTable.sitting(r);
            if (s == null) {
                unrecorded = true;
                continue;
            }
            methods.put(s.id(), s.method());
            rounds.merge(s.id(), s.round(), Math::max);
        }
        String sittings;
        if (methods.isEmpty()) {
            sittings = "no sitting recorded (each run deployed its case)";
        } else {
            List<String> each = methods.keySet().stream().map(id -> methods.get(id) + " sitting " + id + " ("
                    + count(rounds.get(id), "round") + ")").toList();
            sittings = each.size() == 1 ? each.get(0) : each.size() + " sittings: " + String.join(", ", each);
            if (unrecorded) {
                sittings += ", and runs without a sitting record";
            }
        }
        return plane + ", " + load + ", " + m.clients() + " clients, " + sittings;
    }

    /** The step's fixed rate at {@code clients}, req/s; {@code null} for a closed loop. */
    public static Double targetRate(LoadedRun r, int clients) {
        StepResult s = r.results().step(clients).orElse(null);
        if (s != null && s.rate() != null) {
            return s.rate().targetPerSecond();
        }
        List<Double> rates = r.results().inputs().measurementOrDefault().targetRatePerSecond();
        int i = r.results().inputs().clientSteps().indexOf(clients);
        return i >= 0 && i < rates.size() ? rates.get(i) : null;
    }

    // --------------------------------------------------------------------------------------------------- sentence

    /** A round to pair by: a sitting's round, or (without a sitting) a repeat. */
    private record Round(String sitting, int round) {
        @Override
        public String toString() {
            return sitting == null ? "repeat " + round : "round " + round + " of sitting " + sitting;
        }
    }

    private static Round round(LoadedRun r) {
        SittingInfo s = SittingTable.sitting(r);
        if (s != null) {
            return new Round(s.id(), s.round());
        }
        Integer repeat = r.results().inputs().measurementOrDefault().repeat();
        return repeat == null ? null : new Round(null, repeat);
    }

    private static Sentence sentence(CaseSummary c, CaseSummary bypass, int clients) {
        List<LoadedRun> runs = withStep(c, clients);
        if (bypass == null) {
            return notCompared(c, "no " + ResultsSchema.BASELINE_CASE + " run on this data plane, so no comparison");
        }
        List<LoadedRun> base = withStep(bypass, clients);
        if (runs.isEmpty() || base.isEmpty()) {
            return notCompared(c, "no run " + (runs.isEmpty() ? "of it" : "of " + ResultsSchema.BASELINE_CASE)
                    + " measured " + clients + " clients, so no comparison");
        }
        String unpairedWhy = unpairable(c.caseId(), runs, base);
        if (unpairedWhy != null) {
            return unpaired(c, bypass, runs, base, clients, unpairedWhy);
        }
        Map<Round, LoadedRun> byRound = new LinkedHashMap<>();
        base.forEach(r -> byRound.put(round(r), r));
        List<LoadedRun[]> pairs = new ArrayList<>();
        List<String> gaps = new ArrayList<>();
        for (LoadedRun r : runs) {
            LoadedRun b = byRound.get(round(r));
            if (b == null) {
                gaps.add(round(r) + " has no " + ResultsSchema.BASELINE_CASE + " run");
            } else {
                pairs.add(new LoadedRun[] {r, b});
            }
        }
        Set<String> bypassSittings = base.stream().map(r -> round(r).sitting()).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        if (pairs.isEmpty()) {
            List<String> lonely = runs.stream().map(r -> round(r).sitting()).filter(Objects::nonNull).distinct()
                    .filter(s -> !bypassSittings.contains(s)).sorted().toList();
            if (!lonely.isEmpty()) {
                return notCompared(c, "no " + ResultsSchema.BASELINE_CASE + " run in its sitting"
                        + (lonely.size() == 1 ? " " : "s ") + String.join(", ", lonely) + ", so no comparison (a "
                        + ResultsSchema.BASELINE_CASE + " run of another sitting is not paired with it)");
            }
            if (runs.stream().anyMatch(r -> round(r).sitting() != null)) {
                return notCompared(c, "no " + ResultsSchema.BASELINE_CASE + " run in the same round of its sitting, so "
                        + "no comparison");
            }
            return unpaired(c, bypass, runs, base, clients, "no " + ResultsSchema.BASELINE_CASE
                    + " run has the same repeat");
        }
        Pairing pairing = pairs.stream().allMatch(p -> round(p[0]).sitting() != null) ? Pairing.ROUND : Pairing.REPEAT;
        List<String> sittings = pairs.stream().map(p -> round(p[0]).sitting()).filter(Objects::nonNull).distinct()
                .sorted().toList();
        Change mongo = paired(pairs, clients, Answer::mongoPath, true);
        Change p99 = paired(pairs, clients, s -> s.latencyMs() == null ? null : (double) s.latencyMs().p99(), false);
        Change p50 = paired(pairs, clients, s -> s.latencyMs() == null ? null : (double) s.latencyMs().median(), false);
        String absent = mongo != null ? null : mongoAbsent(c, bypass, clients);
        String precision = sittings.size() == 1 && pairing == Pairing.ROUND ? "this sitting's" : "these runs'";
        List<String> parts = figures(mongo, absent, p99, p50, precision, "round");
        String from = "from " + count(pairs.size(), "round") + (pairing == Pairing.REPEAT ? " (paired by repeat)" : "");
        if (pairs.size() == 1) {
            from += " (one round: no interval)";
        }
        List<String> notes = new ArrayList<>(gaps);
        int busy = 0;
        for (LoadedRun[] p : pairs) {
            for (LoadedRun r : p) {
                StepResult step = r.results().step(clients).orElseThrow();
                if (step.rateNotHeld()) {
                    notes.add("the " + r.caseId() + " window of " + round(r) + " did not hold its rate");
                }
                if (step.busiestJit(r.results().inputs().measurementOrDefault()).isPresent()) {
                    busy++;
                }
            }
        }
        if (busy > 0) {
            notes.add(busy + " of the " + 2 * pairs.size() + " windows compared had a JVM still compiling (JIT busy)");
        }
        if (!notes.isEmpty()) {
            from += "; " + String.join("; ", notes);
        }
        parts.add(from);
        return new Sentence(c, pairing, pairs.size(), pairs.size(), pairs.size(), sittings, mongo, absent, p99, p50,
                null, gaps, null, String.join(", ", parts) + ".");
    }

    /** Why the runs cannot be paired by round, or {@code null} when they can. */
    private static String unpairable(String caseId, List<LoadedRun> runs, List<LoadedRun> base) {
        for (List<LoadedRun> side : List.of(runs, base)) {
            String name = side == runs ? caseId : ResultsSchema.BASELINE_CASE;
            Map<Round, String> seen = new HashMap<>();
            for (LoadedRun r : side) {
                Round k = round(r);
                if (k == null) {
                    return "run " + r.runId() + " recorded no round";
                }
                String earlier = seen.putIfAbsent(k, r.runId());
                if (earlier != null) {
                    return "runs " + earlier + " and " + r.runId() + " of " + name + " are both " + k;
                }
            }
        }
        return null;
    }

    private static Sentence unpaired(CaseSummary c, CaseSummary bypass, List<LoadedRun> runs, List<LoadedRun> base,
            int clients, String why) {
        Change mongo = unpaired(runs, base, clients, Answer::mongoPath, true);
        Change p99 = unpaired(runs, base, clients, s -> s.latencyMs() == null ? null : (double) s.latencyMs().p99(), false);
        Change p50 = unpaired(runs, base, clients, s -> s.latencyMs() == null ? null : (double) s.latencyMs().median(),
                false);
        String absent = mongo != null ? null : mongoAbsent(c, bypass, clients);
        List<String> parts = figures(mongo, absent, p99, p50, "these runs'", "run");
        String from = "from " + count(runs.size(), "run") + " of " + c.caseId() + " and " + base.size() + " of "
                + ResultsSchema.BASELINE_CASE + ", unpaired (" + why + ": the means compared by Welch's t"
                + (runs.size() < 2 || base.size() < 2 ? "; one run on a side: no interval)" : ")");
        parts.add(from);
        List<String> sittings = runs.stream().map(r -> round(r) == null ? null : round(r).sitting())
                .filter(Objects::nonNull).distinct().sorted().toList();
        return new Sentence(c, Pairing.UNPAIRED, 0, runs.size(), base.size(), sittings, mongo, absent, p99, p50, null,
                List.of(), why, String.join(", ", parts) + ".");
    }

    private static Sentence notCompared(CaseSummary c, String why) {
        return new Sentence(c, null, 0, c.runs().size(), 0, List.of(), null, null, null, null, why, List.of(), null,
                why + ".");
    }

    /** The paired change of {@code figure} over the pairs where both runs have it; {@code null} where none has. */
    private static Change paired(List<LoadedRun[]> pairs, int clients, Function<StepResult, Double> figure,
            boolean points) {
        List<Double> cand = new ArrayList<>();
        List<Double> base = new ArrayList<>();
        List<Double> bypassMesh = new ArrayList<>();
        for (LoadedRun[] p : pairs) {
            StepResult c = p[0].results().step(clients).orElseThrow();
            StepResult b = p[1].results().step(clients).orElseThrow();
            Double cv = figure.apply(c);
            Double bv = figure.apply(b);
            if (cv != null && bv != null) {
                cand.add(cv);
                base.add(bv);
                Double mesh = AttributionTable.meshPerTransaction(b);
                if (mesh != null) {
                    bypassMesh.add(mesh);
                }
            }
        }
        if (cand.isEmpty()) {
            return null;
        }
        PairedDifference d = new PairedDifference("paired difference", base, cand);
        double reference = bypassMesh.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        return new Change(d.interval(), points && reference > 0 ? d.inPercentOf(reference) : null, cand.size());
    }

    /** The change of the means of {@code figure} (Welch's t); {@code null} where a side has no value. */
    private static Change unpaired(List<LoadedRun> runs, List<LoadedRun> base, int clients,
            Function<StepResult, Double> figure, boolean points) {
        List<Double> cand = values(runs, clients, figure);
        List<StepResult> baseSteps = base.stream().map(r -> r.results().step(clients).orElseThrow())
                .filter(s -> figure.apply(s) != null).toList();
        if (cand.isEmpty() || baseSteps.isEmpty()) {
            return null;
        }
        MeanDifference d = new MeanDifference(new Sample(baseSteps.stream().map(figure).toList()), new Sample(cand));
        double reference = baseSteps.stream().map(AttributionTable::meshPerTransaction).filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue).average().orElse(0);
        return new Change(d.interval(), points && reference > 0 ? d.inPercentOf(reference) : null, cand.size());
    }

    private static List<Double> values(List<LoadedRun> runs, int clients, Function<StepResult, Double> figure) {
        return runs.stream().map(r -> figure.apply(r.results().step(clients).orElseThrow())).filter(Objects::nonNull)
                .toList();
    }

    /** A step's MongoDB-path mesh CPU per transaction, as the attribution table takes it; {@code null} without. */
    private static Double mongoPath(StepResult s) {
        return AttributionTable.mongoPathPerTransaction(s);
    }

    private static String mongoAbsent(CaseSummary c, CaseSummary bypass, int clients) {
        boolean caseAttributed = c.runs().stream().map(r -> r.results().step(clients)).flatMap(java.util.Optional::stream)
                .anyMatch(s -> mongoPath(s) != null);
        if (!caseAttributed) {
            return AttributionTable.whyAbsent(c, clients);
        }
        boolean bypassAttributed = bypass.runs().stream().map(r -> r.results().step(clients))
                .flatMap(java.util.Optional::stream).anyMatch(s -> mongoPath(s) != null);
        return bypassAttributed ? "no round where both it and " + ResultsSchema.BASELINE_CASE + " were attributed"
                : ResultsSchema.BASELINE_CASE + ": " + AttributionTable.whyAbsent(bypass, clients);
    }

    // ------------------------------------------------------------------------------------------------------ words

    private static List<String> figures(Change mongo, String absent, Change p99, Change p50, String precision,
            String unit) {
        List<String> parts = new ArrayList<>();
        parts.add(mongo == null ? "MongoDB-path mesh CPU not attributed (" + absent + ")" : mongoWords(mongo, precision));
        parts.add(latencyWords("P99", p99, precision, unit));
        parts.add(latencyWords("P50", p50, precision, unit));
        return parts;
    }

    private static String mongoWords(Change c, String precision) {
        String what = "of mesh CPU per transaction on the MongoDB path";
        String pointsOf = " points of " + ResultsSchema.BASELINE_CASE + "'s mesh CPU per transaction";
        Interval v = c.value();
        Interval p = c.points();
        return switch (c.verdict()) {
            case UNKNOWN -> signed(v.estimate(), 3) + " ms " + what + (p == null ? "" : " (" + signed(p.estimate(), 1)
                    + pointsOf + ")");
            case SIGNIFICANT -> signed(v.estimate(), 3) + " \u00b1 " + fixed(v.halfWidth(), 3) + " ms " + what
                    + (p == null ? "" : " (" + signed(p.estimate(), 1) + " \u00b1 " + fixed(p.halfWidth(), 1) + pointsOf
                    + ")");
            case WITHIN_NOISE -> "MongoDB-path mesh CPU per transaction " + WITHIN_NOISE + " at " + precision
                    + " precision (95 % interval " + range(v, 3) + " ms" + (p == null ? "" : ", " + range(p, 1)
                    + pointsOf) + ")";
        };
    }

    private static String latencyWords(String name, Change c, String precision, String unit) {
        if (c == null) {
            return name + " not measured";
        }
        Interval v = c.value();
        return switch (c.verdict()) {
            case UNKNOWN -> name + " " + signed(v.estimate(), 1) + " ms";
            case SIGNIFICANT -> name + " " + signed(v.estimate(), 1) + " \u00b1 " + fixed(v.halfWidth(), 1) + " ms";
            case WITHIN_NOISE -> v.estimate() == 0 && v.halfWidth() == 0
                    ? name + " the same as " + ResultsSchema.BASELINE_CASE + "'s in every " + unit
                    : name + " " + WITHIN_NOISE + " at " + precision + " precision (95 % interval " + range(v, 1) + " ms)";
        };
    }

    private static String range(Interval i, int decimals) {
        return signed(i.lower(), decimals) + " to " + signed(i.upper(), decimals);
    }

    /** {@code value} with its sign and {@code decimals} places, {@code 0.000} (no sign) when it rounds to 0. */
    static String signed(double value, int decimals) {
        String s = String.format(Locale.ROOT, "%+." + decimals + "f", value);
        return s.substring(1).matches("0\\.?0*") ? s.substring(1) : s;
    }

    private static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String plain(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static List<LoadedRun> withStep(CaseSummary c, int clients) {
        return c.runs().stream().filter(r -> r.results().step(clients).isPresent()).toList();
    }

    private static boolean isBaseline(CaseSummary c) {
        return c.caseId().equals(ResultsSchema.BASELINE_CASE);
    }
}
