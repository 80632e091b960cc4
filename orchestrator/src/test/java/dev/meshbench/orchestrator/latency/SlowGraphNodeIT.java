package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.ReadyLine;
import dev.meshbench.orchestrator.latency.load.LoadGenerator;
import dev.meshbench.orchestrator.latency.load.LoadResult;
import dev.meshbench.orchestrator.latency.load.LoadSpec;
import dev.meshbench.orchestrator.local.ComponentJars;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The open-loop generator against the real graph-node service made slow on purpose ({@code --pause-every 40
 * --pause-ms 250}): with one connection at 100 req/s each pause holds back the requests due behind it, so the
 * generator must say it fell behind, and its latencies (from intended send times) must include that wait, which
 * the service time (from the actual send) does not.
 */
class SlowGraphNodeIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void aPausingServiceMakesTheGeneratorFallBehindAndTheWaitCounts() throws Exception {
        ComponentJars jars = ComponentJars.inBuildTree(ROOT);
        // Port 0, the real one read from the ready line: a port picked here and bound by the node later could be taken
        // in between.
        List<String> cmd = new ArrayList<>(List.of(jars.java().toString(), "-Xmx128m", "-jar", jars.acmeairServices().toString(), "graph-node",
                "--graph", ROOT.resolve("istio-config/latency/graphs/single.yaml").toString(), "--service", "a", "--port", "0",
                "--pause-every", "40", "--pause-ms", "250", "--exit-on-stdin-eof"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            Optional<ReadyLine> ready = Optional.empty();
            for (String line; ready.isEmpty() && (line = out.readLine()) != null; ) {
                ready = ReadyLine.parse(line);
            }
            assertTrue(ready.isPresent(), "graph-node printed its ready line");
            URI target = URI.create("http://" + ready.get().get("address").orElseThrow() + "/");

            LoadResult r = LoadGenerator.run(LoadSpec.of(List.of(target)).withConnections(1).withRate(100).withDuration(Duration.ofSeconds(4))
                    .withWarmup(Duration.ofSeconds(1)), line -> { });
            LoadResult.ScheduleKeeping s = r.schedule().orElseThrow();
            assertEquals(0, r.errors().total(), r.errors().describe());
            assertTrue(s.fellBehind(), "fell behind: " + s.reason());
            assertTrue(s.lateSends() > 0 && s.maxSendLagMs() >= 150, s.reason());
            assertTrue(r.latency().max() >= 250, "the longest latency holds a whole pause: " + r.latency().describe());
            assertTrue(r.latency().p99() >= 150, "p99 from intended send times holds the wait: " + r.latency().describe());
            assertTrue(r.latency().p90() > 5 * r.serviceTime().p90(),
                    "counted from the actual send (coordinated omission) the same requests look fast: latency " + r.latency().describe()
                            + ", service time " + r.serviceTime().describe());

            // With 8 connections a pause holds one of them, and the others carry the schedule: every request sent is
            // answered. Whether the last ones due also went out before the end (20 ms apart) depends on how soon this
            // machine wakes a thread: a miss is allowed (and counted as missed), not asserted away.
            LoadResult calm = LoadGenerator.run(LoadSpec.of(List.of(target)).withConnections(8).withRate(50).withDuration(Duration.ofSeconds(2)),
                    line -> { });
            LoadResult.ScheduleKeeping c = calm.schedule().orElseThrow();
            assertEquals(0, calm.errors().total(), calm.errors().describe());
            assertEquals(100, c.scheduled(), "2 s at 50 req/s");
            assertEquals(c.scheduled(), c.sent() + c.missed(), c.reason());
            assertEquals(calm.requests(), calm.ok(), "with 8 connections every request sent is answered: " + c.reason());
        } finally {
            p.getOutputStream().close();
            p.destroy();
            p.waitFor();
        }
    }
}
