package dev.meshbench.orchestrator.run;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.kubernetes.KubernetesTarget;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.RunStatus;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.stats.GateCells;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code meshbench.baseline} checked by meshbench:run before anything is deployed, so that a baseline the gate
 * cannot use stops the build at once instead of after the runs: the path exists and is readable, holds results the
 * gate reads ({@link GateCells#read}, as meshbench:check does), and at least one of them can be compared with a run
 * of this build. Comparable here means what is known before deploying: a passed run of one of this build's cases,
 * on the same target, data plane (name, sidecar mTLS, ingress; on a cluster Istio's, whose mTLS is the mesh's) and
 * workload, sharing at least one client step.
 * meshbench:check still compares the finished runs by {@link GateCells#comparableAs} (which also tells the Netty
 * relays' TLS providers apart, known only once deployed).
 */
public final class BaselineCheck {
    private BaselineCheck() {
    }

    /**
     * The baseline's comparable runs, or an error naming {@value Verdict#P_BASELINE}, the value and what is wrong;
     * nothing to check without a baseline.
     */
    public static List<RunResults> check(File baseline, RunSettings config, TargetKind target) {
        if (baseline == null || baseline.getPath().isBlank()) {
            return List.of();
        }
        String named = Verdict.P_BASELINE + "=" + baseline;
        if (Files.exists(baseline.toPath()) && !Files.isReadable(baseline.toPath())) {
            throw new IllegalArgumentException(named + ": not readable by this user");
        }
        List<RunResults> runs = GateCells.read(baseline.toPath(), Verdict.P_BASELINE);
        List<RunResults> comparable = runs.stream().filter(r -> comparable(r.inputs(), config, target)).toList();
        if (comparable.isEmpty()) {
            Set<String> held = new LinkedHashSet<>();
            for (RunResults r : runs) {
                held.add(describe(r.inputs()));
            }
            List<String> shown = new ArrayList<>(held).subList(0, Math.min(5, held.size()));
            throw new IllegalArgumentException(named + ": none of its " + runs.size() + " run(s) can be compared with this "
                    + "build's, so the regression gate would have nothing to gate on; it compares passed runs of the same "
                    + "case, target, data plane and workload sharing a client step, and this build runs "
                    + wanted(config, target) + "; the baseline holds " + String.join("; ", shown)
                    + (held.size() > shown.size() ? "; ..." : ""));
        }
        return comparable;
    }

    private static boolean comparable(RunInputs in, RunSettings config, TargetKind target) {
        DataPlaneInfo plane = in.dataPlaneOrUnknown();
        return in.status() == RunStatus.PASSED
                && config.cases().stream().map(EgressCase::id).anyMatch(in.caseId()::equals)
                && in.target() == target
                && plane.name().equals(dataPlane(config, target))
                // on a cluster, Istio's mTLS is the mesh's, not meshbench.sidecarMtls
                && (target == TargetKind.KUBERNETES || plane.sidecarMtls() == config.mesh().sidecarMtls())
                && plane.ingress() == config.mesh().ingress()
                && workload(in).equals(config.workload().differences())
                && in.clientSteps().stream().anyMatch(config.clients()::contains);
    }

    /** The data plane this build's runs will record: Istio's on a cluster, meshbench.dataplane's locally. */
    private static String dataPlane(RunSettings config, TargetKind target) {
        return target == TargetKind.KUBERNETES ? KubernetesTarget.DATA_PLANE : config.mesh().dataPlane().id();
    }

    private static String workload(RunInputs in) {
        return in.workload() == null ? "" : in.workload().differences();
    }

    /** What this build's runs are, in the terms of {@link #describe}. */
    private static String wanted(RunSettings config, TargetKind target) {
        String w = config.workload().differences();
        return "case " + String.join(",", config.cases().stream().map(EgressCase::id).toList()) + " on " + target.id() + ", "
                + dataPlane(config, target) + (config.mesh().sidecarMtls() || target == TargetKind.KUBERNETES ? "" : " no sidecar mTLS")
                + (config.mesh().ingress() ? "" : " no ingress") + ", " + (w.isEmpty() ? "original workload" : w)
                + ", steps " + config.clients();
    }

    private static String describe(RunInputs in) {
        DataPlaneInfo plane = in.dataPlaneOrUnknown();
        String w = workload(in);
        return in.status().id() + " case " + in.caseId() + " on " + in.target().id() + ", " + plane.name()
                + (plane.sidecarMtls() ? "" : " no sidecar mTLS") + (plane.ingress() ? "" : " no ingress") + ", "
                + (w.isEmpty() ? "original workload" : w) + ", steps " + in.clientSteps();
    }
}
