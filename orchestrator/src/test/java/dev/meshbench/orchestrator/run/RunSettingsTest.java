package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.model.CaseIds;
import java.nio.file.Path;
import java.util.HashMap;
import dev.meshbench.results.WorkloadInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunSettingsTest {
    private static final Path RESULTS = Path.of("results");

    private static RunSettings read(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return RunSettings.fromProperties(m, false, RESULTS);
    }

    @Test
    @DisplayName("absent properties take the local defaults")
    void defaults() {
        RunSettings c = read("meshbench.cases", "sni");
        assertEquals(List.of(EgressCase.SNI), c.cases());
        assertEquals(dev.meshbench.model.settings.Catalogue.CLIENTS.defaultParsed(), c.clients());
        assertEquals(dev.meshbench.model.settings.Catalogue.STEP_SECONDS.defaultParsed(), c.stepSeconds());
        assertEquals((long) c.stepSeconds() * c.clients().size(), c.loadSecondsPerCase(), "every step back to back");
        assertEquals(RESULTS, c.resultsDir());
        // auto: Envoy where this machine has Envoy and nginx, else Netty; the rest as the catalogue says
        DataPlane auto = dev.meshbench.orchestrator.local.LocalDataPlane.choose(dev.meshbench.orchestrator.local.LocalDataPlane.Binaries.ON_PATH,
                System.getenv("PATH"), dev.meshbench.orchestrator.local.LocalDataPlane.cache()).dataPlane();
        assertEquals(new PlanOptions(auto, true, 2, true), c.mesh());
    }

    @Test
    @DisplayName("the data plane, sidecar mTLS, proxy workers and the ingress are read; the study turns sidecar mTLS off unless told")
    void mesh() {
        assertEquals(new PlanOptions(DataPlane.ENVOY, false, 1, false), read("meshbench.cases", "sni", "meshbench.dataplane", " Envoy ",
                "meshbench.sidecarMtls", "false", "meshbench.proxyWorkers", "1", "meshbench.ingress", " FALSE").mesh());
        assertEquals(true, RunSettings.fromProperties(Map.of("meshbench.cases", "sni"), true, RESULTS).mesh().ingress());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> read("meshbench.cases", "sni", "meshbench.ingress", "yes"));
        assertTrue(e.getMessage().contains("meshbench.ingress"), e.getMessage());
        assertEquals(false, RunSettings.fromProperties(Map.of("meshbench.cases", "sni"), true, RESULTS).mesh().sidecarMtls());
        assertEquals(true, RunSettings.fromProperties(Map.of("meshbench.cases", "sni", "meshbench.sidecarMtls", "true"), true, RESULTS)
                .mesh().sidecarMtls());
    }

    @Test
    @DisplayName("the workload defaults to the original Acmeair's; each switch is read on its own and validated")
    void workload() {
        assertEquals(WorkloadInfo.ORIGINAL, read("meshbench.cases", "sni").workload());
        assertEquals(new WorkloadInfo("roundtrip", true, false), read("meshbench.cases", "sni", "meshbench.workload", " RoundTrip ",
                "meshbench.rewardsAsync", "false").workload());
        assertEquals(new WorkloadInfo("original", false, true), read("meshbench.cases", "sni", "meshbench.flightCache", "false").workload());
        IllegalArgumentException mix = assertThrows(IllegalArgumentException.class,
                () -> read("meshbench.cases", "sni", "meshbench.workload", "study"));
        assertTrue(mix.getMessage().startsWith("meshbench.workload=study: must be one of original, roundtrip"), mix.getMessage());
        IllegalArgumentException cache = assertThrows(IllegalArgumentException.class,
                () -> read("meshbench.cases", "sni", "meshbench.flightCache", "yes"));
        assertEquals("meshbench.flightCache=yes: must be true or false", cache.getMessage());
    }

    @Test
    @DisplayName("the study profile gives the study's ramp, and explicit values still win")
    void study() {
        RunSettings c = RunSettings.fromProperties(Map.of("meshbench.cases", "all", "meshbench.stepSeconds", "60"), true, RESULTS);
        assertEquals(List.of(EgressCase.values()), c.cases());
        assertEquals(List.of(1, 5, 10, 20, 30, 40, 50, 60), c.clients());
        assertEquals(60, c.stepSeconds());
        assertEquals(10000, c.customers());
    }

    @ParameterizedTest(name = "{0}={1} is refused: {2}")
    @CsvSource(delimiter = '|', value = {
        "meshbench.clients|1,x|meshbench.clients=1,x: 'x' is not a whole number; give positive client counts like 1,5,10,20",
        "meshbench.clients|' '|meshbench.clients=: must list at least one client count, e.g. 1,5,10,20",
        "meshbench.clients|0,5|meshbench.clients=0,5: client counts must be positive whole numbers",
        "meshbench.clients|5,5|meshbench.clients=5,5: client counts must be distinct (each one names its step in the results)",
        "meshbench.clients|1,2,3,4,5,6,7,8,9,10,11,12,13|meshbench.clients=1,2,3,4,5,6,7,8,9,10,11,12,13: at most 12 steps (the JMeter plan has 12 step groups)",
        "meshbench.stepSeconds|-5|meshbench.stepSeconds=-5: must be 1 or more seconds",
        "meshbench.warmupSeconds|60|meshbench.warmupSeconds=60: must be at least 0 and less than meshbench.stepSeconds (20)",
        "meshbench.thinkTimeMs|-1|meshbench.thinkTimeMs=-1: must be 0 or more milliseconds",
        "meshbench.customers|ten|meshbench.customers=ten: must be a whole number of customers",
        "meshbench.dataplane|istio|meshbench.dataplane=istio: must be one of auto, envoy, netty",
        "meshbench.sidecarMtls|yes|meshbench.sidecarMtls=yes: must be true or false",
        "meshbench.proxyWorkers|0|meshbench.proxyWorkers=0: must be between 1 and 64 worker threads per proxy",
        "meshbench.proxyWorkers|two|meshbench.proxyWorkers=two: must be a whole number of worker threads per proxy",
        "meshbench.maxErrorPercent|101|meshbench.maxErrorPercent=101: must be between 0 and 100; give a percent such as 1",
    })
    void refusesBadInput(String key, String value, String message) {
        Map<String, String> m = new HashMap<>(Map.of("meshbench.cases", "sni"));
        m.put(key, value.equals(" ") ? " " : value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunSettings.fromProperties(m, false, RESULTS));
        assertEquals(message, e.getMessage());
    }

    @Test
    @DisplayName("a missing case list is refused, naming the allowed ids")
    void noCases() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read());
        assertEquals("meshbench.cases=: must name at least one case; allowed: " + String.join(", ", CaseIds.ALL) + ", all",
                e.getMessage());
    }

    @Test
    @DisplayName("an unknown case is refused, naming the allowed ids")
    void unknownCase() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunSettings.fromProperties(Map.of("meshbench.cases", "sni,istio"), false, RESULTS));
        assertEquals("meshbench.cases=sni,istio: 'istio' is not a case; allowed: " + String.join(", ", CaseIds.ALL) + ", all",
                e.getMessage());
    }

    @Test
    void targetIsLocalByDefaultAndNamedWhenWrong() {
        assertEquals(dev.meshbench.results.TargetKind.LOCAL, RunSettings.target(java.util.Map.of()));
        assertEquals(dev.meshbench.results.TargetKind.KUBERNETES, RunSettings.target(java.util.Map.of(RunSettings.P_TARGET, " kubernetes ")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunSettings.target(java.util.Map.of(RunSettings.P_TARGET, "k8s")));
        assertEquals("meshbench.target=k8s: must be one of local, kubernetes", e.getMessage());
    }

    @Test
    @DisplayName("a slowed service is read as service and milliseconds into the workload, and bad values name the property")
    void slowService() {
        assertEquals(Map.of(), read("meshbench.cases", "sni").workload().addedLatencyMs());
        WorkloadInfo w = read("meshbench.cases", "sni", "meshbench.slowService", " flight:200 ").workload();
        assertEquals(Map.of("flight", 200), w.addedLatencyMs());
        assertEquals("flight +200 ms", w.slowdown());
        assertEquals("", w.differences(), "a slowed run stays comparable with unslowed ones: that is its purpose");
        for (String bad : List.of("flight", "payments:20", "flight:0", "flight:-5", "flight:x", "flight:20:30")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> read("meshbench.cases", "sni", "meshbench.slowService", bad), bad);
            assertTrue(e.getMessage().startsWith("meshbench.slowService=" + bad), e.getMessage());
        }
    }

    @Test
    @DisplayName("a fixed rate: one value for every step or one per step, recorded with the shortfall rule; bad values name the property")
    void rate() {
        assertEquals(List.of(), RunSettings.measurement(Map.of(), List.of(1, 5)).targetRatePerSecond());
        assertEquals(null, RunSettings.measurement(Map.of(), List.of(1, 5)).rateShortfallPercent());
        var m = RunSettings.measurement(Map.of("meshbench.rate", "300"), List.of(1, 5));
        assertEquals(List.of(300.0, 300.0), m.targetRatePerSecond());
        assertEquals(5.0, m.rateShortfallPercent());
        assertEquals(List.of(50.0, 120.5), RunSettings.measurement(Map.of("meshbench.rate", "50,120.5",
                "meshbench.rateShortfallPercent", "2"), List.of(1, 5)).targetRatePerSecond());
        for (String bad : List.of("x", "0", "1,2,3", "-1")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RunSettings.measurement(Map.of("meshbench.rate", bad), List.of(1, 5)), bad);
            assertTrue(e.getMessage().startsWith("meshbench.rate=" + bad + ":"), e.getMessage());
        }
    }
}
