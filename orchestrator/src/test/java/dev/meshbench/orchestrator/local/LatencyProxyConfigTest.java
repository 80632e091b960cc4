package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.meshbench.orchestrator.latency.GraphShape;
import dev.meshbench.orchestrator.latency.LatencyCell;
import dev.meshbench.orchestrator.latency.LatencyPlanner;
import dev.meshbench.orchestrator.local.envoynginx.EnvoyBootstrapRenderer;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A latency cell's proxies as each data plane runs them: the round robin over replicas reaches their configuration. */
class LatencyProxyConfigTest {
    private static final GraphShape SINGLE = new GraphShape("single", List.of("a"), Map.of(), "a");

    private static MeshFiles files(TopologyPlan plan) {
        Map<String, Path> chains = new LinkedHashMap<>();
        Map<String, Path> keys = new LinkedHashMap<>();
        for (ComponentPlan c : plan.components()) {
            if (c.usesMeshMtls()) {
                chains.put(c.name(), Path.of("/pki", c.name() + ".crt"));
                keys.put(c.name(), Path.of("/pki", c.name() + ".key"));
            }
        }
        return new MeshFiles(Path.of("/pki/mesh-ca.pem"), chains, keys);
    }

    @Test
    void envoysIngressHasOneClusterOverEveryReplica() throws Exception {
        TopologyPlan plan = LatencyPlanner.plan(new LatencyCell("single", 5, true, true), SINGLE, new PlanOptions(DataPlane.ENVOY, true, 2, false));
        LocalAddresses a = LocalAddresses.reserve(plan);
        JsonNode root = new YAMLMapper().readTree(EnvoyBootstrapRenderer.render(plan, plan.component("ingress-gateway-2"), a, files(plan)));
        JsonNode clusters = root.path("static_resources").path("clusters");
        assertEquals(1, clusters.size());
        JsonNode cluster = clusters.get(0);
        assertEquals("outbound|80||a.meshbench-latency.svc.cluster.local", cluster.path("name").asText());
        JsonNode lb = cluster.path("load_assignment").path("endpoints").get(0).path("lb_endpoints");
        assertEquals(5, lb.size());
        for (int n = 1; n <= 5; n++) {
            assertEquals(a.port("sidecar-a-" + n, "inbound-mesh"), lb.get(n - 1).path("endpoint").path("address").path("socket_address")
                    .path("port_value").asInt());
        }
        assertEquals("spiffe://cluster.local/ns/meshbench-latency/sa/a", cluster.path("transport_socket").path("typed_config")
                .path("common_tls_context").path("validation_context").path("match_typed_subject_alt_names").get(0).path("matcher")
                .path("exact").asText());
        assertEquals("outbound|80||a.meshbench-latency.svc.cluster.local", root.path("static_resources").path("listeners").get(0)
                .path("filter_chains").get(0).path("filters").get(0).path("typed_config").path("route_config").path("virtual_hosts").get(0)
                .path("routes").get(0).path("route").path("cluster").asText());
    }

    @Test
    void nettyRelaysGetEveryReplicaInOneListener() {
        TopologyPlan plan = LatencyPlanner.plan(new LatencyCell("single", 5, true, false), SINGLE, new PlanOptions(DataPlane.NETTY, false, 1, false));
        LocalAddresses a = LocalAddresses.reserve(plan);
        List<String> args = NettyProxyArgs.of(plan.component("ingress-gateway-1"), a, files(plan), 1);
        assertEquals("sidecar", args.get(0));
        String spec = args.get(args.indexOf("--listener") + 1);
        StringBuilder ups = new StringBuilder();
        for (int n = 1; n <= 5; n++) {
            ups.append(n == 1 ? "" : "|").append("127.0.0.1:").append(a.port("a-" + n, "http"));
        }
        assertEquals("name=http,port=" + a.port("ingress-gateway-1", "http") + ",upstream=" + ups + ",upstream-name=a.meshbench-latency.svc.cluster.local",
                spec);
        assertTrue(args.stream().noneMatch(x -> x.equals("--ca-file")), "no mTLS without sidecars");
    }
}
