package dev.meshbench.maven;

import dev.meshbench.orchestrator.run.CaseRun;
import dev.meshbench.orchestrator.target.TargetException;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import java.util.Optional;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Tears this module's case down after the load, records the step windows and outcome in {@code run.json}, and
 * converts the JTL and CPU samples into {@code results.json}. Fails the build when a component died.
 */
@Mojo(name = "down", defaultPhase = LifecyclePhase.POST_INTEGRATION_TEST, threadSafe = false)
public class DownMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Object o = project.getContextValue(UpMojo.CONTEXT_KEY);
        if (!(o instanceof CaseRun run)) {
            throw new MojoExecutionException("meshbench:down found no running case in " + project.getArtifactId()
                    + "; meshbench:up must run first in the same build");
        }
        project.setContextValue(UpMojo.CONTEXT_KEY, null);
        RunResults results;
        try {
            results = run.finish(Optional.empty());
        } catch (TargetException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        StepTable.print(results, System.out);
        if (results.inputs().status() == RunStatus.FAILED) {
            throw new MojoFailureException("run " + run.runId() + " failed: " + results.inputs().failureReason()
                    + " (kept in " + run.runDir() + ")");
        }
    }
}
