package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.results.KitVersions;
import dev.meshbench.results.Machine;
import dev.meshbench.results.MeshAttribution;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepCpu;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WorkCounters;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mesh CPU split into the MongoDB path and the shared parts, on a run folder small enough to work out by hand.
 *
 * <p>One step of 2 clients from t = 1 000 000 to 1 010 000 ms with a 2 s warm-up: the measured window is
 * [1 002 000, 1 010 000), and 4 transactions start in it. CPU in the window (samples at the window's edges):
 * <pre>
 *   ingress-gateway    40 ms     sidecar-customer 100 ms     sidecar-auth 20 ms
 *   egress-gateway     12 ms     sni-proxy          8 ms     customer (app) 200 ms
 * </pre>
 * Counters (cumulative, sampled at 1 000 000, 1 002 000, 1 010 000 and 1 012 000): sidecar-customer's listeners
 * 0, 50 000, 60 000, 100 000 bytes and its MongoDB listener 0, 100, 3 100, 3 200 bytes; sidecar-auth's listeners
 * 0, 1 000, 6 000, 9 000 and no MongoDB listener (auth does not use MongoDB). In the window sidecar-customer moved
 * 10 000 bytes, 3 000 of them MongoDB's: share 0.3 (over the whole run it would be 3 200 / 100 000 = 0.032, so
 * the window matters); sidecar-auth 5 000 bytes, none MongoDB's: share 0.
 * <pre>
 *   MongoDB path = egress 12 + SNI proxy 8 + 0.3 x 100 + 0 x 20      =  50 ms  -> 50 / 4  = 12.5 ms/tx
 *   shared       = ingress 40 + 0.7 x 100 + 1 x 20                    = 130 ms  -> 130 / 4 = 32.5 ms/tx
 *   together     = 180 ms = the mesh total 40 + 100 + 20 + 12 + 8
 * </pre>
 * In bypass (no egress gateway, no SNI proxy) MongoDB traffic passes no sidecar, so every sidecar's share is 0 with
 * or without counters: MongoDB path 0, shared 40 + 100 + 20 = 160 ms -> 40 ms/tx.
 */
class MeshAttributionTest {
    private static final long START = 1_000_000;
    private static final long WINDOW_START = 1_002_000;
    private static final long END = 1_010_000;
    private static final String CUSTOMER_SIDECAR = ComponentNames.sidecarOf("customer");
    private static final String AUTH_SIDECAR = ComponentNames.sidecarOf("auth");

    /** Component -> CPU used in the window, ms. */
    private static final Map<String, Integer> SNI_CPU = Map.of(ComponentNames.INGRESS_GATEWAY, 40,
            CUSTOMER_SIDECAR, 100, AUTH_SIDECAR, 20, ComponentNames.EGRESS_GATEWAY, 12, ComponentNames.SNI_PROXY, 8);
    private static final Map<String, Integer> BYPASS_CPU = Map.of(ComponentNames.INGRESS_GATEWAY, 40,
            CUSTOMER_SIDECAR, 100, AUTH_SIDECAR, 20);

    private static final String COUNTERS = "epochMs,component,counter,value\n"
            + counters(CUSTOMER_SIDECAR, WorkCounters.LISTENER_BYTES, 0, 50_000, 60_000, 100_000)
            + counters(CUSTOMER_SIDECAR, WorkCounters.MONGO_PATH_BYTES, 0, 100, 3_100, 3_200)
            + counters(AUTH_SIDECAR, WorkCounters.LISTENER_BYTES, 0, 1_000, 6_000, 9_000);

    @Test
    @DisplayName("sni: MongoDB path 50 ms = 12.5 ms/tx, shared 130 ms = 32.5 ms/tx, a sidecar's share from its bytes in the window")
    void sniByHand(@TempDir Path dir) throws IOException {
        StepCpu cpu = convert(dir, "sni", SNI_CPU, COUNTERS).steps().get(0).cpu();
        MeshAttribution a = cpu.attribution();
        assertNotNull(a, "every mesh component's share is known");
        assertEquals(50.0, a.mongoPath().cpuMillis(), 1e-9);
        assertEquals(12.5, a.mongoPath().cpuMsPerTransaction(), 1e-9);
        assertEquals(130.0, a.shared().cpuMillis(), 1e-9);
        assertEquals(32.5, a.shared().cpuMsPerTransaction(), 1e-9);
        assertEquals(cpu.mesh().cpuMillis(), a.mongoPath().cpuMillis() + a.shared().cpuMillis(), 1e-9,
                "the two sides add up to the mesh total");
        assertEquals(Map.of(ComponentNames.INGRESS_GATEWAY, 0.0, CUSTOMER_SIDECAR, 0.3, AUTH_SIDECAR, 0.0,
                ComponentNames.EGRESS_GATEWAY, 1.0, ComponentNames.SNI_PROXY, 1.0), shares(cpu));
        assertNull(component(cpu, "customer").mongoPathShare(), "an app component has no MongoDB share");
        // the parts, as the report reads them
        assertEquals(12.0, MeshPart.EGRESS_GATEWAY.cpuMillis(cpu), 1e-9);
        assertEquals(8.0, MeshPart.SNI_PROXY.cpuMillis(cpu), 1e-9);
        assertEquals(30.0, MeshPart.SIDECARS_MONGO.cpuMillis(cpu), 1e-9);
        assertEquals(40.0, MeshPart.INGRESS_GATEWAY.cpuMillis(cpu), 1e-9);
        assertEquals(90.0, MeshPart.SIDECARS_HTTP.cpuMillis(cpu), 1e-9, "0.7 x 100 + 1 x 20");
    }

