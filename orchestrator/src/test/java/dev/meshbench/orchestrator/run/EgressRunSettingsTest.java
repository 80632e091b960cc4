package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.local.CpuLimits;
import dev.meshbench.orchestrator.local.CpuSets;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.TargetKind;
import dev.meshbench.results.WarmupInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EgressRunSettingsTest {
    private static final Path RESULTS = Path.of("results");

    @TempDir
    Path bin;

    /** Two CPUs, plenty of open files, and a PATH holding a taskset. */
    private EgressRunSettings.Host host() throws java.io.IOException {
        Path taskset = bin.resolve("taskset");
        if (!Files.exists(taskset)) {
            Files.writeString(taskset, "#!/bin/sh\n");
            assertTrue(taskset.toFile().setExecutable(true));
        }
        return new EgressRunSettings.Host(2, 65_536, bin.toString());
    }

    private EgressRunSettings read(String... kv) throws java.io.IOException {
        Map<String, String> m = new HashMap<>(Map.of("meshbench.cases", "sni"));
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return EgressRunSettings.fromProperties(m, RESULTS, host());
    }

    private String refusal(String... kv) {
        return assertThrows(IllegalArgumentException.class, () -> read(kv)).getMessage();
    }

    @Test
    @DisplayName("absent properties: the local target, three rounds switched under one deployment, the original mix, a stable warm-up, no CPU sets, JMeter's default heap")
    void defaults() throws Exception {
        EgressRunSettings s = read();
        assertEquals(TargetKind.LOCAL, s.target());
        assertEquals(3, s.repeats());
        assertTrue(s.switched(), "the default method: one deployment, the cases switched in underneath it");
        assertEquals("0", s.driver().get("rewards.percent"));
        assertEquals("original", s.driver().get("workload"));
        assertEquals(WarmupInfo.STABLE, s.measurement().warmup().mode());
        assertEquals(List.of(), s.measurement().targetRatePerSecond());
        assertEquals(CpuSets.NONE, s.cpuSets());
        assertEquals(CpuLimits.NONE, s.cpuLimits());
        assertFalse(s.recorded().containsKey("meshbench.cpuLimits"));
        assertEquals(Optional.empty(), s.kubernetes());
        assertEquals(1024, s.jmeterHeapMb());
        assertEquals(5, s.progressSeconds());
        assertEquals(RESULTS, s.run().resultsDir());
    }

    @Test
    @DisplayName("meshbench.study=true gives the study's ramp and no sidecar mTLS; a typo is refused rather than read as false")
    void studyFlag() throws Exception {
        EgressRunSettings s = read("meshbench.study", "true");
        assertEquals(List.of(1, 5, 10, 20, 30, 40, 50, 60), s.run().clients());
        assertFalse(s.run().mesh().sidecarMtls());
        assertFalse(s.switched(), "the study's ramp runs in a deployment per run");
        assertEquals(1, s.repeats());
        assertEquals("300", s.recorded().get("meshbench.stepSeconds"), "run.json records the study's values in effect");
        assertEquals("meshbench.study=yes: must be true or false", refusal("meshbench.study", "yes"));
    }

    @Test
    @DisplayName("repeats, rewards, CPU sets and the JMeter heap are read, and bad values name the property")
    void readAndRefused() throws Exception {
        EgressRunSettings s = read("meshbench.repeats", " 3 ", "meshbench.rewardsPercent", "2.5", "meshbench.cpus.loadgen", "1",
                "meshbench.jmeterHeapMb", "2048", "meshbench.progressSeconds", "9");
        assertEquals(3, s.repeats());
        assertEquals("2.5", s.driver().get("rewards.percent"), "a decimal percent, as the plan reads it");
        assertEquals(List.of("taskset", "-c", "1"), s.cpuSets().prefix(ComponentRole.LOAD));
        assertEquals(2048, s.jmeterHeapMb());
        assertEquals(9, s.progressSeconds());
        assertEquals("meshbench.repeats=0: must be between 1 and 100 runs of each case", refusal("meshbench.repeats", "0"));
        assertEquals("meshbench.repeats=three: must be a whole number of runs of each case", refusal("meshbench.repeats", "three"));
        assertEquals("meshbench.rewardsPercent=101: must be from 0 to 100 percent of session rounds",
                refusal("meshbench.rewardsPercent", "101"));
        assertEquals("meshbench.cpus.loadgen=2: CPU 2 does not exist here (CPUs 0-1)", refusal("meshbench.cpus.loadgen", "2"));
        assertTrue(refusal("meshbench.jmeterHeapMb", "128").startsWith("meshbench.jmeterHeapMb=128: must be 256 or more MB"));
    }

    @Test
    @DisplayName("CPU limits are read, recorded in run.json as the setting takes them, and a bad one names the property")
    void cpuLimits() throws Exception {
        EgressRunSettings s = read("meshbench.cpuLimits", "sidecar=500m, egress-gateway=1,ingress-gateway=1");
        assertEquals(0.5, s.cpuLimits().of("sidecar-auth").orElseThrow());
        assertEquals("egress-gateway=1,ingress-gateway=1,sidecar=0.5", s.recorded().get("meshbench.cpuLimits"));
        assertEquals("meshbench.cpuLimits=sidecar=-1: sidecar=-1: a limit must be at least 0.01 cores (10m), the least a CFS "
                + "quota enforces", refusal("meshbench.cpuLimits", "sidecar=-1"));
    }

    @Test
    @DisplayName("a ramp above what this machine can drive is refused before anything starts, naming meshbench.clients")
    void loadCapacity() {
        String m = refusal("meshbench.clients", "1,600");
        assertTrue(m.startsWith("meshbench.clients=1,600: clients 600 is above the largest this machine can drive in one step, 500"), m);
    }

    @Test
    @DisplayName("the local target's own settings are refused on a cluster, naming the property")
    void localOnlyOnACluster() {
        assertEquals("meshbench.slowService=flight:200: only the local target can slow a service down",
                refusal("meshbench.target", "kubernetes", "meshbench.slowService", "flight:200"));
        assertEquals("meshbench.cpus.mesh: CPU sets are for the local target (on a cluster, use the pods' resources)",
                refusal("meshbench.target", "kubernetes", "meshbench.cpus.mesh", "0"));
        assertEquals("meshbench.cpuLimits=sidecar=0.5: CPU limits are for the local target (on a cluster, set the pods' "
                + "resources.limits.cpu)", refusal("meshbench.target", "kubernetes", "meshbench.cpuLimits", "sidecar=500m"));
        assertTrue(refusal("meshbench.target", "kubernetes").startsWith("meshbench.mongo.uri is not set"),
                "the cluster's settings are validated with the rest");
    }

    @Test
    @DisplayName("run.json's settings: defaults, the properties given, the JVM heaps; nothing that may be secret")
    void recorded() throws Exception {
        Path ca = Files.writeString(bin.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        Path kubeconfig = Files.writeString(bin.resolve("kubeconfig"), "apiVersion: v1\n");
        Map<String, String> r = read("meshbench.target", "kubernetes", "meshbench.kubeconfig", kubeconfig.toString(),
                "meshbench.prometheus.token", "t0k3n", "meshbench.mongo.uri", "mongodb://user:pw@db.example.com:27017/?tls=true",
                "meshbench.mongo.ca", ca.toString(), "meshbench.mongo.cidr", "10.0.0.5/32").recorded();
        assertEquals("20", r.get("meshbench.clients"));
        assertEquals("sni", r.get("meshbench.cases"));
        assertEquals("-Xms256m -Xmx1024m", r.get("jvm.jmeter"));
        assertFalse(r.containsKey("meshbench.kubeconfig"));
        assertFalse(r.containsKey("meshbench.prometheus.token"));
        assertEquals("mongodb://***@db.example.com:27017/?tls=true", r.get("meshbench.mongo.uri"));
        assertFalse(r.containsKey("meshbench.jmeterHeapMb"), "recorded as jvm.jmeter");
    }

    @Test
    @DisplayName("run.json's settings are the catalogue's: a POM's other meshbench.* properties, and locally the cluster's, are not")
    void recordedSettingsAreTheCatalogues() throws Exception {
        Map<String, String> r = read("meshbench.images.base", "eclipse-temurin:17-jre", "meshbench.images.tag", "0.1.0",
                "meshbench.dataplane", "envoy").recorded();
        assertEquals("envoy", r.get("meshbench.dataplane"));
        assertFalse(r.containsKey("meshbench.images.base"), "the image build's, not a setting");
        assertFalse(r.containsKey("meshbench.images.tag"), "a cluster's setting, on the local target");
    }

    @Test
    @DisplayName("by default the sitting's rate is calibrated first; a rate given by hand, a closed loop or the study's settings run none")
    void calibration() throws Exception {
        assertEquals(Optional.of(new EgressRunSettings.Calibration(0.5, 5)), read().calibrate());
        assertEquals(Optional.of(new EgressRunSettings.Calibration(0.3, 8)),
                read("meshbench.rateFraction", "0.3", "meshbench.rateShortfallPercent", "8").calibrate());
        EgressRunSettings byHand = read("meshbench.rate", "250");
        assertEquals(Optional.empty(), byHand.calibrate());
        assertEquals(List.of(250.0), byHand.measurement().targetRatePerSecond());
        assertEquals(Optional.empty(), read("meshbench.load", "closed").calibrate());
        assertEquals(Optional.empty(), read("meshbench.study", "true").calibrate(), "the study's closed loop");
        assertEquals(Optional.of(new EgressRunSettings.Calibration(0.5, 5)),
                read("meshbench.study", "true", "meshbench.load", "calibrated").calibrate(), "asked for under -Pstudy");
    }

    @Test
    @DisplayName("a closed loop with a rate, or a fraction outside (0, 1), is refused naming the settings")
    void calibrationRefusals() {
        assertEquals("meshbench.load=closed: a closed loop has no rate, but meshbench.rate=300 is given; drop one of them",
                refusal("meshbench.load", "closed", "meshbench.rate", "300"));
        assertTrue(refusal("meshbench.rateFraction", "1").startsWith("meshbench.rateFraction=1: "), refusal("meshbench.rateFraction", "1"));
        assertTrue(refusal("meshbench.load", "open").startsWith("meshbench.load=open: must be one of calibrated, closed"),
                refusal("meshbench.load", "open"));
    }
}
