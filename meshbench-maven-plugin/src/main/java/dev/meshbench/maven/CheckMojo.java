package dev.meshbench.maven;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.run.Verdict;
import dev.meshbench.results.RunResults;
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
 * The build's verdict on its runs ({@link Verdict}), after the report so that results and report exist whatever it
 * says: fails for a failed run, errors above {@code meshbench.maxErrorPercent}, or a tripped regression gate
 * ({@code meshbench.baseline}).
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = false)
public class CheckMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Object problems = project.getContextValue(RunMojo.PROBLEMS);
        Object runs = project.getContextValue(RunMojo.RUN_RESULTS);
        if (!(problems instanceof List<?> failed) || !(runs instanceof List<?> done)) {
            throw new MojoExecutionException("meshbench:check found no runs of this build in " + project.getArtifactId()
                    + "; meshbench:run must run first in the same build");
        }
        Map<String, String> props = RunProperties.collect(project, session);
        try {
            double maxRegression = Catalogue.MAX_REGRESSION_PERCENT.value(props);
            var verdict = Verdict.of(failed.stream().map(String::valueOf).toList(), done.stream().map(RunResults.class::cast).toList(),
                    props.get(Verdict.P_BASELINE), maxRegression, Catalogue.GATE_LABEL.read(props), System.out);
            if (verdict.isPresent()) {
                throw new MojoFailureException(verdict.get());
            }
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
    }
}
