package dev.meshbench.orchestrator.latency;

import dev.meshbench.charts.latency.LatencyReport;
import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.charts.latency.LatencyReportModel;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.kubernetes.KubernetesLatencyDeployment;
import dev.meshbench.orchestrator.kubernetes.KubernetesSettings;
import dev.meshbench.orchestrator.kubernetes.LatencyOnCluster;
import dev.meshbench.orchestrator.lifetime.Leftovers;
import dev.meshbench.orchestrator.local.ComponentJars;
import dev.meshbench.orchestrator.local.LocalDataPlane;
import dev.meshbench.orchestrator.local.LocalDeployment;
import dev.meshbench.orchestrator.local.LocalTargetSettings;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.orchestrator.run.RunSettings;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.LatencyCellResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The latency study, the one place its cells run, on the local target or (with {@code meshbench.target=kubernetes})
 * on a cluster with Istio: for every selected cell ({@code meshbench.latency.cells}, default all 16) deploy it
 * (locally on the data plane of {@code meshbench.dataplane}; on a cluster {@code istio-config/latency/cells/<cell>}
 * with Istio's proxies), and let {@link LatencyRunner} find the maximum rate and measure at a fraction of it.
 * {@link #prepare} checks every setting before anything starts; the Maven goals and {@code meshbench run --latency}
 * only build the property map.
 */
public final class LatencyStudy {
    /** The report folder under the results folder, next to the egress study's {@code report/}. */
    public static final String REPORT_DIR = "latency-report";

    private final LatencySettings settings;
    private final List<LatencyCell> cells;
    private final Prepared prepared;
    private final Path resultsDir;
    private final String kitVersion;
    private final PrintStream out;

    private LatencyStudy(LatencySettings settings, List<LatencyCell> cells, Prepared prepared, Path resultsDir, String kitVersion,
            PrintStream out) {
        this.settings = settings;
        this.cells = cells;
        this.prepared = prepared;
        this.resultsDir = resultsDir;
        this.kitVersion = kitVersion;
        this.out = out;
    }

    /** How cells are deployed on the chosen target, what its data plane is planned to be and what the results record. */
    private record Prepared(LatencyRunner.Deployer deployer, DataPlaneInfo planned, Map<String, String> recorded, String where, TargetKind target) {
    }

    /**
     * Checks every setting (and, locally, the data plane's binaries and the component jars); nothing is deployed.
     * Throws {@link IllegalArgumentException} naming the property, the value and the rule.
     */
    public static LatencyStudy prepare(Map<String, String> props, Path projectRoot, String kitVersion, PrintStream out) {
        TargetKind target = RunSettings.target(props);
        LatencySettings settings = LatencySettings.fromProperties(props);
        settings.checkOpenFiles(RunSettings.LoadCapacity.openFilesLimit());
        Map<String, GraphFiles.Graph> graphs = new LinkedHashMap<>();
        for (String g : settings.graphs()) {
            GraphFiles.Graph graph = GraphFiles.resolve(g, projectRoot);
            if (graphs.putIfAbsent(graph.shape().name(), graph) != null) {
                throw new IllegalArgumentException(LatencySettings.P_GRAPHS + "=" + String.join(",", settings.graphs())
                        + ": two graphs are named " + graph.shape().name());
            }
        }
        List<LatencyCell> cells = LatencyCell.select(LatencyCell.matrix(List.copyOf(graphs.keySet())), LatencySettings.P_CELLS, settings.cells());
        Path resultsDir = Catalogue.RESULTS_DIR.read(props).map(Path::of).orElse(projectRoot.resolve(Catalogue.RESULTS_DIR_DEFAULT));
        Prepared prepared;
        try {
            prepared = switch (target) {
                case LOCAL -> local(props, graphs, cells, projectRoot, kitVersion, out);
                case KUBERNETES -> kubernetes(props, cells, out);
            };
        } catch (TargetException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new LatencyStudy(settings, cells, prepared, resultsDir, kitVersion, out);
    }

    /** Runs every cell in order (a failed cell is recorded and the next runs); returns every cell's results. */
    public List<LatencyCellResults> run() throws InterruptedException {
        Leftovers.sweepAndSay(null, out);
        Thread hook = new Thread(prepared.deployer()::close, "meshbench-latency-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        LatencyRunner runner = new LatencyRunner(settings, prepared.deployer(), new InProcessLoad(), prepared.target(), prepared.planned(),
                prepared.recorded(), kitVersion, resultsDir, out);
        String warmup = settings.stableWarmup() ? "a warm-up until warm (at most " + settings.warmupSeconds() + " s)"
                : "a " + settings.warmupSeconds() + "-s warm-up (" + LatencySettings.P_WARMUP + "=" + Catalogue.LATENCY_WARMUP_FIXED
                        + ": not judged warm)";
        out.printf(Locale.ROOT, "[latency] %d cell(s) on %s, data plane %s: %s; per cell %s, %d s max rate, %d s at %s of it%n",
                cells.size(), prepared.where(), prepared.planned().name(), String.join(", ", cells.stream().map(LatencyCell::id).toList()),
                warmup, settings.maxSeconds(), settings.fixedSeconds(), settings.asProperties().get(LatencySettings.P_LOAD_FRACTION));
        if (!settings.stableWarmup() && prepared.recorded().getOrDefault(Catalogue.LATENCY_METHOD.name(), "").equals(Catalogue.METHOD_SWITCHED)
                && cells.size() > 1) {
            out.printf(Locale.ROOT, "[latency] WARNING: switched cells with a fixed warm-up: a cell whose services the switch kept runs on "
                    + "JVMs the cells before it warmed, a restarted one on cold ones, so the cells' figures depend on their order; "
                    + "-D%s=%s judges each cell warm (docs/latency-study.md)%n", LatencySettings.P_WARMUP, Catalogue.LATENCY_WARMUP_STABLE);
        }
        try {
            return runner.run(cells);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    /** {@code meshbench run --latency}: the cells, the report, and 0 when every cell passed, else 1 naming the failed ones. */
    public int runAndReport() throws InterruptedException {
        List<LatencyCellResults> done = run();
        boolean reported = report(resultsDir, out);
        String failed = failures(done);
        if (!failed.isEmpty()) {
            out.println("[latency] FAILED: latency cells failed:" + failed);
            return 1;
        }
        return reported ? 0 : 1;
    }

    /** Every failed cell on its own line ({@code \n  cell on plane (run): reason}); empty when none failed. */
    public static String failures(List<LatencyCellResults> done) {
        StringBuilder failed = new StringBuilder();
        for (LatencyCellResults r : done) {
            if (r.status() == RunStatus.FAILED) {
                failed.append("\n  ").append(r.cellId()).append(" on ").append(r.dataPlane().name()).append(" (").append(r.runId())
                        .append("): ").append(r.failureReason());
            }
        }
        return failed.toString();
    }

    /**
     * The latency study's report ({@code <results>/latency-report/}) from every cell kept under
     * {@code <results>/latency/}, its table printed; false (said on {@code out}) when building it failed.
     */
    public static boolean report(Path resultsDir, PrintStream out) {
        System.setProperty("java.awt.headless", "true");
        Path cellsDir = LatencyRunner.latencyDir(resultsDir);
        if (!Files.isDirectory(cellsDir)) {
            out.println("[latency] no latency cells under " + cellsDir + ": no latency report");
            return true;
        }
        Path dir = resultsDir.resolve(REPORT_DIR);
        try {
            LatencyReportModel model = LatencyReport.generate(cellsDir, dir);
            out.println(LatencyReport.consoleTable(model));
            out.println("[latency] report: " + dir.resolve(LatencyReport.HTML));
            return true;
        } catch (IOException | RuntimeException e) {
            out.println("[latency] FAILED: building the latency report from " + cellsDir + " into " + dir + " failed: " + e.getMessage());
            return false;
        }
    }

    /** The local target: every component a process on loopback, with the data plane of {@code meshbench.dataplane}. */
    private static Prepared local(Map<String, String> props, Map<String, GraphFiles.Graph> graphs, List<LatencyCell> cells, Path projectRoot,
            String kitVersion, PrintStream out) {
        PlanOptions mesh = RunSettings.meshOptions(props);
        CpuSets cpuSets = CpuSets.fromProperties(props, Runtime.getRuntime().availableProcessors(), System.getenv("PATH"));
        if (!cpuSets.prefix(ComponentRole.LOAD).isEmpty()) {
            throw new IllegalArgumentException(CpuSets.P_LOADGEN + "=" + props.get(CpuSets.P_LOADGEN)
                    + ": the latency study's generator runs inside the kit's JVM; pin the kit itself instead (taskset -c <cpus> mvn ...)");
        }
        LocalDataPlane dataPlane = LocalDataPlane.resolve(mesh, props.get(LocalDataPlane.P_ENVOY_BINARY), props.get(LocalDataPlane.P_NGINX_BINARY),
                System.getenv("PATH"), kitVersion);
        ComponentJars jars = ComponentJars.inBuildTree(projectRoot);
        DataPlaneInfo planned = new DataPlaneInfo(dataPlane.dataPlane().id(), dataPlane.latencyVersions(), mesh.workers(), mesh.sidecarMtls(),
                false, // each cell's own ingress, set by LatencyRunner
                dataPlane.dataPlane() == DataPlane.ENVOY ? "BoringSSL" : null);
        Map<String, String> recorded = new TreeMap<>(RunSettings.meshSettings(props));
        recorded.putAll(cpuSets.asProperties());
        recorded.put("jvm.graphNodes", String.join(" ", LocalDeployment.NODE_JVM));
        recorded.put("jvm.nettyProxies", String.join(" ", ProxyLaunch.NETTY_JVM));
        String method = Catalogue.LATENCY_METHOD.value(props);
        recorded.put(Catalogue.LATENCY_METHOD.name(), method);
        // customers and flight days are the egress study's; a graph loads no database
        LocalTargetSettings target = new LocalTargetSettings(jars, RunSettings.COMPONENT_READY_TIMEOUT, 1, 1, dataPlane,
                dev.meshbench.results.WorkloadInfo.ORIGINAL, cpuSets);
        boolean fresh = method.equals(Catalogue.METHOD_FRESH);
        // switched: the first cell of a graph starts a deployment prepared for every cell of that graph in the study,
        // and each next cell of that graph is applied to it; a cell of another graph starts a new one
        LatencyRunner.Deployer.OneCell deploy = (cell, logDir, created) -> {
            GraphFiles.Graph g = graphs.get(cell.graph());
            List<TopologyPlan> plans = new ArrayList<>(List.of(LatencyPlanner.plan(cell, g.shape(), mesh)));
            if (!fresh) {
                cells.stream().filter(c -> c.graph().equals(cell.graph()) && !c.equals(cell))
                        .forEach(c -> plans.add(LatencyPlanner.plan(c, g.shape(), mesh)));
            }
            return LocalDeployment.startCells(plans, new LocalDeployment.GraphNodes(g.shape(), g.file()), target, logDir);
        };
        LatencyRunner.Deployer deployer = fresh ? LatencyRunner.Deployer.perCell(deploy)
                : LatencyRunner.Deployer.switched(deploy, (running, cell) -> {
                    LocalDeployment d = (LocalDeployment) running;
                    if (!d.prepared(cell.id())) {
                        return false;
                    }
                    d.applyCell(cell.id());
                    return true;
                });
        String where = method.equals(Catalogue.METHOD_FRESH) ? "the local target, each cell deployed afresh (" + Catalogue.LATENCY_METHOD.name() + "="
                + method + "; " + Catalogue.METHOD_SWITCHED + " applies each cell to the running deployment)" : "the local target, each cell applied to the deployment the previous cell of its graph ran on, what it "
                + "does not change kept running (" + Catalogue.LATENCY_METHOD.name() + "=" + method + ")";
        return new Prepared(deployer, planned, recorded, where, TargetKind.LOCAL);
    }

    /**
     * A cluster with Istio: each cell is istio-config/latency/cells/(cell) applied into the kit's namespace; the
     * generator runs here, through meshbench.ingressUrl / meshbench.latency.entrypointUrl, else
     * port-forwards or ClusterIPs (meshbench.kubernetes.serviceAccess).
     */
    private static Prepared kubernetes(Map<String, String> props, List<LatencyCell> cells, PrintStream out) {
        LatencyOnCluster.refuseLocalOnly(props);
        KubernetesSettings k8s = KubernetesSettings.latencyFromProperties(props);
        LatencyOnCluster.checkCells(cells, k8s);
        List<String> forwarded = new ArrayList<>();
        if (cells.stream().anyMatch(LatencyCell::ingress) && k8s.ingressUrl().isEmpty()) {
            forwarded.add("gateway cells (set -D" + KubernetesSettings.P_INGRESS_URL + ")");
        }
        if (cells.stream().anyMatch(c -> !c.ingress()) && k8s.entrypointUrl().isEmpty()) {
            forwarded.add("cells without a gateway (set -D" + KubernetesSettings.P_ENTRYPOINT_URL + ")");
        }
        if (!forwarded.isEmpty() && !k8s.clusterIps()) {
            out.println("[latency] WARNING: the load goes through port-forwards for " + String.join(" and ", forwarded) + ": a port-forward "
                    + "runs through the API server to one pod and limits the rate, so the maximum rates (and the latencies at a fraction "
                    + "of them) are the port-forward's, not the mesh's; from inside the cluster's network set -D"
                    + KubernetesSettings.P_SERVICE_ACCESS + "=cluster-ip");
        }
        String method = Catalogue.LATENCY_METHOD.value(props);
        Map<String, String> recorded = new TreeMap<>(LatencyOnCluster.recordedSettings(k8s));
        recorded.put(Catalogue.LATENCY_METHOD.name(), method);
        LatencyRunner.Deployer deployer = method.equals(Catalogue.METHOD_FRESH)
                ? LatencyRunner.Deployer.perCell(KubernetesLatencyDeployment.deployer(k8s, out))
                : LatencyRunner.Deployer.switched(KubernetesLatencyDeployment.deployer(k8s, out), (running, cell) -> {
                    ((KubernetesLatencyDeployment) running).applyCell(cell);
                    return true;
                });
        String how = method.equals(Catalogue.METHOD_FRESH) ? "each cell deployed afresh into it"
                : "each cell applied into it as kubectl apply would, pods kept where their template does not change";
        return new Prepared(deployer, LatencyOnCluster.plannedDataPlane(), recorded,
                "Kubernetes (namespace " + k8s.namespace() + ", " + how + "; " + Catalogue.LATENCY_METHOD.name() + "=" + method + ")",
                TargetKind.KUBERNETES);
    }
}
