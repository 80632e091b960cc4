package dev.meshbench.maven;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.charts.ReportGenerator;
import dev.meshbench.charts.model.Answer;
import dev.meshbench.charts.model.AttributionTable;
import dev.meshbench.charts.model.ReportModel;
import dev.meshbench.charts.load.ConversionMode;
import java.io.File;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.apache.maven.project.MavenProject;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Rebuilds the HTML report (charts, tables, CSV) from every run kept under the results folder, so the cases run
 * so far are compared side by side. Reads only results JSON; runs nothing.
 */
@Mojo(name = "report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = false)
public class ReportMojo extends AbstractMojo {
    /** The results folder (one sub-folder per run). */
    @Parameter(property = Catalogue.RESULTS_DIR_NAME, defaultValue = "${maven.multiModuleProjectDirectory}/" + Catalogue.RESULTS_DIR_DEFAULT)
    File results;

    /** Where the report goes (default: the {@code report} folder inside the results folder). */
    @Parameter(property = Catalogue.REPORT_NAME)
    File report;

    /** Client count for the response-time and CPU charts (default and rule: the catalogue's meshbench.reportClients). */
    @Parameter(property = Catalogue.REPORT_CLIENTS_NAME)
    String clients;

    /** The module, whose context holds this build's runs' problems when meshbench:run ran before (none when run by hand). */
    @Parameter(defaultValue = "${project}", readonly = true)
    MavenProject project;

    @Override
    public void execute() throws MojoExecutionException {
        System.setProperty("java.awt.headless", "true");
        if (report == null) {
            report = new File(results, "report");
        }
        try {
            int chartClients = clients == null ? Catalogue.REPORT_CLIENTS.defaultParsed() : Catalogue.REPORT_CLIENTS.parse(clients);
            ReportModel model = ReportGenerator.generate(results.toPath(), report.toPath(), chartClients, ConversionMode.NONE,
                    Instant.now());
            // the answer first: per data plane, one sentence per case against bypass
            Answer.of(model).lines().forEach(getLog()::info);
            getLog().info("meshbench report: " + report.toPath().resolve("index.html"));
            AttributionTable.of(model).summary().forEach(getLog()::info);
        } catch (IOException | RuntimeException e) {
            // meshbench:check, which gives the runs' verdict, does not run after this: the verdict goes with the failure
            throw new MojoExecutionException("building the report from " + results + " into " + report + " failed: " + e.getMessage()
                    + verdict(), e);
        }
    }

    /**
     * The runs' verdict when meshbench:run ran earlier in this build ({@link RunMojo#PROBLEMS}): every failed run with
     * its reason, or that all passed; empty when the report runs on its own.
     */
    private String verdict() {
        Object problems = project == null ? null : project.getContextValue(RunMojo.PROBLEMS);
        if (!(problems instanceof List<?> failed)) {
            return "";
        }
        return "\nmeshbench:check does not run after a failed report; the verdict on this build's runs: " + (failed.isEmpty()
                ? "none failed (the regression gate did not run)" : dev.meshbench.orchestrator.run.Verdict.runFailures(failed));
    }
}
