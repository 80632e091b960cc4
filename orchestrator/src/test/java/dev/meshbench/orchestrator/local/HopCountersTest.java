package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.results.WorkCounters;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("hop counters: a mesh component's bytes from its per-listener stats")
class HopCountersTest {
    /** A sidecar as its stats show it: inbound HTTP, a call to a peer, and its service's MongoDB connection. */
    private static final String SIDECAR = """
            {"component":"sidecar-booking","dataPlane":"envoy","proxy":"envoy","listeners":{
              "inbound":{"accepted":3,"bytesClientToUpstream":1000,"bytesUpstreamToClient":4000},
              "to-customer":{"accepted":1,"bytesClientToUpstream":500,"bytesUpstreamToClient":1500},
              "mongo":{"accepted":2,"bytesClientToUpstream":700,"bytesUpstreamToClient":2300}}}
            """;

    @Test
    @DisplayName("adds both directions of every listener, and of the MongoDB listener on its own")
    void sidecarOnTheMongoPath() throws IOException {
        // all: 1000 + 4000 + 500 + 1500 + 700 + 2300 = 10 000; MongoDB: 700 + 2300 = 3 000
        assertEquals(Map.of(WorkCounters.LISTENER_BYTES, 10_000.0, WorkCounters.MONGO_PATH_BYTES, 3_000.0),
                HopCounters.of(new ObjectMapper().readTree(SIDECAR), List.of(ListenerNames.MONGO)));
    }

    @Test
    @DisplayName("a component off the MongoDB path (a bypass sidecar, the ingress gateway) gets its listener bytes only")
    void offTheMongoPath() throws IOException {
        assertEquals(Map.of(WorkCounters.LISTENER_BYTES, 10_000.0),
                HopCounters.of(new ObjectMapper().readTree(SIDECAR), List.of()));
        assertEquals(Map.of(WorkCounters.LISTENER_BYTES, 0.0),
                HopCounters.of(new ObjectMapper().readTree("{\"listeners\":{}}"), List.of(ListenerNames.MONGO)),
                "a MongoDB listener the stats do not show gets no MongoDB-path counter");
    }
}
