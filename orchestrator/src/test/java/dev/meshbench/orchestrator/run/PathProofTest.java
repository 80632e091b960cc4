package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.EgressCase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PathProofTest {
    private static String listener(String name, long up, long down) {
        return "\"" + name + "\": {\"bytesClientToUpstream\": " + up + ", \"bytesUpstreamToClient\": " + down + "}";
    }

    private static String stats(String... listeners) {
        return "{\"listeners\": {" + String.join(", ", listeners) + "}}";
    }

    @Test
    @DisplayName("sni is proven when the sidecars, the egress gateway and the SNI proxy all carried MongoDB's bytes in the window")
    void sniProven() {
        Map<String, String> start = Map.of("sidecar-booking", stats(listener("mongo", 100, 100), listener("inbound", 5, 5)),
                "egress-gateway", stats(listener("egress", 100, 100)), "sni-proxy", stats(listener("sni", 0, 0)));
        Map<String, String> end = Map.of("sidecar-booking", stats(listener("mongo", 900, 4100), listener("inbound", 50, 50)),
                "egress-gateway", stats(listener("egress", 950, 4200)), "sni-proxy", stats(listener("sni", 850, 4100)));
        assertEquals(List.of(), PathProof.gaps(EgressCase.SNI, start, end));
    }

    @Test
    @DisplayName("a hop of the path that carried nothing, or one off the path that carried bytes, contradicts the case")
    void contradictions() {
        Map<String, String> start = Map.of("sidecar-booking", stats(listener("mongo", 100, 100)),
                "egress-gateway", stats(listener("egress", 100, 100)));
        Map<String, String> end = Map.of("sidecar-booking", stats(listener("mongo", 400, 900)),
                "egress-gateway", stats(listener("egress", 100, 100)));
        assertEquals(List.of("the MongoDB path of gateway passes the egress gateway, but egress-gateway/egress carried no bytes in the window"),
                PathProof.gaps(EgressCase.GATEWAY, start, end));
        assertEquals(List.of("the MongoDB path of bypass does not pass the sidecar, but sidecar-booking/mongo carried 1100 bytes in the window"),
                PathProof.gaps(EgressCase.BYPASS, start, end));
        assertEquals(List.of("the MongoDB path of sni passes the egress gateway, but egress-gateway/egress carried no bytes in the window",
                "the MongoDB path of sni passes the sni proxy, but no such component ran in the window"),
                PathProof.gaps(EgressCase.SNI, start, end));
    }

    @Test
    @DisplayName("nginx, which counts bytes when a session closes, proves its hop by sessions open behind a gateway whose bytes grew")
    void nginxOpenSessions() {
        String open = "{\"listeners\": {\"sni\": {\"active\": 3, \"bytesClientToUpstream\": 0, \"bytesUpstreamToClient\": 0}}}";
        String closed = "{\"listeners\": {\"sni\": {\"active\": 0, \"bytesClientToUpstream\": 0, \"bytesUpstreamToClient\": 0}}}";
        Map<String, String> start = Map.of("sidecar-booking", stats(listener("mongo", 100, 100)),
                "egress-gateway", stats(listener("egress", 100, 100)), "sni-proxy", open);
        Map<String, String> end = Map.of("sidecar-booking", stats(listener("mongo", 900, 900)),
                "egress-gateway", stats(listener("egress", 900, 900)), "sni-proxy", open);
        assertEquals(List.of(), PathProof.gaps(EgressCase.SNI, start, end));
        Map<String, String> none = Map.of("sidecar-booking", stats(listener("mongo", 900, 900)),
                "egress-gateway", stats(listener("egress", 900, 900)), "sni-proxy", closed);
        assertEquals(List.of("the MongoDB path of sni passes the sni proxy, but sni-proxy/sni carried no bytes in the window"),
                PathProof.gaps(EgressCase.SNI, start, none));
    }

    @Test
    @DisplayName("bypass is proven when no sidecar has a MongoDB listener that moved, and no egress hop runs")
    void bypassProven() {
        Map<String, String> s = Map.of("sidecar-booking", stats(listener("inbound", 5, 5), listener("mongo", 70, 70)));
        Map<String, String> e = Map.of("sidecar-booking", stats(listener("inbound", 500, 500), listener("mongo", 70, 70)));
        assertEquals(List.of(), PathProof.gaps(EgressCase.BYPASS, s, e));
    }
}
