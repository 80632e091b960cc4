package dev.meshbench.maven;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.kubernetes.KubernetesLatencyDeployment;
import dev.meshbench.orchestrator.kubernetes.KubernetesSettings;
import dev.meshbench.orchestrator.kubernetes.LatencyOnCluster;
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
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import java.io.File;
import java.nio.file.Path;
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
 * The latency study, on the local target or (with {@code meshbench.target=kubernetes}) on a cluster with Istio: for
 * every selected cell ({@code meshbench.latency.cells}, default all 16), deploy it (locally on the data plane of
 * {@code meshbench.dataplane}; on a cluster {@code istio-config/latency/cells/<cell>} with Istio's proxies), find the maximum rate with a closed loop, measure the
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
    @Parameter(property = Catalogue.RESULTS_DIR_NAME, defaultValue = "${maven.multiModuleProjectDirectory}/" + Catalogue.RESULTS_DIR_DEFAULT)
    File results;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        Map<String, String> props = RunProperties.collect(project, session);
        LatencySettings settings;
        Map<String, GraphFiles.Graph> graphs = new LinkedHashMap<>();
        List<LatencyCell> cells;
        TargetKind target;
        try {
            target = RunSettings.target(props);
            settings = LatencySettings.fromProperties(props);
            settings.checkOpenFiles(RunSettings.LoadCapacity.openFilesLimit());
            for (String g : settings.graphs()) {
                GraphFiles.Graph graph = GraphFiles.resolve(g, projectRoot.toPath());
                if (graphs.putIfAbsent(graph.shape().name(), graph) != null) {
                    throw new IllegalArgumentException(LatencySettings.P_GRAPHS + "=" + String.join(",", settings.graphs())
                            + ": two graphs are named " + graph.shape().name());
                }
            }
            cells = LatencyCell.select(LatencyCell.matrix(List.copyOf(graphs.keySet())), LatencySettings.P_CELLS, settings.cells());
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        // What runs killed earlier left in the temporary directory (processes, key files) goes first, said line by line.
        dev.meshbench.orchestrator.lifetime.Leftovers.sweepAndSay(null, System.out);
        AtomicReference<LatencyDeployment> current = new AtomicReference<>();
        Prepared prepared = switch (target) {
            case LOCAL -> local(props, graphs, current);
            case KUBERNETES -> kubernetes(props, cells, current);
        };
        Thread hook = new Thread(() -> {
            LatencyDeployment d = current.get();
            if (d != null) {
                d.close();
            }
        }, "meshbench-latency-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        GeneratorLoad load = new GeneratorLoad();
        LatencyRunner runner = new LatencyRunner(settings, prepared.deployer(), load, target, prepared.planned(), prepared.recorded(),
                project.getVersion(), results.toPath(), System.out);
        System.out.printf(Locale.ROOT, "[latency] %d cell(s) on %s, data plane %s: %s; per cell %d s warm-up, %d s max rate, %d s at %s of it%n",
                cells.size(), prepared.where(), prepared.planned().name(), String.join(", ", cells.stream().map(LatencyCell::id).toList()),
                settings.warmupSeconds(), settings.maxSeconds(), settings.fixedSeconds(),
                settings.asProperties().get(LatencySettings.P_LOAD_FRACTION));
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

    /** How cells are deployed on the chosen target, what its data plane is planned to be and what the results record. */
    private record Prepared(LatencyRunner.Deployer deployer, DataPlaneInfo planned, Map<String, String> recorded, String where) {
    }

    /** The local target: every component a process on loopback, with the data plane of {@code meshbench.dataplane}. */
    private Prepared local(Map<String, String> props, Map<String, GraphFiles.Graph> graphs, AtomicReference<LatencyDeployment> current)
            throws MojoFailureException {
        PlanOptions mesh;
        CpuSets cpuSets;
        LocalDataPlane dataPlane;
        ComponentJars jars;
        try {
            mesh = RunSettings.meshOptions(props);
            cpuSets = CpuSets.fromProperties(props, Runtime.getRuntime().availableProcessors(), System.getenv("PATH"));
            if (!cpuSets.prefix(dev.meshbench.results.ComponentRole.LOAD).isEmpty()) {
                throw new IllegalArgumentException(CpuSets.P_LOADGEN + "=" + props.get(CpuSets.P_LOADGEN)
                        + ": the latency study's generator runs inside Maven's JVM; pin Maven itself instead (taskset -c <cpus> mvn ...)");
            }
            dataPlane = LocalDataPlane.resolve(mesh, props.get(LocalDataPlane.P_ENVOY_BINARY), props.get(LocalDataPlane.P_NGINX_BINARY),
                    System.getenv("PATH"), project.getVersion());
            jars = ComponentJars.inBuildTree(projectRoot.toPath());
        } catch (IllegalArgumentException | dev.meshbench.orchestrator.deploy.TargetException e) {
            throw new MojoFailureException(e.getMessage());
        }
        DataPlaneInfo planned = new DataPlaneInfo(dataPlane.dataPlane().id(), dataPlane.latencyVersions(), mesh.workers(), mesh.sidecarMtls(),
                false, // each cell's own ingress, set by LatencyRunner
                dataPlane.dataPlane() == dev.meshbench.orchestrator.plan.DataPlane.ENVOY ? "BoringSSL" : null);
        Map<String, String> recorded = new TreeMap<>(RunSettings.meshSettings(props));
        recorded.putAll(cpuSets.asProperties());
        recorded.put("jvm.graphNodes", String.join(" ", LocalGraphDeployment.NODE_JVM));
        recorded.put("jvm.nettyProxies", String.join(" ", dev.meshbench.orchestrator.local.ProxyLaunch.NETTY_JVM));
        LatencyRunner.Deployer deployer = (cell, logDir) -> {
            GraphFiles.Graph g = graphs.get(cell.graph());
            LocalGraphDeployment d = LocalGraphDeployment.start(LatencyPlanner.plan(cell, g.shape(), mesh), g.shape(), g.file(), jars,
                    dataPlane, cpuSets, RunSettings.COMPONENT_READY_TIMEOUT, logDir);
            current.set(d);
            return d;
        };
        return new Prepared(deployer, planned, recorded, "the local target");
    }

    /**
     * A cluster with Istio: each cell is istio-config/latency/cells/(cell) applied into the kit's namespace; the
     * generator runs here, through meshbench.ingressUrl / meshbench.latency.entrypointUrl or port-forwards.
     */
    private Prepared kubernetes(Map<String, String> props, List<LatencyCell> cells, AtomicReference<LatencyDeployment> current)
            throws MojoFailureException {
        KubernetesSettings k8s;
        try {
            LatencyOnCluster.refuseLocalOnly(props);
            k8s = KubernetesSettings.latencyFromProperties(props);
            LatencyOnCluster.checkCells(cells, k8s);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        List<String> forwarded = new java.util.ArrayList<>();
        if (cells.stream().anyMatch(LatencyCell::ingress) && k8s.ingressUrl().isEmpty()) {
            forwarded.add("gateway cells (set -D" + KubernetesSettings.P_INGRESS_URL + ")");
        }
        if (cells.stream().anyMatch(c -> !c.ingress()) && k8s.entrypointUrl().isEmpty()) {
            forwarded.add("cells without a gateway (set -D" + KubernetesSettings.P_ENTRYPOINT_URL + ")");
        }
        if (!forwarded.isEmpty()) {
            getLog().warn("the load goes through port-forwards for " + String.join(" and ", forwarded) + ": a port-forward runs "
                    + "through the API server to one pod and limits the rate, so the maximum rates (and the latencies at "
                    + "a fraction of them) are the port-forward's, not the mesh's");
        }
        Map<String, String> recorded = LatencyOnCluster.recordedSettings(k8s);
        LatencyRunner.Deployer deployer = KubernetesLatencyDeployment.deployer(k8s, System.out, current::set);
        return new Prepared(deployer, LatencyOnCluster.plannedDataPlane(), recorded, "Kubernetes (namespace " + k8s.namespace() + ")");
    }
}
