package dev.meshbench.orchestrator.plan;

import dev.meshbench.component.AcmeairApi;
import dev.meshbench.component.MeshNames;
import dev.meshbench.orchestrator.cases.EgressCase;
import dev.meshbench.orchestrator.cases.HopKind;
import dev.meshbench.orchestrator.cases.Link;
import dev.meshbench.orchestrator.cases.LinkSecurity;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.OriginateMtls;
import dev.meshbench.orchestrator.plan.ListenerPlan.PathRoute;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.results.ComponentNames;
import dev.meshbench.orchestrator.plan.ListenerPlan.ServerNameRoute;
import dev.meshbench.orchestrator.plan.ListenerPlan.SniSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one place a case becomes components: a pure function of the case's MongoDB path ({@link EgressCase#mongoPath()})
 * and the {@link PlanOptions}. The local target launches the result (Netty relays or Envoy and nginx, both rendered
 * from it); the JMH chains build their hops from it too.
 *
 * <p>What every case shares: with {@link PlanOptions#ingress()}, one ingress gateway routes the client API by path to
 * the services' sidecars; each Acmeair service has a sidecar that carries its inbound HTTP and its calls to other
 * services (auth -> customer; booking -> flight, customer). Only the MongoDB path differs, hop by hop as the case's
 * links say. Proxies on the MongoDB path match the external host by server name, as Istio's listeners for a TLS
 * {@code ServiceEntry} port do; a proxy that terminates the mesh's mTLS routes by that handshake's server name.
 */
public final class TopologyPlanner {
    /** The namespace of the services' identities. */
    public static final String APP_NAMESPACE = "acmeair";
    /** The egress gateway's identity, as Istio's. */
    public static final Identity GATEWAY_IDENTITY = new Identity("istio-system", "istio-egressgateway");
    /** The ingress gateway's identity, as Istio's. */
    public static final Identity INGRESS_IDENTITY = new Identity("istio-system", "istio-ingressgateway");

    /** Listener names the plans use. */
    public static final String HTTP = "http";
    public static final String INBOUND = "inbound";
    public static final String INBOUND_MESH = "inbound-mesh";
    public static final String MONGO_LISTENER = "mongo";
    public static final String EGRESS_LISTENER = "egress";
    public static final String SNI_LISTENER = "sni";
    /** The ingress gateway's one listener (the Netty entry's fixed name too). */
    public static final String INGRESS_LISTENER = "ingress";

    private TopologyPlanner() {
    }

    /** The listener of a caller's sidecar that carries its calls to {@code peer}. */
    public static String toPeer(String peer) {
        return "to-" + peer;
    }

    /** Which services a service calls (the Acmeair call graph). */
    public static List<String> peersOf(String service) {
        return switch (service) {
            case "auth" -> List.of("customer");
            case "booking" -> List.of("flight", "customer");
            default -> List.of();
        };
    }

    public static Identity serviceIdentity(String service) {
        return new Identity(APP_NAMESPACE, service);
    }

    public static TopologyPlan plan(EgressCase c, PlanOptions options) {
        List<Link> path = c.mongoPath();
        String hosts = path.stream().anyMatch(l -> l.routing() == Link.Routing.SNI_WILDCARD) ? MeshNames.MONGO_WILDCARD : MeshNames.MONGO_HOST;
        List<ComponentPlan> out = new ArrayList<>();
        out.add(new ComponentPlan(ComponentNames.MONGO, ComponentKind.DATABASE, Optional.empty(),
                List.of(ListenerPlan.destination(MONGO_LISTENER, Protocol.TCP, InboundTls.SERVER_TLS)), Map.of()));

        // The egress chain, backwards from MongoDB: each hop must exist before the one that sends to it.
        for (int i = path.size() - 1; i >= 1; i--) {
            Link in = path.get(i - 1);
            Link outLink = path.get(i);
            switch (in.to()) {
                case EGRESS_GATEWAY -> {
                    boolean terminates = in.security() == LinkSecurity.MESH_MTLS_TUNNEL;
                    out.add(new ComponentPlan(ComponentNames.EGRESS_GATEWAY, ComponentKind.EGRESS_GATEWAY, Optional.of(GATEWAY_IDENTITY),
                            List.of(new ListenerPlan(EGRESS_LISTENER, Protocol.TCP, terminates ? InboundTls.MESH_MTLS : InboundTls.PLAIN,
                                    Optional.of(byName(terminates ? SniSource.TUNNEL : SniSource.CLIENT_HELLO, hosts, endpointOf(outLink.to()))),
                                    Optional.empty())),
                            Map.of()));
                }
                case SNI_PROXY -> out.add(new ComponentPlan(ComponentNames.SNI_PROXY, ComponentKind.SNI_PROXY, Optional.empty(),
                        List.of(new ListenerPlan(SNI_LISTENER, Protocol.TCP, InboundTls.PLAIN,
                                Optional.of(byName(SniSource.CLIENT_HELLO, hosts, endpointOf(outLink.to()))), Optional.empty())),
                        Map.of()));
                case SIDECAR, APP, MONGO -> {
                    // sidecars are planned below with the rest of their listeners; APP and MONGO end the path
                }
            }
        }

        // Sidecars, callees first, so a caller's upstream exists when it starts.
        Link appLink = path.get(0);
        Optional<Link> sidecarOut = path.stream().filter(l -> l.from() == HopKind.SIDECAR).findFirst();
        for (String svc : ComponentNames.SERVICES) {
            List<ListenerPlan> listeners = new ArrayList<>();
            Endpoint app = new Endpoint(svc, HTTP);
            listeners.add(new ListenerPlan(INBOUND, Protocol.HTTP, InboundTls.PLAIN, Optional.of(new Routing.Fixed(app)), Optional.empty()));
            if (options.sidecarMtls()) {
                listeners.add(new ListenerPlan(INBOUND_MESH, Protocol.HTTP, InboundTls.MESH_MTLS, Optional.of(new Routing.Fixed(app)), Optional.empty()));
            }
            for (String peer : peersOf(svc)) {
                Endpoint peerInbound = new Endpoint(ComponentNames.sidecarOf(peer), options.sidecarMtls() ? INBOUND_MESH : INBOUND);
                listeners.add(new ListenerPlan(toPeer(peer), Protocol.HTTP, InboundTls.PLAIN, Optional.of(new Routing.Fixed(peerInbound)),
                        options.sidecarMtls()
                                ? Optional.of(new OriginateMtls(peer + "." + APP_NAMESPACE + ".svc.cluster.local", serviceIdentity(peer)))
                                : Optional.empty()));
            }
            sidecarOut.ifPresent(l -> listeners.add(new ListenerPlan(MONGO_LISTENER, Protocol.TCP, InboundTls.PLAIN,
                    Optional.of(byName(SniSource.CLIENT_HELLO, hosts, endpointOf(l.to()))),
                    l.security() == LinkSecurity.MESH_MTLS_TUNNEL
                            ? Optional.of(new OriginateMtls(MeshNames.MONGO_HOST, identityOf(l.to())))
                            : Optional.empty())));
            out.add(new ComponentPlan(ComponentNames.sidecarOf(svc), ComponentKind.SIDECAR, Optional.of(serviceIdentity(svc)), listeners, Map.of()));
        }

        for (String svc : ComponentNames.SERVICES) {
            Map<String, List<Endpoint>> calls = new LinkedHashMap<>();
            calls.put(ComponentNames.MONGO, List.of(switch (appLink.to()) {
                case MONGO -> new Endpoint(ComponentNames.MONGO, MONGO_LISTENER);
                case SIDECAR -> new Endpoint(ComponentNames.sidecarOf(svc), MONGO_LISTENER);
                case APP, EGRESS_GATEWAY, SNI_PROXY -> throw new IllegalStateException(
                        "case " + c.id() + ": a service's MongoDB connection must go to MongoDB or its sidecar, not " + appLink.to());
            }));
            for (String peer : peersOf(svc)) {
                calls.put(peer, List.of(new Endpoint(ComponentNames.sidecarOf(svc), toPeer(peer))));
            }
            out.add(new ComponentPlan(svc, ComponentKind.SERVICE, Optional.empty(),
                    List.of(ListenerPlan.destination(HTTP, Protocol.HTTP, InboundTls.PLAIN)), calls));
        }

        if (options.ingress()) {
            // Acmeair's own Istio manifests: a Gateway on the ingress gateway and a VirtualService routing the client
            // API (AcmeairApi.PUBLIC, nothing else) to each service. The ingress talks plain HTTP to the sidecars'
            // inbound, in every case alike.
            List<PathRoute> routes = AcmeairApi.PUBLIC.stream()
                    .map(op -> new PathRoute(op, new Endpoint(ComponentNames.sidecarOf(op.service()), INBOUND))).toList();
            out.add(new ComponentPlan(ComponentNames.INGRESS_GATEWAY, ComponentKind.INGRESS_GATEWAY, Optional.of(INGRESS_IDENTITY),
                    List.of(new ListenerPlan(INGRESS_LISTENER, Protocol.HTTP, InboundTls.PLAIN, Optional.of(new Routing.ByPath(routes)),
                            Optional.empty())),
                    Map.of()));
        }
        return new TopologyPlan(c, options, out);
    }

    private static Routing byName(SniSource source, String pattern, Endpoint to) {
        return new Routing.ByServerName(source, List.of(new ServerNameRoute(pattern, to)));
    }

    /** The listener a hop on the MongoDB path receives on. */
    private static Endpoint endpointOf(HopKind hop) {
        return switch (hop) {
            case MONGO -> new Endpoint(ComponentNames.MONGO, MONGO_LISTENER);
            case EGRESS_GATEWAY -> new Endpoint(ComponentNames.EGRESS_GATEWAY, EGRESS_LISTENER);
            case SNI_PROXY -> new Endpoint(ComponentNames.SNI_PROXY, SNI_LISTENER);
            case APP, SIDECAR -> throw new IllegalStateException("the MongoDB path cannot lead into " + hop);
        };
    }

    private static Identity identityOf(HopKind hop) {
        return switch (hop) {
            case EGRESS_GATEWAY -> GATEWAY_IDENTITY;
            case APP, SIDECAR, SNI_PROXY, MONGO -> throw new IllegalStateException("mesh mTLS ends only at the egress gateway, not " + hop);
        };
    }
}
