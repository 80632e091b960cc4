package dev.meshbench.results;

import dev.meshbench.model.CaseIds;
import java.util.List;

/** Constants of the results schema shared by the converter, the readers and every consumer. */
public final class ResultsSchema {
    /**
     * Version written into {@code run.json} and {@code results.json}. Version 2 added the run's data plane
     * ({@code inputs.dataPlane}); version 3 the workload ({@code inputs.workload}) and the work per transaction of
     * every step ({@code steps[].work}); version 4 the Kubernetes cluster of a run of the {@code kubernetes} target
     * ({@code inputs.cluster}); version 5 whether the load came through the ingress gateway
     * ({@code inputs.dataPlane.ingress}); version 6 every step's figures per request type ({@code steps[].labels});
     * version 7 the run's place in its sitting ({@code inputs.measurement.sitting}: switched or fresh, round, order).
     */
    public static final String VERSION = "7";

    /**
     * Versions the readers accept, oldest first. Files of an older version are upgraded as they are read (version 1:
     * {@code dataPlane} becomes {@link DataPlaneInfo#unknownNetty()}; versions 1 and 2: {@code workload} becomes
     * {@link WorkloadInfo#FIRST_VERSION}, steps have no {@code work}; versions 1 to 3: {@code cluster} is
     * {@code null}; versions 1 to 4: a recorded {@code dataPlane} gets {@code ingress} {@code false}, the load went
     * straight to the sidecars, except in a latency cell's document, whose data plane gets the cell's own
     * {@code ingress}; versions 1 to 5: steps have no {@code labels}, which reads as none; versions 1 to 6: no
     * {@code sitting}, which reads as each run deploying its case); any other version is refused.
     */
    public static final List<String> READABLE_VERSIONS = List.of("1", "2", "3", "4", "5", "6", VERSION);

    /** Cumulative counters of the application's work ({@code epochMs,component,counter,value}), sampled during a run. */
    public static final String COUNTERS_FILE = "counters.csv";

    /**
     * Host samples: the machine's CPU ({@code /proc/stat}), run queue and the load generator's CPU, cumulative, in
     * the format of {@link #COUNTERS_FILE}: component {@code host} with counters {@code cpuBusyTicks},
     * {@code cpuTotalTicks}, {@code runnableSum} and {@code samples}; component {@code loadgen} with {@code cpuMs}.
     */
    public static final String HOST_FILE = "host-samples.csv";

    /** File the orchestrator writes at the start of a run and updates as steps run. */
    public static final String RUN_FILE = "run.json";
    /** JMeter's CSV output of the run. */
    public static final String JTL_FILE = "samples.jtl";
    /** Cumulative CPU samples of every component process. */
    public static final String CPU_FILE = "cpu-samples.csv";
    /** The JTL's {@code step} label of the warm-up's samples (no step of the ramp): left out of every figure. */
    public static final int WARMUP_STEP = 0;
    /** The converted results, the only file charts and reports read. */
    public static final String RESULTS_FILE = "results.json";
    /** The results in the Service Mesh Performance format, next to {@link #RESULTS_FILE} (optional). */
    public static final String SMP_FILE = "smp.json";

    /**
     * The run kind of the latency study ({@link LatencyCellResults}): one document per cell, {@link #LATENCY_FILE}
     * in the cell's run folder under {@code results/latency/}, written with {@link #VERSION} and told apart from the
     * egress study's documents by its {@code kind}.
     */
    public static final String LATENCY_KIND = "latency-cell";
    public static final String LATENCY_FILE = "latency.json";

    /** Significant decimal digits kept by the latency histograms (HdrHistogram). */
    public static final int HISTOGRAM_SIGNIFICANT_DIGITS = 3;

    /** The case every comparison is made against (within one data plane). */
    public static final String BASELINE_CASE = CaseIds.BYPASS;

    /** Data plane names in the order reports show them; other names follow, alphabetically. */
    public static final List<String> KNOWN_DATA_PLANES = List.of(DataPlaneInfo.NETTY, DataPlaneInfo.ENVOY);

    private ResultsSchema() {
    }

    /**
     * Sort key of a case id: the study's cases ({@link CaseIds#ALL}) in study order, then any other id (to be ordered
     * alphabetically by the caller).
     */
    public static int caseOrder(String caseId) {
        int i = CaseIds.ALL.indexOf(caseId);
        return i >= 0 ? i : CaseIds.ALL.size();
    }

    /** Sort key of a data plane name: netty, envoy, then the rest (to be ordered alphabetically by the caller). */
    public static int dataPlaneOrder(String name) {
        int i = KNOWN_DATA_PLANES.indexOf(name);
        return i >= 0 ? i : KNOWN_DATA_PLANES.size();
    }
}
