package dev.meshbench.maven;

import dev.meshbench.orchestrator.run.EgressStudy;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.results.RunResults;
import java.io.File;
import java.util.ArrayList;
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
 * Runs this module's cases through {@link EgressStudy}, the orchestrator's one runner (as {@code meshbench run}
 * does): the {@code meshbench.*} properties in, the runs' results and problems out into the build's context, for
 * meshbench:report and meshbench:check, which give the verdict after the report.
 */
@Mojo(name = "run", defaultPhase = LifecyclePhase.INTEGRATION_TEST, threadSafe = false)
public class RunMojo extends AbstractMojo {
    /**
     * Project context key: the results of the runs this build made, for the gate. Context keys are named by their
     * class, never like a {@code meshbench.*} setting (one was once a dot away from {@code meshbench.latency.cells}).
     */
    static final String RUN_RESULTS = RunMojo.class.getName() + ".runResults";
    /** Project context key: what went wrong in which run, for meshbench:check's verdict. */
    static final String PROBLEMS = RunMojo.class.getName() + ".problems";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** The cases this module runs: one case id, or {@code all}. */
    @Parameter(property = "meshbench.case", required = true)
    String caseId;

    /** The checkout whose module target/ folders hold the component jars and JMeter, and whose results/ keeps runs. */
    @Parameter(property = "meshbench.projectRoot", defaultValue = "${maven.multiModuleProjectDirectory}", required = true)
    File projectRoot;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Map<String, String> props = RunProperties.collect(project, session);
        props.put(RunSettings.P_CASES, caseId);
        EgressStudy study;
        try {
            study = EgressStudy.prepare(props, projectRoot.toPath(), project.getVersion(), System.out);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        List<RunResults> runs = new ArrayList<>();
        project.setContextValue(RUN_RESULTS, runs);
        List<String> problems = new ArrayList<>();
        project.setContextValue(PROBLEMS, problems);
        try {
            study.run(runs, problems);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        if (!problems.isEmpty()) {
            // The verdict comes from meshbench:check, after the report, so that results and report exist either way.
            getLog().warn(problems.size() + " run(s) failed; meshbench:check fails the build after the report");
        }
    }
}
