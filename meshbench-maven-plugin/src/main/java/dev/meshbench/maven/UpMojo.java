package dev.meshbench.maven;

import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.kubernetes.KubernetesSettings;
import dev.meshbench.orchestrator.kubernetes.KubernetesTarget;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalTarget;
import dev.meshbench.orchestrator.local.LocalTargetConfig;
import dev.meshbench.orchestrator.run.CaseRun;
import dev.meshbench.orchestrator.run.RunConfig;
import dev.meshbench.orchestrator.target.Target;
import dev.meshbench.orchestrator.target.TargetException;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.MeasurementInfo;
import java.io.File;
import java.time.Duration;
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
 * Brings this module's case up before the load runs: validates the run properties, creates the run folder,
 * deploys the case, waits for readiness, loads the database, starts CPU sampling and live progress, and exposes
 * {@code meshbench.runDir}, {@code meshbench.jtl} and {@code meshbench.<service>.url} to the JMeter execution.
 */
@Mojo(name = "up", defaultPhase = LifecyclePhase.PRE_INTEGRATION_TEST, threadSafe = false)
public class UpMojo extends AbstractMojo {
    static final String CONTEXT_KEY = "meshbench.caseRun";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** The case this module runs. */
    @Parameter(property = "meshbench.case", required = true)
    String caseId;

    /** The checkout whose module target/ folders hold the component jars, and whose results/ keeps runs. */
    @Parameter(property = "meshbench.projectRoot", defaultValue = "${maven.multiModuleProjectDirectory}", required = true)
    File projectRoot;

    /** Seconds between progress lines. */
    @Parameter(property = "meshbench.progressSeconds", defaultValue = "5")
    int progressSeconds;

    @Parameter(property = "meshbench.jmeterVersion", defaultValue = "5.6.3")
    String jmeterVersion;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Map<String, String> props = RunProperties.collect(project, session);
        RunConfig config;
        EgressCase egressCase;
        try {
            egressCase = EgressCase.byId(caseId);
            config = RunProperties.config(props, caseId, projectRoot.toPath());
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        Target target;
        MeasurementInfo measurement;
        try {
            measurement = RunConfig.measurement(props);
            target = switch (RunConfig.target(props)) {
                case LOCAL -> localTarget(props, config);
                case KUBERNETES -> KubernetesTarget.of(KubernetesSettings.fromProperties(props), config.customers(),
                        config.flightDays(), config.workload(), System.out);
            };
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException("bringing case " + caseId + " up failed before anything started: " + e.getMessage());
        }
        try {
            KitVersions versions = new KitVersions(project.getVersion(), System.getProperty("java.version"), jmeterVersion);
            CaseRun run = CaseRun.start(config, egressCase, target, versions, System.out, measurement);
            project.setContextValue(CONTEXT_KEY, run);
            Runtime.getRuntime().addShutdownHook(new Thread(run::close, "meshbench-run-" + caseId));
            project.getProperties().setProperty("meshbench.runId", run.runId());
            project.getProperties().setProperty("meshbench.runDir", run.runDir().toString());
            project.getProperties().setProperty("meshbench.jtl", run.jtl().toString());
            project.getProperties().setProperty("meshbench.clients", join(config.clients()));
            project.getProperties().setProperty("meshbench.stepSeconds", Integer.toString(config.stepSeconds()));
            project.getProperties().setProperty("meshbench.thinkTimeMs", Integer.toString(config.thinkTimeMs()));
            project.getProperties().setProperty("meshbench.customers", Integer.toString(config.customers()));
            project.getProperties().setProperty("meshbench.flightDays", Integer.toString(config.flightDays()));
            project.getProperties().setProperty(RunConfig.P_WORKLOAD, config.workload().mix());
            project.getProperties().setProperty("meshbench.maxErrorPercent", Double.toString(config.maxErrorPercent()));
            run.endpoints().services().forEach((svc, uri) -> project.getProperties().setProperty("meshbench." + svc + ".url", uri.toString()));
            run.showProgress(Duration.ofSeconds(Math.max(1, progressSeconds)));
        } catch (TargetException | IllegalArgumentException e) {
            throw new MojoExecutionException("bringing case " + caseId + " up failed: " + e.getMessage(), e);
        }
    }

    /** The local target, its data plane's binaries found and checked before any run folder or process exists. */
    private Target localTarget(Map<String, String> props, RunConfig config) {
        LocalDataPlane dataPlane;
        try {
            dataPlane = LocalDataPlane.resolve(config.mesh(), props.get(LocalDataPlane.P_ENVOY_BINARY),
                    props.get(LocalDataPlane.P_NGINX_BINARY), System.getenv("PATH"), project.getVersion());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("data plane " + config.mesh().dataPlane().id() + ": " + e.getMessage(), e);
        }
        return new LocalTarget(new LocalTargetConfig(ComponentJars.inBuildTree(projectRoot.toPath()), Duration.ofSeconds(90),
                config.customers(), config.flightDays(), dataPlane, config.workload()));
    }

    private static String join(java.util.List<Integer> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }
}
