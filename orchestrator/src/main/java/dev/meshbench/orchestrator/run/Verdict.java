package dev.meshbench.orchestrator.run;

import dev.meshbench.model.settings.Parsers;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.stats.GateCells;
import dev.meshbench.results.stats.RegressionGate;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The verdict on a study's runs, given after the report so that results and report exist whatever it says: it fails
 * when a run failed or passed {@code meshbench.maxErrorPercent} (the problems {@link EgressStudy} collected), and when
 * the regression gate trips. The gate compares this study's runs (all repeats) with a baseline's, case by case, step
 * by step, on throughput, p99 and mesh CPU per transaction, and fails when a figure got worse by more than
 * {@value #P_MAX_REGRESSION_PERCENT} and beyond the noise of the repeats (Welch, 95%). No baseline, no gate.
 */
public final class Verdict {
    /** A results folder, a run folder or a results.json of earlier runs to gate against. */
    public static final String P_BASELINE = dev.meshbench.model.settings.Catalogue.BASELINE_NAME;
    public static final String P_MAX_REGRESSION_PERCENT = dev.meshbench.model.settings.Catalogue.MAX_REGRESSION_PERCENT_NAME;
    public static final String P_GATE_LABEL = dev.meshbench.model.settings.Catalogue.GATE_LABEL.name();

    private Verdict() {
    }

    /**
     * Why the study fails, or empty when it passes: the failed runs, then the gate's regressions. The gate's lines
     * go to {@code out} as it compares.
     *
     * @param baseline the baseline to gate against; {@code null} or blank for none
     * @param label    the request type whose throughput and P99 the gate compares ({@code meshbench.gateLabel}), or
     *                 empty for the whole step's
     */
    public static Optional<String> of(List<String> problems, List<RunResults> runs, String baseline, double maxRegressionPercent,
            Optional<String> label, PrintStream out) {
        String gate = gate(runs, baseline, maxRegressionPercent, label, out);
        StringBuilder msg = new StringBuilder();
        if (!problems.isEmpty()) {
            msg.append(runFailures(problems));
        }
        if (gate != null) {
            msg.append(msg.length() == 0 ? "" : "\n").append(gate);
        }
        return msg.length() == 0 ? Optional.empty() : Optional.of(msg.toString());
    }

    /** {@code 2 run(s) failed:} and every failed run's reason on its own line. */
    public static String runFailures(List<?> failed) {
        StringBuilder msg = new StringBuilder().append(failed.size()).append(" run(s) failed:");
        failed.forEach(f -> msg.append("\n  ").append(f));
        return msg.toString();
    }

    /** The gate's failure message, or {@code null} when it passed or there is no baseline. */
    private static String gate(List<RunResults> current, String baseline, double maxRegressionPercent, Optional<String> label,
            PrintStream out) {
        if (baseline == null || baseline.isBlank()) {
            out.println("[gate] no " + P_BASELINE + ", nothing to compare with");
            return null;
        }
        RegressionGate gate;
        try {
            gate = new RegressionGate(maxRegressionPercent);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(P_MAX_REGRESSION_PERCENT + "=" + Parsers.plain(maxRegressionPercent) + ": " + e.getMessage(), e);
        }
        List<RunResults> base = GateCells.read(Path.of(baseline), P_BASELINE);
        Set<String> kinds = current.stream().map(GateCells::comparableAs).collect(Collectors.toCollection(TreeSet::new));
        List<RunResults> comparable = base.stream().filter(r -> kinds.contains(GateCells.comparableAs(r))).toList();
        int ignored = base.size() - comparable.size();
        out.printf("[gate] %d run(s) of this build (%s) against %d baseline run(s) from %s%s; at most %s%% worse%s%n",
                current.size(), String.join("; ", kinds), comparable.size(), baseline,
                ignored == 0 ? "" : " (" + ignored + " other baseline run(s) left out: another target, data plane or workload)",
                Parsers.plain(maxRegressionPercent), label.map(l -> "; throughput and P99 of request type " + l + " only").orElse(""));
        if (label.isPresent()) {
            Set<String> seen = current.stream().flatMap(r -> r.steps().stream()).flatMap(s -> s.labels().stream())
                    .map(dev.meshbench.results.LabelResult::label).collect(Collectors.toCollection(TreeSet::new));
            if (!seen.contains(label.get())) {
                return P_GATE_LABEL + "=" + label.get() + ": no step of this build's runs has that request type ("
                        + (seen.isEmpty() ? "they have no figures per request type" : "they have: " + String.join(", ", seen)) + ")";
            }
        }
        if (comparable.isEmpty()) {
            return P_BASELINE + "=" + baseline + ": none of its " + base.size()
                    + " runs is comparable with this build's (" + String.join("; ", kinds) + "), nothing to gate on";
        }
        RegressionGate.Result result = gate.check(GateCells.of(comparable, label), GateCells.of(current, label));
        for (RegressionGate.Cell c : result.cells()) {
            out.printf("[gate] %-10s %s%n", c.status(), c.message());
        }
        if (result.fails()) {
            List<String> lines = result.regressions().stream().map(RegressionGate.Cell::message).toList();
            return "regression gate: " + lines.size() + " figure(s) worse than the baseline by more than "
                    + Parsers.plain(maxRegressionPercent) + "% and beyond noise:\n  " + String.join("\n  ", lines);
        }
        out.printf("[gate] passed: %d figures compared, none worse than allowed beyond noise%n",
                result.cells().size() - result.missing().size());
        return null;
    }
}
