package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.IdleDeployment;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.WorkCounters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CounterRecorderTest {

    /** A deployment whose counters and JIT readings are fixed. */
    private static Deployment deployment(Map<String, Map<String, Double>> work, Map<String, Double> jit) {
        return new IdleDeployment(EgressCase.SNI) {
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
