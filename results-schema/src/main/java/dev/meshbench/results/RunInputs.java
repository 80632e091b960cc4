package dev.meshbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.meshbench.model.CaseIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything that produced a run, as written to {@code run.json} by the orchestrator (at the start, then after
 * every step and at the end) and repeated inside {@code results.json}.
 *
 * @param schemaVersion {@link ResultsSchema#VERSION}
 * @param runId         unique id of the run, also the name of its folder under {@code results/}
 * @param caseId        egress case: {@code bypass}, {@code sidecar}, {@code gateway}, {@code mtls} or {@code sni}
 * @param target        where the components ran
 * @param steps         the load steps in the order they run; client counts are distinct
 * @param stepSeconds   planned duration of each step, seconds
 * @param warmupSeconds seconds skipped at the start of every step, for latency and for CPU
 * @param thinkTimeMs   pause of each JMeter client between two requests, milliseconds
 * @param customers     customer accounts loaded into the database before the run
 * @param versions      software versions
 * @param machine       the machine
 * @param startTime     when the run started (ISO-8601, UTC)
 * @param status        running, passed or failed
 * @param failureReason why a failed run failed; {@code null} otherwise
 * @param dataPlane     the data plane that carried the mesh traffic; {@code null} until the orchestrator has
 *                      deployed the case and recorded it ({@link #withDataPlane}). A report treats a run without
 *                      one as {@link DataPlaneInfo#unknownNetty()} ({@link #dataPlaneOrUnknown()})
 * @param workload      the driver's mix and the services' behaviour ({@link WorkloadInfo}); {@code null} until the
 *                      orchestrator records it. Files before version 3 are read as {@link WorkloadInfo#FIRST_VERSION}
 * @param cluster       the Kubernetes cluster the run ran on ({@link ClusterInfo}); only a run of the
 *                      {@code kubernetes} target has one, and only once the orchestrator has recorded it
 *                      ({@link #withCluster}). Always {@code null} for the local target and in files before version 4
 * @param measurement   the rules the run's results were checked against ({@link MeasurementInfo}); absent in runs
 *                      that recorded none, which are read with {@link MeasurementInfo#DEFAULT}
 */
@JsonPropertyOrder({"schemaVersion", "runId", "caseId", "target", "steps", "stepSeconds", "warmupSeconds",
        "thinkTimeMs", "customers", "versions", "machine", "startTime", "status", "failureReason", "dataPlane",
        "workload", "cluster", "measurement"})
public record RunInputs(
        @JsonProperty(required = true) String schemaVersion,
        @JsonProperty(required = true) String runId,
        @JsonProperty(required = true) String caseId,
        @JsonProperty(required = true) TargetKind target,
        @JsonProperty(required = true) List<StepWindow> steps,
        @JsonProperty(required = true) int stepSeconds,
        @JsonProperty(required = true) int warmupSeconds,
        @JsonProperty(required = true) int thinkTimeMs,
        @JsonProperty(required = true) int customers,
        @JsonProperty(required = true) KitVersions versions,
        @JsonProperty(required = true) Machine machine,
        @JsonProperty(required = true) Instant startTime,
        @JsonProperty(required = true) RunStatus status,
        String failureReason,
        DataPlaneInfo dataPlane,
        WorkloadInfo workload,
        ClusterInfo cluster,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        MeasurementInfo measurement) {

    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern CASE_ID = Pattern.compile("[a-z][a-z0-9-]*");

    public RunInputs {
        if (!ResultsSchema.VERSION.equals(schemaVersion)) {
            throw new IllegalArgumentException("schemaVersion (" + schemaVersion + ") must be "
                    + ResultsSchema.VERSION + ", the version this build writes (older files are upgraded when read)");
        }
        Checks.matches("runId", runId, RUN_ID, "must be usable as a folder name (letters, digits, . _ -)");
        Checks.matches("caseId", caseId, CASE_ID, "must be a lower-case id such as "
                + String.join(", ", CaseIds.ALL));
        Checks.present("target", target);
        Checks.present("steps", steps);
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("steps must list at least one step");
        }
        Set<Integer> seen = new HashSet<>();
        for (StepWindow s : steps) {
            Checks.present("steps[]", s);
            if (!seen.add(s.clients())) {
                throw new IllegalArgumentException("steps: " + s.clients() + " clients appears twice; every step "
                        + "needs its own client count (it identifies the step in the JTL)");
            }
        }
        steps = List.copyOf(steps);
        Checks.positive("stepSeconds", stepSeconds);
        Checks.notNegative("warmupSeconds", warmupSeconds);
        if (warmupSeconds >= stepSeconds) {
            throw new IllegalArgumentException("warmupSeconds (" + warmupSeconds + ") must be shorter than "
                    + "stepSeconds (" + stepSeconds + ")");
        }
        Checks.notNegative("thinkTimeMs", thinkTimeMs);
        Checks.notNegative("customers", customers);
        Checks.present("versions", versions);
        Checks.present("machine", machine);
        Checks.present("startTime", startTime);
        Checks.present("status", status);
        if (status == RunStatus.FAILED) {
            Checks.text("failureReason of a failed run", failureReason);
        } else if (failureReason != null) {
            throw new IllegalArgumentException("failureReason (\"" + failureReason + "\") is only allowed when "
                    + "status is failed, not " + status.id());
        }
        if (cluster != null && target != TargetKind.KUBERNETES) {
            throw new IllegalArgumentException("cluster is only allowed when target is "
                    + TargetKind.KUBERNETES.id() + ", not " + target.id() + " (the " + target.id()
                    + " target runs on no cluster)");
        }
    }

    /** Inputs of a run that is starting: every step planned, status running, data plane not yet recorded. */
    public static RunInputs starting(String runId, String caseId, TargetKind target, List<Integer> clientSteps,
            int stepSeconds, int warmupSeconds, int thinkTimeMs, int customers, KitVersions versions,
            Machine machine, Instant startTime) {
        List<StepWindow> steps = clientSteps.stream().map(StepWindow::planned).toList();
        return new RunInputs(ResultsSchema.VERSION, runId, caseId, target, steps, stepSeconds, warmupSeconds,
                thinkTimeMs, customers, versions, machine, startTime, RunStatus.RUNNING, null, null, null, null, null);
    }

    /** The client counts of the steps, in run order. */
    @JsonIgnore
    public List<Integer> clientSteps() {
        return steps.stream().map(StepWindow::clients).toList();
    }

    /** The step of {@code clients} clients. */
    public StepWindow step(int clients) {
        return steps.stream().filter(s -> s.clients() == clients).findFirst().orElseThrow(() ->
                new IllegalArgumentException("run " + runId + " has no step of " + clients + " clients (steps: "
                        + clientSteps() + ")"));
    }

    /** These inputs with the step of {@code window.clients()} clients replaced by {@code window}. */
    public RunInputs withStep(StepWindow window) {
        step(window.clients());
        List<StepWindow> updated = new ArrayList<>(steps);
        updated.replaceAll(s -> s.clients() == window.clients() ? window : s);
        return new RunInputs(schemaVersion, runId, caseId, target, updated, stepSeconds, warmupSeconds,
                thinkTimeMs, customers, versions, machine, startTime, status, failureReason, dataPlane, workload,
                cluster, measurement);
    }

    /** These inputs marked as passed. */
    public RunInputs passed() {
        return new RunInputs(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs,
                customers, versions, machine, startTime, RunStatus.PASSED, null, dataPlane, workload, cluster, measurement);
    }

    /** These inputs marked as failed for {@code reason}. */
    public RunInputs failed(String reason) {
        return new RunInputs(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs,
                customers, versions, machine, startTime, RunStatus.FAILED, reason, dataPlane, workload, cluster, measurement);
    }

    /** These inputs with the data plane the case was deployed on. */
    public RunInputs withDataPlane(DataPlaneInfo plane) {
        Checks.present("dataPlane", plane);
        return new RunInputs(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs,
                customers, versions, machine, startTime, status, failureReason, plane, workload, cluster, measurement);
    }

    /** These inputs with the workload the run drives. */
    public RunInputs withWorkload(WorkloadInfo w) {
        Checks.present("workload", w);
        return new RunInputs(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs,
                customers, versions, machine, startTime, status, failureReason, dataPlane, w, cluster, measurement);
    }

    /** These inputs with the cluster the run runs on; the target must be {@code kubernetes}. */
    public RunInputs withCluster(ClusterInfo c) {
        Checks.present("cluster", c);
        return new RunInputs(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs,
                customers, versions, machine, startTime, status, failureReason, dataPlane, workload, c, measurement);
    }

    /** These inputs with the rules the run's results are checked against. */
    public RunInputs withMeasurement(MeasurementInfo m) {
        Checks.present("measurement", m);
        return new RunInputs(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs,
                customers, versions, machine, startTime, status, failureReason, dataPlane, workload, cluster, m);
    }

    /** The rules the results are checked against, the defaults where the run recorded none. */
    @JsonIgnore
    public MeasurementInfo measurementOrDefault() {
        return measurement == null ? MeasurementInfo.DEFAULT : measurement;
    }

    /** Inputs as runs without measurement rules recorded them. */
    public RunInputs(String schemaVersion, String runId, String caseId, TargetKind target, List<StepWindow> steps,
            int stepSeconds, int warmupSeconds, int thinkTimeMs, int customers, KitVersions versions, Machine machine,
            Instant startTime, RunStatus status, String failureReason, DataPlaneInfo dataPlane, WorkloadInfo workload,
            ClusterInfo cluster) {
        this(schemaVersion, runId, caseId, target, steps, stepSeconds, warmupSeconds, thinkTimeMs, customers, versions,
                machine, startTime, status, failureReason, dataPlane, workload, cluster, null);
    }

    /**
     * The label a report groups runs by: the data plane's ({@link DataPlaneInfo#label()}), plus how the workload
     * differs from the original's, e.g. {@code "netty (BoringSSL TLS) · roundtrip mix, no flight cache, sync rewards"}.
     */
    @JsonIgnore
    public String seriesLabel() {
        String base = dataPlaneOrUnknown().label();
        if (workload == null) {
            return base + " · workload not recorded";
        }
        String d = workload.differences();
        return d.isEmpty() ? base : base + " · " + d;
    }

    /**
     * The data plane, or {@link DataPlaneInfo#unknownNetty()} when none was recorded: every run before the field
     * existed ran on the Netty relays.
     */
    public DataPlaneInfo dataPlaneOrUnknown() {
        return dataPlane != null ? dataPlane : DataPlaneInfo.unknownNetty();
    }
}
