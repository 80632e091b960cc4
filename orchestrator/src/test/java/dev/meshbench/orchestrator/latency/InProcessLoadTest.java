package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.latency.load.LoadGenerator;
import dev.meshbench.orchestrator.latency.load.LoadResult;
import dev.meshbench.orchestrator.latency.load.LoadSpec;
import dev.meshbench.orchestrator.latency.load.LoopbackServer;
import dev.meshbench.results.LoadPhase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The generator's result as the results schema records it; short loads against a server on 127.0.0.1. */
class InProcessLoadTest {

    @Test
    @DisplayName("an open loop records its service time beside its latency; a stalled server separates the two")
    void openLoopRecordsServiceTime() throws Exception {
        try (LoopbackServer s = LoopbackServer.start(n -> {
            if (n % 50 == 0) {
                Thread.sleep(200);
            }
            return 200;
        })) {
            LoadResult r = LoadGenerator.run(LoadSpec.of(List.of(s.uri())).withConnections(1).withRate(100)
                    .withDuration(Duration.ofSeconds(2)), line -> { });

            LoadPhase phase = InProcessLoad.phase(r);

            assertNotNull(phase.serviceTime(), "open loop");
            assertEquals(r.serviceTime().p99(), phase.serviceTime().p99());
            assertEquals(r.serviceTime().p50(), phase.serviceTime().p50());
            assertEquals(r.latency().p90(), phase.p90());
            assertTrue(phase.fellBehind(), phase.fellBehindReason());
            assertTrue(phase.p90() > 5 * phase.serviceTime().p90(),
                    "held-back requests wait behind the schedule: p90 " + phase.p90() + " vs service " + phase.serviceTime().p90());
        }
    }

    @Test
    @DisplayName("a closed loop has no separate service time: its latency is counted from the send")
    void closedLoopHasNone() throws Exception {
        try (LoopbackServer s = LoopbackServer.fast()) {
            LoadResult r = LoadGenerator.run(LoadSpec.of(List.of(s.uri())).withConnections(2).withDuration(Duration.ofMillis(300)),
                    line -> { });

            LoadPhase phase = InProcessLoad.phase(r);

            assertNull(phase.serviceTime());
            assertNull(phase.targetRate());
            assertEquals(r.requests(), phase.requests());
        }
    }
}
