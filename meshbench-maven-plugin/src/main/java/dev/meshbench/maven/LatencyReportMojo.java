package dev.meshbench.maven;

import dev.meshbench.orchestrator.latency.LatencyStudy;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.results.LatencyCellResults;
import java.io.File;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * The latency study's report from every cell kept under {@code <results>/latency/} ({@code LatencyStudy.report}),
 * then the build's verdict on this build's cells: it fails naming every cell that failed.
 */
@Mojo(name = "latency-report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = false)
public class LatencyReportMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(property = Catalogue.RESULTS_DIR_NAME, defaultValue = "${maven.multiModuleProjectDirectory}/" + Catalogue.RESULTS_DIR_DEFAULT)
    File results;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        boolean reported = LatencyStudy.report(results.toPath(), System.out);
        Object cells = project.getContextValue(LatencyMojo.CELLS);
        String failed = cells instanceof List<?> done ? LatencyStudy.failures(done.stream().map(LatencyCellResults.class::cast).toList()) : "";
        if (!failed.isEmpty()) {
            throw new MojoFailureException("latency cells failed:" + failed);
        }
        if (!reported) {
            throw new MojoExecutionException("building the latency report under " + results + " failed (see above)");
        }
    }
}