    @Test
    @DisplayName("each JVM's JIT work in the window, from its jitMs counter; the busiest beyond the warm-up's quiet level is named")
    void jitInTheWindow(@TempDir Path dir) throws IOException {
        String counters = COUNTERS + counters("auth", WorkCounters.JIT_MS, 0, 2_000, 3_130, 3_200)
                + counters("customer", WorkCounters.JIT_MS, 0, 500, 520, 600);
        var work = convert(dir, "sni", SNI_CPU, counters).steps().get(0).work();
        // in the 8-s window: auth 3 130 - 2 000, customer 520 - 500
        assertEquals(Map.of("auth", 1130.0, "customer", 20.0), work.jitMs());
        // per 10 s: auth 1 412.5 ms, above a quiet level of 300; customer 25
        assertEquals(Map.entry("auth", 1130.0), work.busiestJit(8, 300).orElseThrow());
        assertTrue(work.busiestJit(8, 1500).isEmpty(), "below the level no JVM is named");
        var quiet = convert(Files.createDirectories(dir.resolve("quiet")), "sni", SNI_CPU, COUNTERS + counters("customer", WorkCounters.JIT_MS, 0, 500, 520, 600))
                .steps().get(0).work();
        assertTrue(quiet.busiestJit(8, 300).isEmpty(), "customer's 25 ms per 10 s is quiet");
        assertTrue(convert(Files.createDirectories(dir.resolve("none")), "sni", SNI_CPU, COUNTERS).steps().get(0).work().jitMs().isEmpty(),
                "no JIT counters (a cluster): none recorded");
    }

    @Test
    @DisplayName("bypass: MongoDB path 0 by construction, without any counter; shared 160 ms = 40 ms/tx")
    void bypassWithoutCounters(@TempDir Path dir) throws IOException {
        StepCpu cpu = convert(dir, "bypass", BYPASS_CPU, null).steps().get(0).cpu();
        assertEquals(0.0, cpu.attribution().mongoPath().cpuMillis());
        assertEquals(0.0, cpu.attribution().mongoPath().cpuMsPerTransaction());
        assertEquals(160.0, cpu.attribution().shared().cpuMillis(), 1e-9);
        assertEquals(40.0, cpu.attribution().shared().cpuMsPerTransaction(), 1e-9);
        assertEquals(Map.of(ComponentNames.INGRESS_GATEWAY, 0.0, CUSTOMER_SIDECAR, 0.0, AUTH_SIDECAR, 0.0), shares(cpu));
    }

    @Test
    @DisplayName("without counters (an old run, the Kubernetes target) a case through the sidecars has no attribution, and no share is made up")
    void absentWithoutCounters(@TempDir Path dir) throws IOException {
        RunResults r = convert(dir, "sni", SNI_CPU, null);
        StepCpu cpu = r.steps().get(0).cpu();
        assertNull(cpu.attribution());
        assertTrue(cpu.components().stream().allMatch(c -> c.mongoPathShare() == null), cpu.components().toString());
        assertEquals(180.0, cpu.mesh().cpuMillis(), 1e-9, "the mesh total is there as before");
        assertTrue(r.notes().stream().noneMatch(n -> n.contains("MongoDB path")), "an old run is not a problem: "
                + r.notes());
        String json = ResultsJson.toJson(r);
        assertTrue(!json.contains("attribution") && !json.contains("mongoPathShare"), "absent fields are not written");
    }

    @Test
    @DisplayName("counters of an older kit (MongoDB-path bytes only) give no attribution either")
    void absentWithMongoPathBytesOnly(@TempDir Path dir) throws IOException {
        String old = "epochMs,component,counter,value\n"
                + counters(CUSTOMER_SIDECAR, WorkCounters.MONGO_PATH_BYTES, 0, 100, 3_100, 3_200);
        assertNull(convert(dir, "sni", SNI_CPU, old).steps().get(0).cpu().attribution());
    }

