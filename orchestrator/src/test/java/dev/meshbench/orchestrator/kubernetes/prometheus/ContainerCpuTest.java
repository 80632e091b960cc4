package dev.meshbench.orchestrator.kubernetes.prometheus;

import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.BOOKING;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.EGRESS_GATEWAY;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.SIDECAR_BOOKING;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.T_MS;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.containerCpu;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.series;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Container CPU: cAdvisor series as the kit's per-component samples")
class ContainerCpuTest {

    @Test
    @DisplayName("makes a sample of every point of a placed container: seconds × 1000, no memory, sorted by time")
    void samplesOfPlacedContainers() {
        List<ResourceSample> samples = containerCpu().samples(series("query_range-cpu.json"));
        assertEquals(21, samples.size(), "3 placed containers × 7 points; the pod, pause and prometheus series left out");
        assertEquals(List.of(120_500L, 121_500L, 122_750L, 124_000L, 125_500L, 126_250L, 127_000L), cpu(samples, BOOKING));
        assertEquals(List.of(40_000L, 40_250L, 40_600L, 41_000L, 41_500L, 41_750L, 42_000L), cpu(samples, SIDECAR_BOOKING));
        assertEquals(List.of(15_000L, 15_125L, 15_500L, 15_875L, 16_250L, 16_500L, 16_750L), cpu(samples, EGRESS_GATEWAY));
        assertTrue(samples.stream().allMatch(s -> s.rssBytes() == -1));
        assertEquals(List.of("booking", "egress-gateway", "sidecar-booking"),
                samples.subList(0, 3).stream().map(s -> s.component().name()).toList());
        assertTrue(samples.subList(0, 3).stream().allMatch(s -> s.epochMs() == T_MS));
        assertEquals(T_MS + 60_000, samples.get(20).epochMs());
    }

    @Test
    @DisplayName("rounds seconds to the nearest millisecond (1.001 s is 1000.9999... in binary)")
    void rounds() {
        List<ResourceSample> samples = containerCpu().samples(series("query_range-restart.json"));
        ResourceSample s = samples.stream().filter(r -> r.epochMs() == T_MS + 80_000 && r.component().equals(SIDECAR_BOOKING))
                .findFirst().orElseThrow();
        assertEquals(1001, s.cpuMillis());
    }

    @Test
    @DisplayName("asks the resolver only about containers: not a pod's cgroup, the pause container or a per-CPU series")
    void asksOnlyAboutContainers() {
        List<Map<String, String>> asked = new ArrayList<>();
        // A careless resolver that places anything of the booking pod on booking.
        ContainerCpu cpu = new ContainerCpu(labels -> {
            asked.add(labels);
            return labels.get("pod").startsWith("booking-") ? Optional.of(BOOKING) : Optional.empty();
        });
        List<Series> series = new ArrayList<>(series("query_range-cpu.json"));
        Map<String, String> perCpu = new java.util.TreeMap<>(series.get(2).labels());
        perCpu.put("cpu", "cpu00");
        series.add(new Series(perCpu, series.get(2).points()));
        List<ResourceSample> samples = cpu.samples(series);
        assertEquals(List.of("booking", "istio-proxy", "istio-proxy", "prometheus"),
                asked.stream().map(l -> l.get("container")).sorted().toList(),
                "the booking app, booking's sidecar, the egress gateway's sidecar and prometheus: " + asked);
        assertEquals(14, samples.size(), "booking's app and sidecar, both placed on booking by this resolver");
    }

    @Test
    @DisplayName("skips NaN, infinite and negative values")
    void skipsUnusableValues() {
        List<Series> series = new ArrayList<>(series("query_range-special-values.json"));
        Series s = series.get(0);
        series.set(0, new Series(s.labels(), List.of(s.points().get(0), new Series.Point(T_MS + 5_000, -0.5),
                s.points().get(1), s.points().get(2), s.points().get(3), s.points().get(4), s.points().get(5),
                s.points().get(6))));
        List<ResourceSample> samples = containerCpu().samples(series);
        assertEquals(List.of(T_MS, T_MS + 20_000, T_MS + 50_000, T_MS + 60_000),
                samples.stream().map(ResourceSample::epochMs).toList());
        assertEquals(List.of(40_000L, 40_500L, 41_000L, 41_250L), cpu(samples, SIDECAR_BOOKING));
    }

