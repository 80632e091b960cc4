package dev.meshbench.maven;

import dev.meshbench.orchestrator.latency.LatencyStudy;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.RunStatus;
import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * The latency study through {@link LatencyStudy}, the orchestrator's one runner of it (as {@code meshbench run
 * --latency} does): the {@code meshbench.*} properties in, this build's cells out into the build's context, for
 * meshbench:latency-report, which fails the build afterwards naming every failed cell.
 */
@Mojo(name = "latency", defaultPhase = LifecyclePhase.INTEGRATION_TEST, threadSafe = false)
public class LatencyMojo extends AbstractMojo {
    /** Project context key: this build's cells, for meshbench:latency-report's verdict. */
    static final String CELLS = LatencyMojo.class.getName() + ".cells";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** The checkout whose module target/ folders hold the component jars and whose istio-config/ holds the graphs. */
    @Parameter(property = "meshbench.projectRoot", defaultValue = "${maven.multiModuleProjectDirectory}", required = true)
    File projectRoot;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Map<String, String> props = RunProperties.collect(project, session);
        LatencyStudy study;
        try {
            study = LatencyStudy.prepare(props, projectRoot.toPath(), project.getVersion(), System.out);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        List<LatencyCellResults> done;
        try {
            done = study.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted");
        }
        project.setContextValue(CELLS, done);
        long failed = done.stream().filter(r -> r.status() == RunStatus.FAILED).count();
        if (failed > 0) {
            getLog().warn(failed + " of " + done.size() + " cells failed; meshbench:latency-report fails the build after the report");
        }
    }
}
