package dev.meshbench.orchestrator.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.component.AcmeairApi;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.ListenerPlan.SniSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case's plan against a golden component list, with no process started. After a deliberate change, rewrite
 * the golden files with {@code mvn -pl orchestrator -am test -Dtest=TopologyPlannerTest -Dsurefire.failIfNoSpecifiedTests=false -Dmeshbench.regenerateGolden=true}
 * and review the diff.
 */
class TopologyPlannerTest {
    private static final Path GOLDEN = Path.of("src/test/resources/plans");

    static Stream<Arguments> everyCaseWithAndWithoutSidecarMtls() {
        return Stream.of(EgressCase.values()).flatMap(c -> Stream.of(Arguments.of(c, true), Arguments.of(c, false)));
    }

    @ParameterizedTest(name = "case {0}, sidecar mTLS {1}: plan matches its golden file")
    @MethodSource("everyCaseWithAndWithoutSidecarMtls")
    void golden(EgressCase c, boolean sidecarMtls) throws IOException {
        String text = TopologyPlanText.describe(TopologyPlanner.plan(c, new PlanOptions(DataPlane.ENVOY, sidecarMtls, 2, true)));
        Path file = GOLDEN.resolve(c.id() + (sidecarMtls ? "-sidecar-mtls" : "-plain") + ".txt");
        if (Boolean.getBoolean("meshbench.regenerateGolden")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(file, StandardCharsets.UTF_8), text);
    }

    @ParameterizedTest(name = "case {0}: the proxies are exactly the case's hops")
    @EnumSource(EgressCase.class)
    void proxiesFollowTheCase(EgressCase c) {
        TopologyPlan p = TopologyPlanner.plan(c, new PlanOptions(DataPlane.NETTY, true, 2, false));
        assertEquals(c.passes(HopKind.EGRESS_GATEWAY), !p.ofKind(ComponentKind.EGRESS_GATEWAY).isEmpty());
        assertEquals(c.passes(HopKind.SNI_PROXY), !p.ofKind(ComponentKind.SNI_PROXY).isEmpty());
        assertEquals(4, p.ofKind(ComponentKind.SIDECAR).size());
        assertEquals(4, p.ofKind(ComponentKind.SERVICE).size());
        for (ComponentPlan sidecar : p.ofKind(ComponentKind.SIDECAR)) {
            boolean hasMongo = sidecar.listeners().stream().anyMatch(l -> l.name().equals("mongo"));
            assertEquals(c.passes(HopKind.SIDECAR), hasMongo, sidecar.name());
            if (hasMongo) {
                assertEquals(c.meshMtls(), sidecar.listener("mongo").upstreamTls().isPresent(), sidecar.name());
            }
        }
        // Every service's MongoDB connection goes where the case's first link says.
        for (ComponentPlan svc : p.ofKind(ComponentKind.SERVICE)) {
            String via = svc.call("mongo").component();
            assertEquals(c.passes(HopKind.SIDECAR) ? "sidecar-" + svc.name() : "mongo", via);
        }
    }

    @Test
    @DisplayName("in case mtls the gateway terminates mesh mTLS and routes by the tunnel's server name to MongoDB")
    void mtlsGateway() {
        ListenerPlan egress = TopologyPlanner.plan(EgressCase.MTLS, new PlanOptions(DataPlane.ENVOY, false, 2, false))
                .component("egress-gateway").listener("egress");
        assertEquals(InboundTls.MESH_MTLS, egress.inbound());
        Routing.ByServerName r = (Routing.ByServerName) egress.routing().orElseThrow();
        assertEquals(SniSource.TUNNEL, r.source());
        assertEquals(List.of(new Endpoint("mongo", "mongo")), r.upstreams());
        assertEquals("mongo.meshbench.test", r.routes().get(0).pattern());
    }

    @Test
    @DisplayName("in case sni the mesh serves the wildcard and the SNI proxy routes it to MongoDB")
    void sniWildcard() {
        TopologyPlan p = TopologyPlanner.plan(EgressCase.SNI, new PlanOptions(DataPlane.ENVOY, true, 2, false));
        Routing.ByServerName gw = (Routing.ByServerName) p.component("egress-gateway").listener("egress").routing().orElseThrow();
        assertEquals("*.meshbench.test", gw.routes().get(0).pattern());
        assertEquals(new Endpoint("sni-proxy", "sni"), gw.routes().get(0).upstream());
        Routing.ByServerName sni = (Routing.ByServerName) p.component("sni-proxy").listener("sni").routing().orElseThrow();
        assertEquals(SniSource.CLIENT_HELLO, sni.source());
        assertEquals(new Endpoint("mongo", "mongo"), sni.routes().get(0).upstream());
    }

