package dev.meshbench.orchestrator.latency.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.testing.ClosedPort;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Small loads (a second or two) against servers on 127.0.0.1. No figure is asserted as a performance limit. */
class LoadGeneratorTest {
    private final List<String> progress = new ArrayList<>();

    private LoadResult run(LoadSpec spec) throws InterruptedException {
        LoadResult r = LoadGenerator.run(spec, progress::add);
        System.out.println(LoadResultRenderer.text(r)); // in target/surefire-reports/*-output.txt
        return r;
    }

    @Test
    @DisplayName("a closed loop gets every request answered, and sent exactly the requests the servers served")
    void closedLoop() throws Exception {
        try (LoopbackServer a = LoopbackServer.fast(); LoopbackServer b = LoopbackServer.fast()) {
            LoadResult r = run(LoadSpec.of(List.of(a.uri(), b.uri())).withConnections(4).withDuration(Duration.ofSeconds(1)));
            assertTrue(r.requests() > 0, "no requests");
            assertEquals(a.served() + b.served(), r.requests(), "requests sent vs served");
            assertTrue(a.served() > 0 && b.served() > 0, "connections spread over both targets: " + a.served() + ", " + b.served());
            assertEquals(r.requests(), r.ok());
            assertEquals(0, r.errors().total(), r.errors().describe());
            assertEquals(r.requests(), r.latency().count());
            assertEquals(r.latency(), r.serviceTime(), "closed loop: latency is service time");
            assertFalse(r.fellBehind());
            assertTrue(r.schedule().isEmpty());
            assertTrue(r.targetRate().isEmpty());
            assertTrue(r.elapsed().compareTo(Duration.ofSeconds(1)) >= 0, r.elapsed().toString());
            assertEquals(r.requests() / (r.elapsed().toNanos() / 1e9), r.achievedRate(), 1e-6);
            assertTrue(r.latency().p50() > 0 && r.latency().p50() <= r.latency().p99() && r.latency().p99() <= r.latency().max());
            Histogram h = r.latencyHistogramDecoded();
            assertEquals(r.requests(), h.getTotalCount(), "the encoded histogram has every answer");
            assertTrue(progress.get(0).startsWith("load: closed loop (as fast as possible), 4 connections over 2 targets"), progress.get(0));
            assertTrue(progress.get(progress.size() - 1).startsWith("load: done, " + r.requests() + " requests"), progress.toString());
        }
    }

    @Test
    @DisplayName("requests of the warm-up reach the server but are left out of the result")
    void warmupIsLeftOut() throws Exception {
        try (LoopbackServer s = LoopbackServer.fast()) {
            Duration warmup = Duration.ofMillis(300);
            long before = System.nanoTime();
            LoadResult r = run(LoadSpec.of(List.of(s.uri())).withConnections(2).withDuration(Duration.ofMillis(500))
                    .withWarmup(warmup));
            Duration around = Duration.ofNanos(System.nanoTime() - before);
            assertTrue(r.requests() > 0);
            assertTrue(s.served() > r.requests(), "served " + s.served() + ", measured " + r.requests());
            assertTrue(r.elapsed().compareTo(Duration.ofMillis(500)) >= 0, "at least the duration: " + r.elapsed());
            // The run, timed around it, holds the warm-up and then the measured time: measured from the start it would not
            // fit beside the warm-up. However slow the machine, this holds only if the warm-up is left out.
            assertTrue(r.elapsed().compareTo(around.minus(warmup)) <= 0,
                    "the measured time does not include the warm-up: " + r.elapsed() + " of a run of " + around);
        }
    }

    @Test
    @DisplayName("an open loop sends no request before it is due, never beats its rate, and sends or counts as missed every scheduled request")
    void openLoopKeepsTheRate() throws Exception {
        java.util.Queue<Long> arrivals = new java.util.concurrent.ConcurrentLinkedQueue<>();
        try (LoopbackServer s = LoopbackServer.start(n -> {
            arrivals.add(System.nanoTime());
            return 200;
        })) {
            long before = System.nanoTime();
            LoadResult r = run(LoadSpec.of(List.of(s.uri())).withConnections(4).withRate(100)
                    .withDuration(Duration.ofSeconds(2)).withWarmup(Duration.ofMillis(500)));
            LoadResult.ScheduleKeeping k = r.schedule().orElseThrow();
            assertEquals(200, k.scheduled(), "2 s at 100/s");
            assertEquals(k.scheduled(), k.sent() + k.missed(), () -> LoadResultRenderer.text(r));
            assertEquals(r.requests(), k.sent());
            assertEquals(r.requests(), r.ok(), r.errors().describe());
            assertTrue(r.achievedRate() <= 100, "at most the scheduled requests in at least the duration: " + r.achievedRate());
            assertEquals(10, k.lateThresholdMs(), "max(1 ms, 1/rate)");
            assertEquals(100, r.targetRate().getAsDouble());
            // Request i is due i x 10 ms after the start, and is not sent before: however slow the machine, the i-th
            // arrival at the server (warm-up included) comes no sooner. Whether every request went on time depends on the
            // machine (a busy one sends late, and says it fell behind), so that is judged from made figures below.
            List<Long> sorted = arrivals.stream().sorted().toList();
            assertTrue(sorted.size() >= r.requests(), sorted.size() + " arrivals");
            for (int i = 0; i < sorted.size(); i++) {
                long early = before + i * 10_000_000L - sorted.get(i);
                assertTrue(early <= 0, "request " + i + " arrived " + early / 1e6 + " ms before it was due");
            }
            assertEquals(r.fellBehind(), k.fellBehind());
            assertTrue(k.fellBehind() || k.reason().startsWith("kept the schedule"), k.reason());
        }
    }

