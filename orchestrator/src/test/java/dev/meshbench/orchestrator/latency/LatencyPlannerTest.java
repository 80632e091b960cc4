package dev.meshbench.orchestrator.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatencyPlannerTest {
    static final GraphShape DOUBLE = new GraphShape("double", List.of("go-sample-dependency", "go-sample"),
            Map.of("go-sample", List.of("go-sample-dependency")), "go-sample");
    static final GraphShape SINGLE = new GraphShape("single", List.of("a"), Map.of(), "a");
    private static final PlanOptions MTLS = new PlanOptions(DataPlane.ENVOY, true, 2, false);
    private static final PlanOptions PLAIN = new PlanOptions(DataPlane.NETTY, false, 2, false);

    @Test
    void noMeshIsJustTheReplicasAndCallersTakeTurnsOverTheirCallees() {
        TopologyPlan plan = LatencyPlanner.plan(new LatencyCell("double", 5, false, false), DOUBLE, PLAIN);
        assertEquals(10, plan.components().size());
        assertTrue(plan.components().stream().allMatch(c -> c.kind() == ComponentKind.SERVICE));
        assertEquals("go-sample-dependency-1", plan.components().get(0).name(), "callees start first");
        List<Endpoint> calls = plan.component("go-sample-3").calls().get("go-sample-dependency");
        assertEquals(List.of("go-sample-dependency-1", "go-sample-dependency-2", "go-sample-dependency-3", "go-sample-dependency-4",
                "go-sample-dependency-5"), calls.stream().map(Endpoint::component).toList());
        assertEquals(List.of("go-sample-1/http", "go-sample-2/http", "go-sample-3/http", "go-sample-4/http", "go-sample-5/http"),
                LatencyPlanner.clientTargets(plan, DOUBLE).stream().map(Endpoint::toString).toList());
    }

    @Test
    void sidecarsBalanceOverTheCalleesSidecarsWithMutualTls() {
        TopologyPlan plan = LatencyPlanner.plan(new LatencyCell("double", 5, false, true), DOUBLE, MTLS);
        assertEquals(20, plan.components().size());
        ComponentPlan app = plan.component("go-sample-2");
        assertEquals(List.of(new Endpoint("sidecar-go-sample-2", "to-go-sample-dependency")), app.calls().get("go-sample-dependency"));
        ListenerPlan out = plan.component("sidecar-go-sample-2").listener("to-go-sample-dependency");
        Routing.RoundRobin rr = (Routing.RoundRobin) out.routing().orElseThrow();
        assertEquals("go-sample-dependency.meshbench-latency.svc.cluster.local", rr.host());
        assertEquals(5, rr.upstreams().size());
        assertTrue(rr.upstreams().stream().allMatch(e -> e.listener().equals("inbound-mesh") && e.component().startsWith("sidecar-go-sample-dependency-")));
        assertEquals("spiffe://cluster.local/ns/meshbench-latency/sa/go-sample-dependency",
                out.upstreamTls().orElseThrow().peer().spiffeId().toString());
        assertEquals(InboundTls.MESH_MTLS, plan.component("sidecar-go-sample-dependency-4").listener("inbound-mesh").inbound());
        assertEquals(List.of("sidecar-go-sample-1/inbound", "sidecar-go-sample-2/inbound", "sidecar-go-sample-3/inbound",
                "sidecar-go-sample-4/inbound", "sidecar-go-sample-5/inbound"),
                LatencyPlanner.clientTargets(plan, DOUBLE).stream().map(Endpoint::toString).toList());
    }

    @Test
    void theIngressIsScaledAndSendsToTheEntrypointThroughItsSidecars() {
        TopologyPlan plan = LatencyPlanner.plan(new LatencyCell("single", 5, true, true), SINGLE, MTLS);
        List<ComponentPlan> ingress = plan.ofKind(ComponentKind.INGRESS_GATEWAY);
        assertEquals(5, ingress.size());
        assertEquals("ingress-gateway-5", plan.components().get(plan.components().size() - 1).name(), "the ingress starts last");
        ListenerPlan l = ingress.get(0).listener("http");
        Routing.RoundRobin rr = (Routing.RoundRobin) l.routing().orElseThrow();
        assertEquals(List.of("sidecar-a-1/inbound-mesh", "sidecar-a-2/inbound-mesh", "sidecar-a-3/inbound-mesh", "sidecar-a-4/inbound-mesh",
                "sidecar-a-5/inbound-mesh"), rr.upstreams().stream().map(Endpoint::toString).toList());
        assertTrue(l.upstreamTls().isPresent(), "the gateway speaks mTLS to sidecars");
        assertEquals(5, LatencyPlanner.clientTargets(plan, SINGLE).size());
        assertTrue(LatencyPlanner.clientTargets(plan, SINGLE).stream().allMatch(e -> e.component().startsWith("ingress-gateway-")));

        TopologyPlan noSidecar = LatencyPlanner.plan(new LatencyCell("single", 1, true, false), SINGLE, MTLS);
        ListenerPlan direct = noSidecar.component("ingress-gateway-1").listener("http");
        assertEquals(List.of(new Endpoint("a-1", "http")), direct.upstreams());
        assertTrue(direct.upstreamTls().isEmpty(), "no sidecar, no mTLS");
    }

    @Test
    void refusesACellOfAnotherGraph() {
        assertThrows(IllegalArgumentException.class, () -> LatencyPlanner.plan(new LatencyCell("double", 1, false, false), SINGLE, PLAIN));
        assertThrows(IllegalArgumentException.class, () -> new GraphShape("g", List.of("a", "b"), Map.of("b", List.of("c")), "b"),
                "a callee that is not listed before its caller");
    }
}
