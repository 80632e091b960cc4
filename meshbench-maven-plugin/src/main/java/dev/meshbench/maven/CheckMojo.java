package dev.meshbench.maven;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.stats.GateCells;
import dev.meshbench.results.stats.RegressionGate;
import java.io.File;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * The build's verdict on its runs, after the report so that results and report exist whatever it says. Fails when
 * a run failed or passed {@code meshbench.maxErrorPercent} (found by {@code meshbench:run}), and when the regression
 * gate trips. The gate compares the runs this build made (all repeats) with a baseline's, case by case, step by
 * step, on throughput, p99 and mesh CPU per transaction, and fails the build when a figure got worse by more than
 * {@code meshbench.maxRegressionPercent} and beyond the noise of the repeats (Welch, 95%). Does nothing without
 * {@code meshbench.baseline}. Runs after the report, so a failed gate still leaves results and report.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = false)
public class CheckMojo extends AbstractMojo {
    public static final String P_BASELINE = Catalogue.BASELINE_NAME;
    public static final String P_MAX_REGRESSION = Catalogue.MAX_REGRESSION_PERCENT_NAME;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /** A results folder, a run folder or a results.json from an earlier build. */
    @Parameter(property = P_BASELINE)
    File baseline;

    /** How much worse than the baseline a figure may get, percent (default and rule: the catalogue's). */
    @Parameter(property = P_MAX_REGRESSION)
    String maxRegressionPercent;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Object problems = project.getContextValue(RunMojo.PROBLEMS);
        if (!(problems instanceof List<?> failed)) {
            throw new MojoExecutionException("meshbench:check found no runs of this build in " + project.getArtifactId()
                    + "; meshbench:run must run first in the same build");
        }
        String gateFailure = gate();
        if (!failed.isEmpty() || gateFailure != null) {
            StringBuilder msg = new StringBuilder();
            if (!failed.isEmpty()) {
                msg.append(runFailures(failed));
            }
            if (gateFailure != null) {
                msg.append(msg.length() == 0 ? "" : "\n").append(gateFailure);
            }
            throw new MojoFailureException(msg.toString());
        }
    }

    /** {@code 2 run(s) failed:} and every failed run's reason on its own line (the verdict on {@link RunMojo#PROBLEMS}). */
    static String runFailures(List<?> failed) {
        StringBuilder msg = new StringBuilder().append(failed.size()).append(" run(s) failed:");
        failed.forEach(f -> msg.append("\n  ").append(f));
        return msg.toString();
    }

    /** The gate's failure message, or {@code null} when it passed or there is no baseline. */
    private String gate() throws MojoExecutionException, MojoFailureException {
        if (baseline == null || baseline.getPath().isBlank()) {
            getLog().info("meshbench gate: no " + P_BASELINE + ", nothing to compare with");
            return null;
        }
        double maxRegression;
        RegressionGate gate;
        try {
            maxRegression = maxRegressionPercent == null ? Catalogue.MAX_REGRESSION_PERCENT.defaultParsed()
                    : Catalogue.MAX_REGRESSION_PERCENT.parse(maxRegressionPercent);
            gate = new RegressionGate(maxRegression);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        List<RunResults> current = currentRuns();
        List<RunResults> base;
        try {
            base = GateCells.read(baseline.toPath(), P_BASELINE);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        Set<String> kinds = current.stream().map(GateCells::comparableAs).collect(Collectors.toCollection(TreeSet::new));
        List<RunResults> comparable = base.stream().filter(r -> kinds.contains(GateCells.comparableAs(r))).toList();
        int ignored = base.size() - comparable.size();
        System.out.printf("[gate] %d run(s) of this build (%s) against %d baseline run(s) from %s%s; at most %s%% worse%n",
                current.size(), String.join("; ", kinds), comparable.size(), baseline,
                ignored == 0 ? "" : " (" + ignored + " other baseline run(s) left out: another target, data plane or workload)",
                RunProperties.plain(maxRegression));
        if (comparable.isEmpty()) {
            return (P_BASELINE + "=" + baseline + ": none of its " + base.size()
                    + " runs is comparable with this build's (" + String.join("; ", kinds) + "), nothing to gate on");
        }
        RegressionGate.Result result = gate.check(GateCells.of(comparable), GateCells.of(current));
        for (RegressionGate.Cell c : result.cells()) {
            System.out.printf("[gate] %-10s %s%n", c.status(), c.message());
        }
        if (result.fails()) {
            List<String> lines = result.regressions().stream().map(RegressionGate.Cell::message).toList();
            return "regression gate: " + lines.size() + " figure(s) worse than the baseline by more than "
                    + RunProperties.plain(maxRegression) + "% and beyond noise:\n  " + String.join("\n  ", lines);
        }
        System.out.printf("[gate] passed: %d figures compared, none worse than allowed beyond noise%n",
                result.cells().size() - result.missing().size());
        return null;
    }

    private List<RunResults> currentRuns() throws MojoExecutionException {
        Object o = project.getContextValue(RunMojo.RUN_RESULTS);
        if (!(o instanceof List<?> runs)) {
            throw new MojoExecutionException("meshbench:gate found no runs of this build in " + project.getArtifactId()
                    + "; meshbench:run must run first in the same build");
        }
        // a run that failed before it had results is not among them: the verdict names it from the run's problems
        return runs.stream().map(RunResults.class::cast).toList();
    }
}
