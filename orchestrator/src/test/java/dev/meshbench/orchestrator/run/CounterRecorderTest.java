package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.AdminEndpoints;
import dev.meshbench.orchestrator.deploy.Component;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.Endpoints;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.WorkCounters;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CounterRecorderTest {

    /** A deployment whose counters and JIT readings are fixed. */
    private static Deployment deployment(Map<String, Map<String, Double>> work, Map<String, Double> jit) {
        return new Deployment() {
            @Override
            public EgressCase egressCase() {
                return EgressCase.SNI;
            }

            @Override
            public void awaitReady(Duration timeout) {
            }

            @Override
            public Endpoints endpoints() {
                return Endpoints.through(URI.create("http://127.0.0.1:1"), List.of("auth"));
            }

            @Override
            public AdminEndpoints serviceAdmin() {
                return new AdminEndpoints(Map.of());
            }

            @Override
            public List<Component> components() {
                return List.of();
            }

            @Override
            public List<ResourceSample> sampleResources() {
                return List.of();
            }

            @Override
            public Map<String, Map<String, Double>> workCounters() {
                return work;
            }

            @Override
            public Map<String, Double> jitMillis() {
                return jit;
            }

            @Override
            public Duration workCounterInterval() {
                return Duration.ofHours(1); // one sample at start, the test takes the next
            }

            @Override
            public Optional<String> failure() {
                return Optional.empty();
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    @DisplayName("each sample writes the work counters and every JVM's JIT so far (jitMs, one decimal) as rows of counters.csv")
    void writesWorkAndJit(@TempDir Path dir) throws Exception {
        CounterRecorder r = CounterRecorder.start(deployment(Map.of("customer", Map.of(WorkCounters.MONGO_COMMANDS, 12.0)),
                Map.of("auth", 1130.44, "customer", 20.0)), dir);
        r.sampleNow();
        r.close();
        List<String> rows = Files.readAllLines(dir.resolve(ResultsSchema.COUNTERS_FILE));
        assertEquals(CounterRecorder.HEADER, rows.get(0));
        List<String> fields = rows.subList(1, rows.size()).stream().map(l -> l.substring(l.indexOf(',') + 1)).distinct().sorted().toList();
        assertEquals(List.of("auth,jitMs,1130.4", "customer,jitMs,20.0", "customer,mongoCommands,12"), fields);
        assertTrue(rows.subList(1, rows.size()).stream().allMatch(l -> l.matches("\\d{13},.*")), "epoch ms first: " + rows);
    }
}