    @Test
    @DisplayName("a sidecar missing from counters that other sidecars have: no attribution, and a note naming it")
    void absentWhenOneSidecarIsMissing(@TempDir Path dir) throws IOException {
        String partial = "epochMs,component,counter,value\n"
                + counters(CUSTOMER_SIDECAR, WorkCounters.LISTENER_BYTES, 0, 50_000, 60_000, 100_000)
                + counters(CUSTOMER_SIDECAR, WorkCounters.MONGO_PATH_BYTES, 0, 100, 3_100, 3_200);
        RunResults r = convert(dir, "sni", SNI_CPU, partial);
        assertNull(r.steps().get(0).cpu().attribution());
        assertTrue(r.notes().contains("step 2 clients: mesh CPU not split into MongoDB path and shared parts: no "
                + "listenerBytes in the window for " + AUTH_SIDECAR), r.notes().toString());
    }

    @Test
    @DisplayName("results.json with an attribution reads back to the same record, and its text round-trips")
    void roundTrip(@TempDir Path dir) throws IOException {
        RunResults r = convert(dir, "sni", SNI_CPU, COUNTERS);
        Path file = dir.resolve(ResultsSchema.RESULTS_FILE);
        ResultsJson.writeResults(file, r);
        RunResults back = ResultsJson.readResults(file);
        assertEquals(r.steps().get(0).cpu(), back.steps().get(0).cpu());
        assertEquals(Files.readString(file), ResultsJson.toJson(back));
    }

    @Test
    @DisplayName("results.json written before the attribution still reads, without it: version 1, and version 5 without the fields")
    void oldResultsRead() throws IOException {
        for (Path old : List.of(Path.of("src/test/resources/runs/mtls-v1/results.json"),
                Path.of("src/test/resources/runs/gateway-1/results.golden.json"))) {
            RunResults r = ResultsJson.readResults(old);
            assertTrue(r.steps().stream().allMatch(s -> s.cpu() != null && s.cpu().attribution() == null
                    && s.cpu().components().stream().allMatch(c -> c.mongoPathShare() == null)), old.toString());
        }
    }

    private static RunResults convert(Path dir, String caseId, Map<String, Integer> meshCpu, String counters)
            throws IOException {
        RunInputs in = RunInputs.starting("hand-worked", caseId, TargetKind.LOCAL, List.of(2), 10, 2, 0, 10,
                new KitVersions("0.1.0-SNAPSHOT", "17.0.15", "5.6.3"), new Machine(2, 1L << 33, "Linux"),
                Instant.ofEpochMilli(START)).withStep(StepWindow.planned(2).started(START).ended(END)).passed();
        ResultsJson.writeRunInputs(dir.resolve(ResultsSchema.RUN_FILE), in);
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,success,step\n");
        for (long t = 1_003_000; t <= 1_006_000; t += 1_000) {
            jtl.append(t).append(",5,true,2\n");
        }
        Files.writeString(dir.resolve(ResultsSchema.JTL_FILE), jtl);
        StringBuilder cpu = new StringBuilder("epochMs,component,role,pid,cpuMillis\n");
        int pid = 100;
        for (Map.Entry<String, Integer> c : meshCpu.entrySet()) {
            cpu.append(cpuRows(c.getKey(), "mesh", pid++, c.getValue()));
        }
        cpu.append(cpuRows("customer", "app", pid, 200));
        Files.writeString(dir.resolve(ResultsSchema.CPU_FILE), cpu);
        if (counters != null) {
            Files.writeString(dir.resolve(ResultsSchema.COUNTERS_FILE), counters);
        }
        return ResultsConverter.compute(dir);
    }

    /** Cumulative CPU: 500 ms before the window, {@code inWindow} more at its end, 7 more after it. */
    private static String cpuRows(String component, String role, int pid, int inWindow) {
        return START + "," + component + "," + role + "," + pid + ",0\n"
                + WINDOW_START + "," + component + "," + role + "," + pid + ",500\n"
                + END + "," + component + "," + role + "," + pid + "," + (500 + inWindow) + "\n"
                + (END + 1_000) + "," + component + "," + role + "," + pid + "," + (507 + inWindow) + "\n";
    }

    /** Samples at 1 000 000, 1 002 000 (window start), 1 010 000 (window end), 1 012 000. */
    private static String counters(String component, String counter, long... values) {
        long[] at = {START, WINDOW_START, END, END + 2_000};
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < at.length; i++) {
            b.append(at[i]).append(',').append(component).append(',').append(counter).append(',').append(values[i])
                    .append('\n');
        }
        return b.toString();
    }

    private static Map<String, Double> shares(StepCpu cpu) {
        return cpu.components().stream().filter(c -> c.mongoPathShare() != null)
                .collect(Collectors.toMap(ComponentCpu::component, ComponentCpu::mongoPathShare));
    }

    private static ComponentCpu component(StepCpu cpu, String name) {
        return cpu.components().stream().filter(c -> c.component().equals(name)).findFirst().orElseThrow();
    }
}
