package dev.meshbench.model.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CatalogueTest {
    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    @DisplayName("no two settings share a name, and every name is found by it")
    void namesAreUnique() {
        Set<String> seen = new HashSet<>();
        for (Setting<?> s : Catalogue.ALL) {
            assertTrue(seen.add(s.name()), s.name() + " is declared twice");
            assertEquals(Optional.of(s), Catalogue.byName(s.name()));
        }
    }

    @Test
    @DisplayName("an absent setting takes its default; with the study's values, the study's value first; an explicit value wins")
    void defaultsAndStudyLayering() {
        assertEquals(List.of(20), Catalogue.CLIENTS.value(Map.of()));
        assertEquals(List.of(1, 5, 10, 20, 30, 40, 50, 60), Catalogue.CLIENTS.value(Map.of(), true));
        assertEquals(List.of(2, 4), Catalogue.CLIENTS.value(Map.of("meshbench.clients", " 2,4 "), true));
        assertEquals(20, Catalogue.STEP_SECONDS.value(Map.of()));
        assertEquals(300, Catalogue.STEP_SECONDS.value(Map.of(), true));
        assertEquals("switched", Catalogue.METHOD.value(Map.of()));
        assertEquals("fresh", Catalogue.METHOD.value(Map.of(), true), "the study ramps in a deployment per run");
        assertEquals(3, Catalogue.REPEATS.value(Map.of()));
        assertEquals(1, Catalogue.REPEATS.value(Map.of(), true));
        assertEquals("calibrated", Catalogue.LOAD.value(Map.of()));
        assertEquals("closed", Catalogue.LOAD.value(Map.of(), true), "the study's closed loop");
        assertEquals(false, Catalogue.SIDECAR_MTLS.value(Map.of(), true));
        assertEquals(Optional.empty(), Catalogue.RATE.read(Map.of()), "optional, no default");
    }

    @Test
    @DisplayName("an optional setting left empty is absent; one with a default left empty is refused, naming it")
    void blankValues() {
        assertEquals(Optional.empty(), Catalogue.RATE.read(Map.of("meshbench.rate", " ")));
        assertEquals(Optional.empty(), Catalogue.CPUS_MESH.read(Map.of("meshbench.cpus.mesh", "")));
        assertEquals("meshbench.stepSeconds=: must be a whole number of seconds",
                refusal(() -> Catalogue.STEP_SECONDS.value(Map.of("meshbench.stepSeconds", " "))));
    }

    @Test
    @DisplayName("a refused value names the property, the value and the rule")
    void refusalsNamePropertyValueAndRule() {
        assertEquals("meshbench.clients=0: client counts must be positive whole numbers",
                refusal(() -> Catalogue.CLIENTS.parse("0")));
        assertEquals("meshbench.clients=1,x: 'x' is not a whole number; give positive client counts like 1,5,10,20",
                refusal(() -> Catalogue.CLIENTS.parse("1,x")));
        assertEquals("meshbench.clients=5,5: client counts must be distinct (each one names its step in the results)",
                refusal(() -> Catalogue.CLIENTS.parse("5,5")));
        assertTrue(refusal(() -> Catalogue.CLIENTS.parse("1,2,3,4,5,6,7,8,9,10,11,12,13")).contains("at most 12 steps"));
        assertEquals("meshbench.repeats=0: must be between 1 and 100 runs of each case", refusal(() -> Catalogue.REPEATS.parse("0")));
        assertEquals("meshbench.flightCache=yes: must be true or false", refusal(() -> Catalogue.FLIGHT_CACHE.parse("yes")));
        assertEquals("meshbench.target=k8s: must be one of local, kubernetes", refusal(() -> Catalogue.TARGET.parse("k8s")));
        assertEquals("meshbench.latency.loadFraction=1.5: must be above 0 and at most 1; give a fraction such as 0.75",
                refusal(() -> Catalogue.LATENCY_LOAD_FRACTION.parse("1.5")));
        assertEquals("meshbench.cpus.mesh=3-1: range 3-1 runs backwards", refusal(() -> Catalogue.CPUS_MESH.parse("3-1")));
        assertEquals("meshbench.namespace=Acme: not a valid namespace name (lower-case letters, digits and '-', at most 63)",
                refusal(() -> Catalogue.NAMESPACE.parse("Acme")));
        assertEquals("--customers=0: must be between 1 and 1000000 customers (the most the customer service's loader generates)",
                refusal(() -> Catalogue.CUSTOMERS.parseAs("--customers", "0")));
    }

    @Test
    @DisplayName("values are read as typed values, normalized")
    void valuesAreTyped() {
        assertEquals("envoy", Catalogue.DATAPLANE.parse(" Envoy "));
        assertEquals("none", Catalogue.WARMUP.parse("0"));
        assertEquals("30", Catalogue.WARMUP.parse("030"));
        assertEquals(Map.entry("flight", 200), Catalogue.SLOW_SERVICE.parse("flight:200"));
        assertEquals("0,2-3", Catalogue.CPUS_LOADGEN.parse("0, 2-3"));
        assertEquals(List.of(50.0, 120.5), Catalogue.RATE.parse("50,120.5"));
    }

    @Test
    @DisplayName("CPU limits read per component kind, in cores or millicores, sorted; absent when not given")
    void cpuLimitsAreRead() {
        assertEquals(Map.of("sidecar", 0.5, "egress-gateway", 1.0, "ingress-gateway", 1.0),
                Catalogue.CPU_LIMITS.parse("sidecar=0.5, egress-gateway=1,ingress-gateway = 1000m"));
        assertEquals(List.of("auth", "mongo", "sni-proxy"),
                List.copyOf(Catalogue.CPU_LIMITS.parse("sni-proxy=250m,mongo=2,auth=0.01").keySet()));
        assertEquals(0.25, Catalogue.CPU_LIMITS.parse("sni-proxy=250m").get("sni-proxy"));
        assertEquals(Optional.empty(), Catalogue.CPU_LIMITS.read(Map.of()));
        assertEquals(Optional.empty(), Catalogue.CPU_LIMITS.read(Map.of("meshbench.cpuLimits", " ")));
    }

    @Test
    @DisplayName("a bad CPU limit is refused naming the property, the entry and what is wrong with it")
    void cpuLimitsRefused() {
        assertEquals("meshbench.cpuLimits=sidecar: 'sidecar' has no '=': give <kind>=<cores>, e.g. sidecar=0.5,egress-gateway=1",
                refusal(() -> Catalogue.CPU_LIMITS.parse("sidecar")));
        assertEquals("meshbench.cpuLimits=sidecars=0.5: 'sidecars' is not a component kind; give one of sidecar, "
                + "ingress-gateway, egress-gateway, sni-proxy, mongo, " + String.join(", ", dev.meshbench.model.ComponentNames.SERVICES),
                refusal(() -> Catalogue.CPU_LIMITS.parse("sidecars=0.5")));
        assertEquals("meshbench.cpuLimits=sidecar-auth=0.5: 'sidecar-auth' is not a component kind; give one of sidecar, "
                + "ingress-gateway, egress-gateway, sni-proxy, mongo, " + String.join(", ", dev.meshbench.model.ComponentNames.SERVICES),
                refusal(() -> Catalogue.CPU_LIMITS.parse("sidecar-auth=0.5")));
        assertEquals("meshbench.cpuLimits=sidecar=half: 'half' (sidecar) is not a number of cores; give e.g. 0.5 or 500m",
                refusal(() -> Catalogue.CPU_LIMITS.parse("sidecar=half")));
        assertEquals("meshbench.cpuLimits=mongo=0: mongo=0: a limit must be at least 0.01 cores (10m), the least a CFS quota enforces",
                refusal(() -> Catalogue.CPU_LIMITS.parse("mongo=0")));
        assertEquals("meshbench.cpuLimits=mongo=5m: mongo=5m: a limit must be at least 0.01 cores (10m), the least a CFS quota enforces",
                refusal(() -> Catalogue.CPU_LIMITS.parse("mongo=5m")));
        assertEquals("meshbench.cpuLimits=sidecar=1,,mongo=1: '' has no '=': give <kind>=<cores>, e.g. sidecar=0.5,egress-gateway=1",
                refusal(() -> Catalogue.CPU_LIMITS.parse("sidecar=1,,mongo=1")));
        assertEquals("meshbench.cpuLimits=sidecar=1,sidecar=500m: limits sidecar twice",
                refusal(() -> Catalogue.CPU_LIMITS.parse("sidecar=1,sidecar=500m")));
    }

    @Test
    @DisplayName("a default or study value its own rule refuses fails where the setting is declared")
    void badDefaultFailsAtDeclaration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Setting.named("meshbench.x")
                .parser(Parsers.wholeNumber(1, 10, "things")).defaultValue("11").doc("x").goals(Goal.EGRESS_RUN).build());
        assertEquals("meshbench.x=11: must be between 1 and 10 things", e.getMessage());
    }
}
