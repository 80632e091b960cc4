package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nginx's session log and info messages (as nginx 1.22 writes them) into the hop JSON. */
class NginxStatsReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @DisplayName("counts finished sessions from the access log and begun ones from the error log")
    void counts(@TempDir Path dir) throws IOException {
        Path access = dir.resolve("sni-proxy-access.log");
        Files.writeString(access, String.join("\n",
                "127.0.0.1 mongo.meshbench.test 200 7 326 127.0.0.1:29902 0.002",
                "127.0.0.1 unknown.example 500 0 0 - 0.000",
                "127.0.0.1  500 0 0 - 0.001",
                "127.0.0.1 mongo.meshbench.test 502 517 0 127.0.0.1:29902 0.001",
                "127.0.0.1 mongo.meshbench.test 200 100 200 127.0.0.1:29902 1.500",
                "garbage"), java.nio.charset.StandardCharsets.UTF_8);
        Path error = dir.resolve("sni-proxy.log");
        Files.writeString(error, String.join("\n",
                "2026/11/22 15:37:54 [notice] 10789#10789: start worker process 10797",
                "2026/11/22 15:37:55 [info] 10797#10797: *1 client 127.0.0.1:39574 connected to 127.0.0.1:29901",
                "2026/11/22 15:37:55 [info] 10797#10797: *1 proxy 127.0.0.1:35366 connected to 127.0.0.1:29902",
                "2026/11/22 15:37:55 [info] 10797#10797: *1 client disconnected, bytes from/to client:7/326, bytes from/to upstream:326/333",
                "2026/11/22 15:37:55 [info] 10797#10797: *3 client 127.0.0.1:39576 connected to 127.0.0.1:29901",
                "2026/11/22 15:37:55 [error] 10797#10797: *3 no host in upstream \"\", client: 127.0.0.1, server: 127.0.0.1:29901",
                "2026/11/22 15:37:55 [info] 10797#10797: *4 client 127.0.0.1:39578 connected to 127.0.0.1:29901",
                "2026/11/22 15:37:55 [info] 10797#10797: *5 client 127.0.0.1:39579 connected to 127.0.0.1:29901",
                "2026/11/22 15:37:55 [info] 10797#10797: *7 client 127.0.0.1:39580 connected to 127.0.0.1:29901",
                "2026/11/22 15:37:55 [info] 10797#10797: *7 proxy 127.0.0.1:35368 connected to 127.0.0.1:29902",
                "2026/11/22 15:37:55 [info] 10797#10797: *9 client 127.0.0.1:39581 connected to 127.0.0.1:29901",
                "2026/11/22 15:37:55 [info] 10797#10797: *9 proxy 127.0.0.1:35369 connected to 127.0.0.1:29902"),
                java.nio.charset.StandardCharsets.UTF_8);
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        JsonNode hop = JSON.readTree(NginxStatsReader.hopJson(plan.component("sni-proxy"), EnvoyFixtures.fixedAddresses(plan), access, error));
        assertEquals("sni-proxy", hop.path("component").asText());
        assertTrue(hop.path("note").asText().contains("when it closes"));
        JsonNode l = hop.at("/listeners/sni");
        assertEquals("none", l.path("tls").asText());
        assertTrue(l.path("routing").asText().startsWith("client-hello-sni[*.meshbench.test -> 127.0.0.1:"), l.toString());
        assertEquals(5, l.path("accepted").asLong());
        assertEquals(5, l.path("closed").asLong());
        assertEquals(1, l.path("active").asLong(), "six begun, five finished");
        assertEquals(7 + 517 + 100, l.path("bytesClientToUpstream").asLong());
        assertEquals(326 + 200, l.path("bytesUpstreamToClient").asLong());
        assertEquals(0, l.at("/refused/tls").asLong());
        assertEquals(2, l.at("/refused/sni").asLong());
        assertEquals(1, l.at("/refused/upstreamConnect").asLong());
        assertEquals(6, l.at("/nginx/connected").asLong());
        assertEquals(3, l.at("/nginx/upstreamConnected").asLong());
        assertEquals(1, l.at("/nginx/unparsedLines").asLong());
        assertEquals(2, l.at("/nginx/statuses/500").asLong());
    }

    @Test
    @DisplayName("logs that do not exist yet count nothing")
    void noLogsYet(@TempDir Path dir) throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, false);
        JsonNode l = JSON.readTree(NginxStatsReader.hopJson(plan.component("sni-proxy"), EnvoyFixtures.fixedAddresses(plan),
                dir.resolve("none.log"), dir.resolve("none-either.log"))).at("/listeners/sni");
        assertEquals(0, l.path("accepted").asLong());
        assertEquals(0, l.path("active").asLong());
        assertEquals(0, l.at("/refused/sni").asLong());
    }
}