    @Test
    @DisplayName("with sidecar mTLS off, callers reach their peers' plain inbound listener and no sidecar needs a certificate in case gateway")
    void sidecarMtlsOff() {
        TopologyPlan p = TopologyPlanner.plan(EgressCase.GATEWAY, new PlanOptions(DataPlane.NETTY, false, 2, false));
        ListenerPlan toFlight = p.component("sidecar-booking").listener("to-flight");
        assertEquals(List.of(new Endpoint("sidecar-flight", "inbound")), toFlight.upstreams());
        assertFalse(toFlight.upstreamTls().isPresent());
        assertTrue(p.components().stream().noneMatch(ComponentPlan::usesMeshMtls));
        assertThrows(IllegalArgumentException.class, () -> p.component("sidecar-flight").listener("inbound-mesh"));
    }

    @ParameterizedTest(name = "case {0}: with the ingress, one entry routes exactly the client API, each operation to its service's sidecar; without, none")
    @EnumSource(EgressCase.class)
    void ingress(EgressCase c) {
        TopologyPlan with = TopologyPlanner.plan(c, new PlanOptions(DataPlane.NETTY, true, 2, true));
        List<ComponentPlan> entries = with.ofKind(ComponentKind.INGRESS_GATEWAY);
        assertEquals(List.of("ingress-gateway"), entries.stream().map(ComponentPlan::name).toList());
        assertEquals(entries.get(0), with.components().get(with.components().size() - 1), "the entry starts last, after its upstreams");
        ListenerPlan http = entries.get(0).listener("ingress");
        assertEquals(ListenerPlan.Protocol.HTTP, http.protocol());
        Routing.ByPath routes = (Routing.ByPath) http.routing().orElseThrow();
        assertEquals(AcmeairApi.PUBLIC, routes.routes().stream().map(ListenerPlan.PathRoute::operation).toList());
        assertEquals(new ListenerPlan.PathRoute(new AcmeairApi.Operation("GET", "/customer/byid/{custid}"),
                new Endpoint("sidecar-customer", "inbound")), routes.routes().get(3));
        for (ListenerPlan.PathRoute r : routes.routes()) {
            assertEquals(new Endpoint("sidecar-" + r.operation().service(), "inbound"), r.upstream(), r.toString());
        }
        assertTrue(routes.routes().stream().noneMatch(r -> r.operation().path().contains("internal") || r.operation().path().contains("loader")
                || r.operation().path().contains("config") || r.operation().path().contains("getrewardmiles")), routes.toString());
        TopologyPlan without = TopologyPlanner.plan(c, new PlanOptions(DataPlane.NETTY, true, 2, false));
        assertTrue(without.ofKind(ComponentKind.INGRESS_GATEWAY).isEmpty());
        assertEquals(with.components().size() - 1, without.components().size());
    }

    @Test
    @DisplayName("path routes: an operation is a known method and a path of segments, appears once, and only an HTTP listener routes by path")
    void pathRoutesAreChecked() {
        Endpoint up = new Endpoint("sidecar-auth", "inbound");
        for (String bad : List.of("auth", "/", "/auth/", "/auth//login", "/{x}/login", "/auth/lo gin", "/auth/{Id}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AcmeairApi.Operation("GET", bad));
            assertTrue(e.getMessage().contains("GET " + bad + ":"), e.getMessage());
        }
        assertEquals("API operation PUT /auth/login: method must be one of " + AcmeairApi.METHODS,
                assertThrows(IllegalArgumentException.class, () -> new AcmeairApi.Operation("PUT", "/auth/login")).getMessage());
        AcmeairApi.Operation login = new AcmeairApi.Operation("POST", "/auth/login");
        assertThrows(IllegalArgumentException.class, () -> new Routing.ByPath(
                List.of(new ListenerPlan.PathRoute(login, up), new ListenerPlan.PathRoute(login, up))));
        IllegalArgumentException tcp = assertThrows(IllegalArgumentException.class, () -> new ListenerPlan("http", ListenerPlan.Protocol.TCP,
                InboundTls.PLAIN, java.util.Optional.of(new Routing.ByPath(List.of(new ListenerPlan.PathRoute(login, up)))),
                java.util.Optional.empty()));
        assertEquals("listener http routes by path, so it must parse HTTP", tcp.getMessage());
        assertEquals("/customer/byid/[^/]+/rewards", new AcmeairApi.Operation("GET", "/customer/byid/{custid}/rewards").regex());
        assertEquals("customer", new AcmeairApi.Operation("GET", "/customer/byid/{custid}/rewards").service());
    }

    @Test
    @DisplayName("a plan whose listener sends to a component it does not have is refused, naming both")
    void danglingUpstream() {
        ComponentPlan lonely = new ComponentPlan("sidecar-x", ComponentKind.SIDECAR, java.util.Optional.empty(),
                List.of(new ListenerPlan("inbound", ListenerPlan.Protocol.HTTP, InboundTls.PLAIN,
                        java.util.Optional.of(new Routing.Fixed(new Endpoint("x", "http"))), java.util.Optional.empty())),
                java.util.Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TopologyPlan(EgressCase.SIDECAR, new PlanOptions(DataPlane.NETTY, false, 1, false), List.of(lonely)));
        assertEquals("plan of sidecar: sidecar-x/inbound sends to unknown component x", e.getMessage());
    }
}