    @Test
    @DisplayName("the schedule is kept with nothing missed, at most 1% sent late and 95% of the rate achieved; otherwise each shortfall is named")
    void scheduleVerdict() {
        LoadResult.ScheduleKeeping kept = LoadResult.ScheduleKeeping.judge(100, 200, 200, 2, 10, 12.5, 99.5);
        assertFalse(kept.fellBehind(), kept.reason());
        assertEquals(0, kept.missed());
        assertEquals("kept the schedule: none missed, 1% sent more than 10 ms late (limit 1%), 99.5% of the target rate", kept.reason());
        LoadResult.ScheduleKeeping behind = LoadResult.ScheduleKeeping.judge(100, 200, 190, 3, 10, 195.7, 94);
        assertTrue(behind.fellBehind());
        assertEquals(10, behind.missed());
        assertEquals("10 of 200 scheduled requests were never sent (every connection was busy until the end); 1.579% of the "
                + "requests were sent more than 10 ms late (limit 1%), up to 195.7 ms; achieved 94 req/s, 94% of the target 100 req/s "
                + "(limit 95%)", behind.reason());
    }

    @Test
    @DisplayName("a server that stalls makes the open loop fall behind, and the wait before sending counts in the latency")
    void stallsCountFromTheDueTime() throws Exception {
        long pauseMs = 200;
        try (LoopbackServer s = LoopbackServer.start(n -> {
            if (n % 50 == 0) {
                Thread.sleep(pauseMs);
            }
            return 200;
        })) {
            // one connection, a request due every 10 ms: each stall holds back the next ~20 requests
            LoadResult r = run(LoadSpec.of(List.of(s.uri())).withConnections(1).withRate(100).withDuration(Duration.ofSeconds(2)));
            LoadResult.ScheduleKeeping k = r.schedule().orElseThrow();
            assertTrue(r.fellBehind(), k.reason());
            assertTrue(k.lateSends() > 0, "late sends");
            assertTrue(k.reason().contains("sent more than 10 ms late"), k.reason());
            assertTrue(k.maxSendLagMs() >= pauseMs * 0.8, "max send lag " + k.maxSendLagMs());
            LoadResult.Latency latency = r.latency();
            LoadResult.Latency service = r.serviceTime();
            assertTrue(latency.max() >= pauseMs, "max " + latency.max());
            assertTrue(latency.p99() >= pauseMs * 0.9, "p99 " + latency.p99());
            // what a tool that times from the send would report: the held-back requests look fast
            assertTrue(latency.p90() >= pauseMs / 4.0, "p90 from the due time " + latency.p90());
            assertTrue(latency.p90() > 5 * service.p90(), "p90 " + latency.p90() + " vs service time " + service.p90());
            assertTrue(latency.mean() > 3 * service.mean(), "mean " + latency.mean() + " vs service time " + service.mean());
            assertEquals(service.count(), latency.count());
        }
    }

    @Test
    @DisplayName("answers with an error status are counted by status, and still timed")
    void errorStatus() throws Exception {
        try (LoopbackServer s = LoopbackServer.start(n -> n % 2 == 0 ? 500 : 404)) {
            LoadResult r = run(LoadSpec.of(List.of(s.uri())).withConnections(2).withDuration(Duration.ofMillis(500)));
            assertTrue(r.requests() > 1);
            assertEquals(0, r.ok());
            assertEquals(r.requests(), r.errors().total());
            assertEquals(r.requests(), r.errors().byStatus().get(404) + r.errors().byStatus().get(500));
            assertEquals(r.requests(), r.latency().count());
            assertTrue(r.errors().describe().startsWith("HTTP 404: "), r.errors().describe());
        }
    }

