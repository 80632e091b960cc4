package dev.meshbench.charts.model;

import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.AttributedCpu;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.ConversionMethod;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.LatencyStats;
import dev.meshbench.results.Machine;
import dev.meshbench.results.MeshAttribution;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RoleCpu;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepCpu;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A sitting written by hand as results.json files: envoy, one step of 20 clients with 1 000 transactions, so a
 * component's CPU in ms over 1 000 is its ms per transaction. Every run has the ingress gateway and one sidecar
 * ({@code sidecar-booking}, a share 0.2 of it on the MongoDB path outside bypass); mtls adds the egress gateway, sni
 * the egress gateway and the SNI proxy. CPU in ms per run (two runs per case):
 * <pre>
 *            ingress    sidecar (share)    egress    SNI proxy   mesh total
 *   bypass   350, 370   500, 520 (0)        -         -           850,  890
 *   mtls     360, 340   600, 620 (0.2)     90, 94     -          1050, 1054
 *   sni      300, 310   610, 590 (0.2)     92, 90    50, 54      1052, 1044
 * </pre>
 * The totals rank sni (1.048 ms/tx) below mtls (1.052) because its ingress gateway happened to use less; the
 * MongoDB path ranks sni (0.263) above mtls (0.214).
 */
final class AttributedSitting {
    static final int TRANSACTIONS = 1000;
    static final String SIDECAR = ComponentNames.sidecarOf("booking");

    /** One run's mesh CPU in ms: ingress gateway, sidecar, egress gateway, SNI proxy (0: not deployed). */
    record Mesh(double ingress, double sidecar, double egress, double sniProxy) {
    }

    static final Map<String, List<Mesh>> RUNS = Map.of(
            "bypass", List.of(new Mesh(350, 500, 0, 0), new Mesh(370, 520, 0, 0)),
            "mtls", List.of(new Mesh(360, 600, 90, 0), new Mesh(340, 620, 94, 0)),
            "sni", List.of(new Mesh(300, 610, 92, 50), new Mesh(310, 590, 90, 54)));

    private AttributedSitting() {
    }

    /** Writes {@code <case>-<repeat>/results.json} for the first {@code repeats} runs of each case. */
    static void write(Path results, int repeats) throws IOException {
        for (Map.Entry<String, List<Mesh>> c : RUNS.entrySet()) {
            for (int i = 0; i < repeats; i++) {
                String id = c.getKey() + "-" + (i + 1);
                ResultsJson.writeResults(results.resolve(id).resolve(ResultsSchema.RESULTS_FILE),
                        run(id, c.getKey(), c.getValue().get(i), true));
            }
        }
    }

    /** A run of {@code caseId}; without {@code attributed} as a run whose counters had no bytes per listener. */
    static RunResults run(String runId, String caseId, Mesh mesh, boolean attributed) {
        double share = caseId.equals("bypass") ? 0 : 0.2;
        List<ComponentCpu> components = new ArrayList<>();
        components.add(component(ComponentNames.EGRESS_GATEWAY, mesh.egress(), 1.0));
        components.add(component(ComponentNames.INGRESS_GATEWAY, mesh.ingress(), 0.0));
        components.add(component(SIDECAR, mesh.sidecar(), share));
        components.add(component(ComponentNames.SNI_PROXY, mesh.sniProxy(), 1.0));
        components.removeIf(c -> c.cpuMillis() == 0);
        if (!attributed) {
            components.replaceAll(c -> c.withMongoPathShare(null));
        }
        double total = mesh.ingress() + mesh.sidecar() + mesh.egress() + mesh.sniProxy();
        double mongo = mesh.egress() + mesh.sniProxy() + share * mesh.sidecar();
        MeshAttribution attribution = attributed ? new MeshAttribution(
                new AttributedCpu(mongo, mongo / TRANSACTIONS), new AttributedCpu(total - mongo, (total - mongo) / TRANSACTIONS))
                : null;
        StepCpu cpu = new StepCpu(new RoleCpu(total, total / 60_000, total / TRANSACTIONS, components.size()), null, null,
                null, attribution, components);
        RunInputs in = RunInputs.starting(runId, caseId, TargetKind.LOCAL, List.of(20), 70, 10, 0, 200,
                new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"), new Machine(2, 1L << 33, "Linux"),
                Instant.parse("2026-11-20T09:00:00Z")).withStep(StepWindow.planned(20).started(1_000).ended(71_000))
                .withDataPlane(new DataPlaneInfo(DataPlaneInfo.ENVOY, Map.of(), 2, true, true, "BoringSSL")).passed();
        StepResult step = new StepResult(20, 11_000, 71_000, 60, TRANSACTIONS, 0, 0, TRANSACTIONS, 0,
                TRANSACTIONS / 60.0, new LatencyStats(TRANSACTIONS, 1, 1.5, 1, 2, 2, 3, 9), cpu, null);
        return new RunResults(ResultsSchema.VERSION, in, ConversionMethod.current(true), List.of(step), List.of());
    }

    private static ComponentCpu component(String name, double cpuMillis, double share) {
        return new ComponentCpu(name, ComponentRole.MESH, cpuMillis, cpuMillis / 60_000, cpuMillis / TRANSACTIONS, 1, 1,
                null, share);
    }
}
