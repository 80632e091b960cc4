package dev.meshbench.maven;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.RunStatus;
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
 * The latency study's table from every cell kept under {@code <results>/latency/} (the latest passed run of each
 * cell and data plane), next to the gist's published rows: {@code <results>/latency-report/} and the console. Then
 * the build's verdict on this build's cells: it fails naming every cell that failed.
 */
@Mojo(name = "latency-report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = false)
public class LatencyReportMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(property = Catalogue.RESULTS_DIR_NAME, defaultValue = "${maven.multiModuleProjectDirectory}/" + Catalogue.RESULTS_DIR_DEFAULT)
    File results;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        LatencyTable.write(results.toPath(), getLog());
        Object cells = project.getContextValue(LatencyMojo.CELLS);
        if (!(cells instanceof List<?> done)) {
            return; // report only: no cells ran in this build
        }
        StringBuilder failed = new StringBuilder();
        for (Object o : done) {
            LatencyCellResults r = (LatencyCellResults) o;
            if (r.status() == RunStatus.FAILED) {
                failed.append("\n  ").append(r.cellId()).append(" on ").append(r.dataPlane().name()).append(" (").append(r.runId()).append("): ")
                        .append(r.failureReason());
            }
        }
        if (failed.length() > 0) {
            throw new MojoFailureException("latency cells failed:" + failed);
        }
    }
}