    @Test
    @DisplayName("a refused connection is a connect failure, in a closed and an open loop, and nothing hangs")
    void connectionRefused() throws Exception {
        try (ClosedPort nobody = new ClosedPort()) {
            URI closed = URI.create("http://127.0.0.1:" + nobody.port() + "/");
            LoadSpec spec = LoadSpec.of(List.of(closed)).withConnections(2).withDuration(Duration.ofMillis(500));
            LoadResult c = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> run(spec));
            assertTrue(c.errors().connect() > 0);
            assertEquals(c.requests(), c.errors().connect(), c.errors().describe());
            assertEquals(0, c.latency().count(), "no answer, no latency");
            LoadResult o = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> run(spec.withRate(40)));
            LoadResult.ScheduleKeeping k = o.schedule().orElseThrow();
            assertEquals(20, k.scheduled());
            assertEquals(20, k.sent() + k.missed(), k.reason());
            assertTrue(o.errors().connect() > 0, o.errors().describe());
            assertEquals(k.sent(), o.errors().connect(), "every request sent failed to connect: " + o.errors().describe());
        }
    }

    @Test
    @DisplayName("a server that never answers times out after the timeout, and the run ends")
    void timeout() throws Exception {
        // listens (the kernel completes the handshakes) but never reads nor answers
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            URI uri = URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/");
            LoadSpec spec = LoadSpec.of(List.of(uri)).withConnections(1).withDuration(Duration.ofMillis(500))
                    .withTimeout(Duration.ofMillis(150));
            LoadResult r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> run(spec));
            // One at a time, each given up after no less than 150 ms: in 500 ms at most 4 start (at 0, 150, 300, 450 ms at
            // the soonest). How many do depends on how fast the machine notices each timeout.
            assertTrue(r.errors().timeout() >= 1 && r.errors().timeout() <= 4, r.errors().describe());
            assertEquals(r.requests(), r.errors().timeout(), r.errors().describe());
            // Waiting the default timeout (5 s) for the last one instead of the spec's 150 ms would take this long.
            assertTrue(r.elapsed().compareTo(LoadSpec.DEFAULT_TIMEOUT) < 0, "ended after the last timeout: " + r.elapsed());
        }
    }

    @Test
    @DisplayName("the progress lines say elapsed/total, requests, current rate and errors")
    void progressLine() throws Exception {
        try (LoopbackServer s = LoopbackServer.fast()) {
            LoadResult r = run(LoadSpec.of(List.of(s.uri())).withConnections(1).withRate(20).withDuration(Duration.ofMillis(300)));
            assertTrue(progress.size() >= 2, progress.toString());
            assertTrue(progress.get(0).matches("load: open loop at 20 req/s, 1 connection to http://127\\.0\\.0\\.1:\\d+/hello\\?x=1, GET, "
                    + "0\\.3 s, timeout 5 s"), progress.get(0));
            // A line about every 5 s comes between only when the machine stalls the run that long.
            for (String line : progress.subList(1, progress.size() - 1)) {
                assertTrue(line.matches("load: \\d+\\.\\d/0\\.3 s.*, \\d+ requests, .* req/s in the last .* s, \\d+ errors"), line);
            }
            // 6 requests are due in 0.3 s; a busy machine may leave the last unsent, and it takes at least 0.3 s.
            assertTrue(r.requests() >= 1 && r.requests() <= 6, "requests " + r.requests());
            assertTrue(r.elapsed().compareTo(Duration.ofMillis(300)) >= 0, r.elapsed().toString());
            String done = progress.get(progress.size() - 1);
            assertTrue(done.startsWith("load: done, " + r.requests() + " requests in " + Figures.seconds(r.elapsed()) + " ("), done);
            assertTrue(done.matches("load: done, \\d+ requests in \\d+(\\.\\d+)? s \\(.* req/s\\), errors: none, latency ms p50 .*"), done);
        }
    }

    @Test
    @DisplayName("the JSON has the spec, the figures and histograms that decode to the same counts")
    void json() throws Exception {
        try (LoopbackServer s = LoopbackServer.fast()) {
            LoadResult r = run(LoadSpec.of(List.of(s.uri())).withConnections(2).withRate(50).withDuration(Duration.ofMillis(400)));
            Map<?, ?> json = new com.fasterxml.jackson.databind.ObjectMapper().readValue(LoadResultRenderer.json(r), Map.class);
            assertEquals(((Map<?, ?>) json.get("spec")).get("ratePerSecond"), 50.0);
            assertEquals(((Number) json.get("requests")).longValue(), r.requests());
            assertEquals(((Map<?, ?>) json.get("schedule")).get("fellBehind"), r.fellBehind());
            Map<?, ?> h = (Map<?, ?>) json.get("histograms");
            assertEquals(r.requests(), LoadResult.decode((String) h.get("latency")).getTotalCount());
            assertEquals(r.latency().p99(), ((Number) ((Map<?, ?>) json.get("latencyMs")).get("p99")).doubleValue());
            String text = LoadResultRenderer.text(r);
            assertTrue(text.startsWith("Open loop at 50 req/s, 2 connections to "), text);
            assertTrue(text.contains("Fell behind: "), text);
        }
    }
}
