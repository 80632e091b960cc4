package dev.meshbench.orchestrator.plan;

import dev.meshbench.component.AcmeairApi;
import dev.meshbench.component.MeshNames;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.model.EgressCase;
import dev.meshbench.model.HopKind;
import dev.meshbench.model.Link;
import dev.meshbench.model.LinkSecurity;
import dev.meshbench.model.ListenerNames;
import dev.meshbench.model.Service;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.OriginateMtls;
import dev.meshbench.orchestrator.plan.ListenerPlan.PathRoute;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
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
 * services (the call graph of {@link Service}). Only the MongoDB path differs, hop by hop as the case's
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

    private TopologyPlanner() {
    }

    /** Which services a service calls (the Acmeair call graph, {@link Service#calls()}). */
    private static List<String> peersOf(String service) {
        return Service.byId(service).calls().stream().map(Service::id).toList();
    }

    public static Identity serviceIdentity(String service) {
        return new Identity(APP_NAMESPACE, service);
    }

    public static TopologyPlan plan(EgressCase c, PlanOptions options) {
        List<Link> path = c.mongoPath();
        String hosts = path.stream().anyMatch(l -> l.routing() == Link.Routing.SNI_WILDCARD) ? MeshNames.MONGO_WILDCARD : MeshNames.MONGO_HOST;
        List<ComponentPlan> out = new ArrayList<>();
        out.add(new ComponentPlan(ComponentNames.MONGO, ComponentKind.DATABASE, Optional.empty(),
                List.of(ListenerPlan.destination(ListenerNames.MONGO, Protocol.TCP, InboundTls.SERVER_TLS)), Map.of()));

        // The egress chain, backwards from MongoDB: each hop must exist before the one that sends to it.
        for (int i = path.size() - 1; i >= 1; i--) {
            Link in = path.get(i - 1);
            Link outLink = path.get(i);
            switch (in.to()) {
                case EGRESS_GATEWAY -> {
                    boolean terminates = in.security() == LinkSecurity.MESH_MTLS_TUNNEL;
                    out.add(new ComponentPlan(ComponentNames.EGRESS_GATEWAY, ComponentKind.EGRESS_GATEWAY, Optional.of(GATEWAY_IDENTITY),
                            List.of(new ListenerPlan(ListenerNames.EGRESS, Protocol.TCP, terminates ? InboundTls.MESH_MTLS : InboundTls.PLAIN,
                                    Optional.of(byName(terminates ? SniSource.TUNNEL : SniSource.CLIENT_HELLO, hosts, endpointOf(outLink.to()))),
                                    Optional.empty())),
                            Map.of()));
                }
                case SNI_PROXY -> out.add(new ComponentPlan(ComponentNames.SNI_PROXY, ComponentKind.SNI_PROXY, Optional.empty(),
                        List.of(new ListenerPlan(ListenerNames.SNI, Protocol.TCP, InboundTls.PLAIN,
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
            Endpoint app = new Endpoint(svc, ListenerNames.HTTP);
            listeners.add(new ListenerPlan(ListenerNames.INBOUND, Protocol.HTTP, InboundTls.PLAIN, Optional.of(new Routing.Fixed(app)), Optional.empty()));
            if (options.sidecarMtls()) {
                listeners.add(new ListenerPlan(ListenerNames.INBOUND_MESH, Protocol.HTTP, InboundTls.MESH_MTLS, Optional.of(new Routing.Fixed(app)), Optional.empty()));
            }
            for (String peer : peersOf(svc)) {
                Endpoint peerInbound = new Endpoint(ComponentNames.sidecarOf(peer), options.sidecarMtls() ? ListenerNames.INBOUND_MESH : ListenerNames.INBOUND);
                listeners.add(new ListenerPlan(ListenerNames.toPeer(peer), Protocol.HTTP, InboundTls.PLAIN, Optional.of(new Routing.Fixed(peerInbound)),
                        options.sidecarMtls()
                                ? Optional.of(new OriginateMtls(peer + "." + APP_NAMESPACE + ".svc.cluster.local", serviceIdentity(peer)))
                                : Optional.empty()));
            }
            sidecarOut.ifPresent(l -> listeners.add(new ListenerPlan(ListenerNames.MONGO, Protocol.TCP, InboundTls.PLAIN,
                    Optional.of(byName(SniSource.CLIENT_HELLO, hosts, endpointOf(l.to()))),
                    l.security() == LinkSecurity.MESH_MTLS_TUNNEL
                            ? Optional.of(new OriginateMtls(MeshNames.MONGO_HOST, identityOf(l.to())))
                            : Optional.empty())));
            out.add(new ComponentPlan(ComponentNames.sidecarOf(svc), ComponentKind.SIDECAR, Optional.of(serviceIdentity(svc)), listeners, Map.of()));
        }

        for (String svc : ComponentNames.SERVICES) {
            Map<String, List<Endpoint>> calls = new LinkedHashMap<>();
            calls.put(ComponentNames.MONGO, List.of(switch (appLink.to()) {
                case MONGO -> new Endpoint(ComponentNames.MONGO, ListenerNames.MONGO);
                case SIDECAR -> new Endpoint(ComponentNames.sidecarOf(svc), ListenerNames.MONGO);
                case APP, EGRESS_GATEWAY, SNI_PROXY -> throw new IllegalStateException(
                        "case " + c.id() + ": a service's MongoDB connection must go to MongoDB or its sidecar, not " + appLink.to());
            }));
            for (String peer : peersOf(svc)) {
                calls.put(peer, List.of(new Endpoint(ComponentNames.sidecarOf(svc), ListenerNames.toPeer(peer))));
            }
            out.add(new ComponentPlan(svc, ComponentKind.SERVICE, Optional.empty(),
                    List.of(ListenerPlan.destination(ListenerNames.HTTP, Protocol.HTTP, InboundTls.PLAIN)), calls));
        }

        if (options.ingress()) {
            // Acmeair's own Istio manifests: a Gateway on the ingress gateway and a VirtualService routing the client
            // API (AcmeairApi.PUBLIC, nothing else) to each service. The ingress talks plain HTTP to the sidecars'
            // inbound, in every case alike.
            List<PathRoute> routes = AcmeairApi.PUBLIC.stream()
                    .map(op -> new PathRoute(op, new Endpoint(ComponentNames.sidecarOf(op.service()), ListenerNames.INBOUND))).toList();
            out.add(new ComponentPlan(ComponentNames.INGRESS_GATEWAY, ComponentKind.INGRESS_GATEWAY, Optional.of(INGRESS_IDENTITY),
                    List.of(new ListenerPlan(ListenerNames.INGRESS, Protocol.HTTP, InboundTls.PLAIN, Optional.of(new Routing.ByPath(routes)),
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
            case MONGO, EGRESS_GATEWAY, SNI_PROXY -> new Endpoint(ComponentNames.ofHop(hop), ListenerNames.onMongoPath(hop));
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
