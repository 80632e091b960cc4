package dev.meshbench.maven;

import dev.meshbench.orchestrator.latency.GeneratorLoad;
import dev.meshbench.orchestrator.latency.GraphFiles;
import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.latency.LatencyDeployment;
import dev.meshbench.orchestrator.latency.LatencyPlanner;
import dev.meshbench.orchestrator.latency.LatencyRunner;
import dev.meshbench.orchestrator.latency.LatencySettings;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalGraphDeployment;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.run.CpuSets;
import dev.meshbench.orchestrator.run.RunConfig;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * The latency study on the local target: for every selected cell ({@code meshbench.latency.cells}, default all 16),
 * deploy it on the data plane of {@code meshbench.dataplane}, find the maximum rate with a closed loop, measure the
 * latencies with an open loop at {@code meshbench.latency.loadFraction} of it, tear down, and write the cell's
 * {@code latency.json} under {@code <results>/latency/}. Every property is checked before anything starts; a cell
 * that fails is recorded and the next one runs; {@code meshbench:latency-report} fails the build afterwards.
 */
@Mojo(name = "latency", defaultPhase = LifecyclePhase.INTEGRATION_TEST, threadSafe = false)
public class LatencyMojo extends AbstractMojo {
    /** Project context key: this build's cells, for meshbench:latency-report's verdict. */
    static final String CELLS = "meshbench.latencyCells";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** The checkout whose module target/ folders hold the component jars and whose istio-config/ holds the graphs. */
    @Parameter(property = "meshbench.projectRoot", defaultValue = "${maven.multiModuleProjectDirectory}", required = true)
    File projectRoot;

    /** The results folder; cells go to its {@code latency/} folder. */
    @Parameter(property = "meshbench.resultsDir", defaultValue = "${maven.multiModuleProjectDirectory}/results")
    File results;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Map<String, String> props = RunProperties.collect(project, session);
        LatencySettings settings;
        PlanOptions mesh;
        Map<String, GraphFiles.Graph> graphs = new LinkedHashMap<>();
        List<LatencyCell> cells;
        CpuSets cpuSets;
        LocalDataPlane dataPlane;
        ComponentJars jars;
        try {
            if (RunConfig.target(props) != TargetKind.LOCAL) {
                throw new IllegalArgumentException(RunConfig.P_TARGET + "=" + props.get(RunConfig.P_TARGET)
                        + ": the latency study runs on the local target from Maven; on a cluster apply istio-config/latency/cells/<cell> "
                        + "and run fortio as istio-config/README.md (\"The latency study\") shows");
            }
            settings = LatencySettings.fromProperties(props);
            mesh = RunConfig.meshOptions(props);
            for (String g : settings.graphs()) {
                GraphFiles.Graph graph = GraphFiles.resolve(g, projectRoot.toPath());
                if (graphs.putIfAbsent(graph.shape().name(), graph) != null) {
                    throw new IllegalArgumentException(LatencySettings.P_GRAPHS + "=" + String.join(",", settings.graphs())
                            + ": two graphs are named " + graph.shape().name());
                }
            }
            cells = LatencyCell.select(LatencyCell.matrix(List.copyOf(graphs.keySet())), LatencySettings.P_CELLS, settings.cells());
            cpuSets = CpuSets.fromProperties(props, Runtime.getRuntime().availableProcessors(), System.getenv("PATH"));
            if (!cpuSets.prefix(dev.meshbench.orchestrator.target.Role.LOAD).isEmpty()) {
                throw new IllegalArgumentException(CpuSets.P_LOADGEN + "=" + props.get(CpuSets.P_LOADGEN)
                        + ": the latency study's generator runs inside Maven's JVM; pin Maven itself instead (taskset -c <cpus> mvn ...)");
            }
            dataPlane = LocalDataPlane.resolve(mesh, props.get(LocalDataPlane.P_ENVOY_BINARY), props.get(LocalDataPlane.P_NGINX_BINARY),
                    System.getenv("PATH"), project.getVersion());
            jars = ComponentJars.inBuildTree(projectRoot.toPath());
        } catch (IllegalArgumentException | dev.meshbench.orchestrator.target.TargetException e) {
            throw new MojoFailureException(e.getMessage());
        }
        DataPlaneInfo planned = new DataPlaneInfo(dataPlane.dataPlane().id(), dataPlane.versions(), mesh.workers(), mesh.sidecarMtls(),
                dataPlane.dataPlane() == dev.meshbench.orchestrator.plan.DataPlane.ENVOY ? "BoringSSL" : null);
        Map<String, String> recorded = new TreeMap<>(RunConfig.meshSettings(props));
        recorded.putAll(cpuSets.asProperties());
        recorded.put("jvm.graphNodes", String.join(" ", LocalGraphDeployment.NODE_JVM));
        recorded.put("jvm.nettyProxies", String.join(" ", dev.meshbench.orchestrator.local.ProxyLaunch.NETTY_JVM));

        AtomicReference<LatencyDeployment> current = new AtomicReference<>();
        Thread hook = new Thread(() -> {
            LatencyDeployment d = current.get();
            if (d != null) {
                d.close();
            }
        }, "meshbench-latency-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        LatencyRunner.Deployer deployer = (cell, logDir) -> {
            GraphFiles.Graph g = graphs.get(cell.graph());
            LocalGraphDeployment d = LocalGraphDeployment.start(LatencyPlanner.plan(cell, g.shape(), mesh), g.shape(), g.file(), jars,
                    dataPlane, cpuSets, Duration.ofSeconds(90), logDir);
            current.set(d);
            return d;
        };
        GeneratorLoad load = new GeneratorLoad();
        LatencyRunner runner = new LatencyRunner(settings, deployer, load, TargetKind.LOCAL, planned, recorded, project.getVersion(),
                results.toPath(), System.out);
        System.out.printf(Locale.ROOT, "[latency] %d cell(s) on data plane %s: %s; per cell %d s warm-up, %d s max rate, %d s at %s of it%n",
                cells.size(), planned.name(), String.join(", ", cells.stream().map(LatencyCell::id).toList()), settings.warmupSeconds(),
                settings.maxSeconds(), settings.fixedSeconds(), settings.asProperties().get(LatencySettings.P_LOAD_FRACTION));
        List<LatencyCellResults> done;
        try {
            done = runner.run(cells);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted");
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        project.setContextValue(CELLS, done);
        long failed = done.stream().filter(r -> r.status() == RunStatus.FAILED).count();
        if (failed > 0) {
            getLog().warn(failed + " of " + done.size() + " cells failed; meshbench:latency-report fails the build after the report");
        }
    }
}
