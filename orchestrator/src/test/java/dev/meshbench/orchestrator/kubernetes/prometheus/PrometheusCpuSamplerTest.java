package dev.meshbench.orchestrator.kubernetes.prometheus;

import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.BOOKING;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.EGRESS_GATEWAY;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.SIDECAR_BOOKING;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.T_MS;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.containerCpu;
import static dev.meshbench.orchestrator.kubernetes.prometheus.AcmeairPods.series;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.orchestrator.kubernetes.prometheus.FakePrometheus.Answer;
import dev.meshbench.orchestrator.kubernetes.prometheus.FakePrometheus.Request;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Prometheus CPU sampler: polls without repeating a sample")
class PrometheusCpuSamplerTest {
    static final String CPU = ContainerCpu.query(List.of("acmeair", "istio-system"));
    static final String RESTART = "query_range-restart.json";
    static final Duration STEP = Duration.ofSeconds(10);
    static final Comparator<ResourceSample> ORDER = Comparator.comparingLong(ResourceSample::epochMs)
            .thenComparing(s -> s.component().name()).thenComparingLong(ResourceSample::pid);

    @Test
    @DisplayName("returns every recorded point exactly once, however the polls fall on the step grid")
    void everyPointOnce() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.start(r -> FakePrometheus.slice(RESTART, r, m -> true))) {
            PrometheusCpuSampler sampler = sampler(prometheus, Duration.ofSeconds(20));
            List<ResourceSample> polled = new ArrayList<>();
            for (long at : new long[] {25_000, 25_500, 47_000, 95_000, 131_000, 140_000}) {
                polled.addAll(sampler.poll(Instant.ofEpochMilli(T_MS + at)));
            }
            List<ResourceSample> recorded = containerCpu().samples(series(RESTART));
            assertEquals(25, recorded.size());
            polled.sort(ORDER);
            assertEquals(recorded, polled);
            assertEquals(List.of("[0, 20]", "[0, 40]", "[20, 90]", "[70, 130]", "[110, 140]"),
                    prometheus.requests().stream().map(PrometheusCpuSamplerTest::range).toList(),
                    "grid-aligned, each starting 20 s before the previous end; none at 25.5 s (no new grid time)");
            assertTrue(prometheus.requests().stream().allMatch(r -> r.params().get("step").equals("10")
                    && r.params().get("query").equals(CPU)));
        }
    }

    @Test
    @DisplayName("a series that reaches Prometheus late shows from where it began, within the overlap")
    void lateSeries() throws IOException {
        for (Duration overlap : List.of(Duration.ofSeconds(30), Duration.ZERO)) {
            AtomicInteger calls = new AtomicInteger();
            // The first answer lacks booking's sidecar (its first scrapes were not in yet); later ones have it.
            Predicate<JsonNode> sidecarLate = m -> calls.get() > 1 || !m.path("namespace").asText().equals("acmeair");
            try (FakePrometheus prometheus = FakePrometheus.start(r -> {
                calls.incrementAndGet();
                return FakePrometheus.slice(RESTART, r, sidecarLate);
            })) {
                PrometheusCpuSampler sampler = sampler(prometheus, overlap);
                List<ResourceSample> first = sampler.poll(Instant.ofEpochMilli(T_MS + 30_000));
                assertEquals(List.of(EGRESS_GATEWAY), first.stream().map(ResourceSample::component).distinct().toList());
                List<ResourceSample> second = sampler.poll(Instant.ofEpochMilli(T_MS + 60_000));
                assertEquals(List.of(40_000L, 50_000L, 60_000L), times(second, s -> s.component().equals(EGRESS_GATEWAY)),
                        "the gateway's points up to 30 s were returned before");
                List<Long> sidecar = times(second, s -> s.component().equals(SIDECAR_BOOKING));
                if (overlap.isZero()) {
                    assertEquals(List.of(30_000L, 40_000L, 50_000L), sidecar, "without overlap the start is lost");
                } else {
                    assertEquals(List.of(0L, 10_000L, 20_000L, 30_000L, 40_000L, 50_000L), sidecar);
                }
            }
        }
    }

    @Test
    @DisplayName("names the expected components no sample has come for: no series, or only NaN")
    void missing() throws IOException {
        String bookingNaN = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":"
                + "{\"container\":\"booking\",\"namespace\":\"acmeair\",\"pod\":\"booking-6c9f7d8b9-4xk2p\"},"
                + "\"values\":[[1700000000,\"NaN\"],[1700000010,\"NaN\"]]}]}}";
        List<dev.meshbench.orchestrator.deploy.Component> expected = List.of(SIDECAR_BOOKING, BOOKING, EGRESS_GATEWAY);
        AtomicInteger calls = new AtomicInteger();
        try (FakePrometheus prometheus = FakePrometheus.start(r -> calls.incrementAndGet() == 1
                ? Answer.fixture(200, "query_range-empty.json")
                : calls.get() == 2 ? Answer.json(200, bookingNaN) : FakePrometheus.slice(RESTART, r, m -> true))) {
            PrometheusCpuSampler sampler = sampler(prometheus, Duration.ofSeconds(20));
            assertEquals(expected, sampler.missing(expected));
            assertEquals(List.of(), sampler.poll(Instant.ofEpochMilli(T_MS + 10_000)));
            assertEquals(expected, sampler.missing(expected), "an empty result");
            assertEquals(List.of(), sampler.poll(Instant.ofEpochMilli(T_MS + 20_000)));
            assertEquals(expected, sampler.missing(expected), "booking's series has no usable value");
            sampler.poll(Instant.ofEpochMilli(T_MS + 30_000));
            assertEquals(List.of(BOOKING), sampler.missing(expected));
        }
    }

    @Test
    @DisplayName("loses nothing when a poll fails: the next one asks again from where the last success ended")
    void failedPoll() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        try (FakePrometheus prometheus = FakePrometheus.start(r -> calls.incrementAndGet() == 1
                ? Answer.fixture(503, "error-timeout.json") : FakePrometheus.slice(RESTART, r, m -> true))) {
            PrometheusCpuSampler sampler = sampler(prometheus, Duration.ofSeconds(20));
            PrometheusException e = assertThrows(PrometheusException.class,
                    () -> sampler.poll(Instant.ofEpochMilli(T_MS + 30_000)));
            assertTrue(e.getMessage().contains("answered HTTP 503: timeout"), e.getMessage());
            List<ResourceSample> next = sampler.poll(Instant.ofEpochMilli(T_MS + 40_000));
            assertEquals(List.of("[0, 30]", "[0, 40]"), prometheus.requests().stream().map(PrometheusCpuSamplerTest::range)
                    .toList());
            assertEquals(10, next.size(), "booking's sidecar and the gateway at 0, 10, 20, 30, 40 s");
        }
    }

    @Test
    @DisplayName("asks for at most 10,000 steps after a long gap, and nothing before `since` or between grid times")
    void boundsTheRange() throws IOException {
        try (FakePrometheus prometheus = FakePrometheus.start(r -> FakePrometheus.slice(RESTART, r, m -> true))) {
            PrometheusCpuSampler sampler = new PrometheusCpuSampler(PrometheusClientTest.client(prometheus), CPU,
                    Duration.ofSeconds(1), Duration.ofSeconds(5), Instant.ofEpochMilli(T_MS), containerCpu());
            assertEquals(List.of(), sampler.poll(Instant.ofEpochMilli(T_MS - 1)));
            assertEquals(List.of(), prometheus.requests(), "now is before since: nothing to ask");
            PrometheusCpuSampler late = new PrometheusCpuSampler(PrometheusClientTest.client(prometheus), CPU,
                    Duration.ofSeconds(1), Duration.ofSeconds(5), Instant.ofEpochMilli(T_MS - 86_400_000), containerCpu());
            late.poll(Instant.ofEpochMilli(T_MS + 60_000));
            assertEquals("[-9940, 60]", range(prometheus.requests().get(0)));
        }
    }

    @Test
    @DisplayName("rejects a step that is not whole milliseconds and a negative overlap")
    void rejectsBadSettings() {
        PrometheusClient client = new PrometheusClient(java.net.URI.create("http://127.0.0.1:9"), STEP);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PrometheusCpuSampler(client,
                CPU, Duration.ofNanos(1_500_000), Duration.ZERO, Instant.EPOCH, containerCpu()));
        assertEquals("CPU query step (PT0.0015S) must be a whole number of milliseconds, at least 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new PrometheusCpuSampler(client, CPU, STEP,
                Duration.ofSeconds(-1), Instant.EPOCH, containerCpu()));
        assertEquals("CPU query overlap (PT-1S) must not be negative", e.getMessage());
    }

    static PrometheusCpuSampler sampler(FakePrometheus prometheus, Duration overlap) {
        return new PrometheusCpuSampler(PrometheusClientTest.client(prometheus), CPU, STEP, overlap,
                Instant.ofEpochMilli(T_MS), containerCpu());
    }

    /** A request's range in seconds after T: {@code [0, 20]}. */
    static String range(Request r) {
        long t = T_MS / 1000;
        return "[" + (r.decimal("start").longValueExact() - t) + ", " + (r.decimal("end").longValueExact() - t) + "]";
    }

    static List<Long> times(List<ResourceSample> samples, Predicate<ResourceSample> which) {
        return samples.stream().filter(which).map(s -> s.epochMs() - T_MS).toList();
    }
}