    @Test
    @DisplayName("gives a container instance a stable positive pid from namespace, pod, container and id only")
    void stablePid() {
        List<Series> restart = series("query_range-restart.json");
        // Worked out apart from the code (Python: SHA-256 of the length-prefixed labels, first 8 bytes, top bit off).
        assertEquals(3_251_821_052_952_559_916L, ContainerCpu.pid(restart.get(0).labels()));
        assertEquals(7_247_106_899_466_625_042L, ContainerCpu.pid(restart.get(1).labels()), "restarted: a new id");
        assertEquals(6_477_454_414_356_267_059L, ContainerCpu.pid(restart.get(2).labels()));
        Map<String, String> otherScrape = new java.util.TreeMap<>(restart.get(0).labels());
        otherScrape.put("job", "kubelet");
        otherScrape.put("instance", "172.18.0.3:10250");
        otherScrape.put("image", "docker.io/istio/proxyv2:1.24.3");
        assertEquals(ContainerCpu.pid(restart.get(0).labels()), ContainerCpu.pid(otherScrape));
        // The labels are length-prefixed: moving a character from one label to the next changes the pid.
        assertNotEquals(ContainerCpu.pid(Map.of("namespace", "ab", "pod", "c")),
                ContainerCpu.pid(Map.of("namespace", "a", "pod", "bc")));
    }

    @Test
    @DisplayName("a restarted container (new id) is a new pid; a counter reset with the same id keeps its pid")
    void restartAndReset() {
        List<ResourceSample> samples = containerCpu().samples(series("query_range-restart.json"));
        Map<Long, List<Long>> sidecar = byPid(samples, SIDECAR_BOOKING);
        assertEquals(2, sidecar.size());
        assertEquals(List.of(50_000L, 50_500L, 51_000L, 51_500L, 52_000L, 52_500L), sidecar.get(3_251_821_052_952_559_916L));
        assertEquals(List.of(800L, 1001L, 1600L, 2000L, 2400L, 2800L), sidecar.get(7_247_106_899_466_625_042L));
        Map<Long, List<Long>> gateway = byPid(samples, EGRESS_GATEWAY);
        assertEquals(Set.of(6_477_454_414_356_267_059L), gateway.keySet(),
                "the converter splits a pid where its counter goes down");
        assertEquals(List.of(30_000L, 30_300L, 30_600L, 30_900L, 31_200L, 31_500L, 200L, 500L, 800L, 1_100L, 1_400L,
                1_700L, 2_000L), gateway.get(6_477_454_414_356_267_059L));
    }

    @Test
    @DisplayName("gives each replica its own pid and keeps one of two scrapes of the same container")
    void replicas() {
        List<ResourceSample> samples = containerCpu().samples(series("query_range-replicas.json"));
        Map<Long, List<Long>> gateway = byPid(samples, EGRESS_GATEWAY);
        assertEquals(2, gateway.size(), "two replicas");
        assertEquals(14, samples.size(), "7 points each; the second scrape of the first replica is left out");
        Set<String> pidAndTime = new HashSet<>();
        assertTrue(samples.stream().allMatch(s -> pidAndTime.add(s.pid() + "@" + s.epochMs())), "a pid twice at one time");
        assertTrue(gateway.values().contains(List.of(3_000L, 3_500L, 4_000L, 4_500L, 5_000L, 5_500L, 6_000L)));
    }

    @Test
    @DisplayName("selects the containers of the given namespaces in PromQL")
    void query() {
        assertEquals("container_cpu_usage_seconds_total{namespace=~\"acmeair|istio-system\",container!=\"\","
                + "container!=\"POD\"}", ContainerCpu.query(List.of("acmeair", "istio-system")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ContainerCpu.query(List.of("acmeair", "a|b")));
        assertEquals("namespace (a|b) must be a Kubernetes namespace name (lower-case letters, digits and '-', at most "
                + "63)", e.getMessage());
    }

    @Test
    @DisplayName("names the series when the resolver answers null")
    void resolverAnswersNull() {
        ContainerCpu cpu = new ContainerCpu(labels -> null);
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> cpu.samples(series("query_range-special-values.json")));
        assertTrue(e.getMessage().startsWith("the component resolver answered null for {__name__="), e.getMessage());
    }

    static List<Long> cpu(List<ResourceSample> samples, Component c) {
        return samples.stream().filter(s -> s.component().equals(c)).map(ResourceSample::cpuMillis).toList();
    }

    static Map<Long, List<Long>> byPid(List<ResourceSample> samples, Component c) {
        return samples.stream().filter(s -> s.component().equals(c)).collect(Collectors.groupingBy(ResourceSample::pid,
                Collectors.mapping(ResourceSample::cpuMillis, Collectors.toList())));
    }
}
