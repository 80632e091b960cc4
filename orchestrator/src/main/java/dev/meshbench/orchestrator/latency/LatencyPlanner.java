package dev.meshbench.orchestrator.latency;

import dev.meshbench.model.ListenerNames;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.Identity;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.OriginateMtls;
import dev.meshbench.orchestrator.plan.ListenerPlan.Protocol;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.model.ComponentNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A latency cell becomes a {@link TopologyPlan}, the same plan the egress study's cases become, so the local target
 * launches it with the same proxies (Netty relays or Envoy) and the same port, certificate and process handling:
 * <ul>
 *   <li>every service of the graph runs {@link LatencyCell#scale()} replicas, {@code <service>-<n>} (from 1);</li>
 *   <li>with sidecars, replica {@code <service>-<n>} has {@code sidecar-<service>-<n>}: an {@code inbound} listener
 *       (plain, as Istio's PERMISSIVE inbound, for clients outside the mesh), an {@code inbound-mesh} listener when
 *       sidecars speak mTLS, and per callee a {@code to-<callee>} listener that takes turns over the callee's
 *       replicas' sidecars ({@link Routing.RoundRobin}), as an Istio sidecar balances over a service's endpoints;</li>
 *   <li>without sidecars a caller takes turns over its callee's replicas itself (a Kubernetes service's endpoints,
 *       client side);</li>
 *   <li>with an ingress, {@code ingress-gateway-<n>} (scale replicas, as the gist scaled "services and ingress")
 *       take turns over the entrypoint's replicas (their sidecars' inbound when the cell has sidecars).</li>
 * </ul>
 * Start order is callees first; the ingress gateways last. The load generator's targets are
 * {@link #clientTargets(TopologyPlan, GraphShape)}: the ingress replicas, else the entrypoint's sidecars, else its replicas.
 */
public final class LatencyPlanner {
    /** The namespace of the graph services' identities and host names. */
    public static final String NAMESPACE = "meshbench-latency";

    private LatencyPlanner() {
    }

    /** Replica {@code n} (from 1) of {@code service}. */
    public static String replica(String service, int n) {
        return service + "-" + n;
    }

    /** The service's host name, as its Kubernetes service: what Envoy names its cluster after. */
    public static String host(String service) {
        return service + "." + NAMESPACE + ".svc.cluster.local";
    }

    public static TopologyPlan plan(LatencyCell cell, GraphShape graph, PlanOptions options) {
        if (!graph.name().equals(cell.graph())) {
            throw new IllegalArgumentException("cell " + cell.id() + " is of graph " + cell.graph() + ", not " + graph.name());
        }
        boolean mtls = options.sidecarMtls();
        String inboundFromMesh = mtls ? ListenerNames.INBOUND_MESH : ListenerNames.INBOUND;
        List<ComponentPlan> out = new ArrayList<>();
        for (String svc : graph.calleesFirst()) {
            for (int n = 1; n <= cell.scale(); n++) {
                String app = replica(svc, n);
                Map<String, List<Endpoint>> calls = new LinkedHashMap<>();
                for (String callee : graph.callees(svc)) {
                    calls.put(callee, cell.sidecar()
                            ? List.of(new Endpoint(ComponentNames.sidecarOf(app), ListenerNames.toPeer(callee)))
                            : replicas(callee, cell.scale(), ListenerNames.HTTP, false));
                }
                out.add(new ComponentPlan(app, ComponentKind.SERVICE, Optional.empty(),
                        List.of(ListenerPlan.destination(ListenerNames.HTTP, Protocol.HTTP, InboundTls.PLAIN)), calls));
                if (!cell.sidecar()) {
                    continue;
                }
                List<ListenerPlan> listeners = new ArrayList<>();
                Routing toApp = new Routing.Fixed(new Endpoint(app, ListenerNames.HTTP));
                listeners.add(new ListenerPlan(ListenerNames.INBOUND, Protocol.HTTP, InboundTls.PLAIN, Optional.of(toApp), Optional.empty()));
                if (mtls) {
                    listeners.add(new ListenerPlan(ListenerNames.INBOUND_MESH, Protocol.HTTP, InboundTls.MESH_MTLS, Optional.of(toApp),
                            Optional.empty()));
                }
                for (String callee : graph.callees(svc)) {
                    listeners.add(new ListenerPlan(ListenerNames.toPeer(callee), Protocol.HTTP, InboundTls.PLAIN,
                            Optional.of(new Routing.RoundRobin(host(callee), replicas(callee, cell.scale(), inboundFromMesh, true))),
                            mtls ? Optional.of(new OriginateMtls(host(callee), identity(callee))) : Optional.empty()));
                }
                out.add(new ComponentPlan(ComponentNames.sidecarOf(app), ComponentKind.SIDECAR, Optional.of(identity(svc)), listeners,
                        Map.of()));
            }
        }
        if (cell.ingress()) {
            String entry = graph.entrypoint();
            List<Endpoint> entries = cell.sidecar()
                    ? replicas(entry, cell.scale(), inboundFromMesh, true)
                    : replicas(entry, cell.scale(), ListenerNames.HTTP, false);
            for (int n = 1; n <= cell.scale(); n++) {
                out.add(new ComponentPlan(replica(ComponentNames.INGRESS_GATEWAY, n), ComponentKind.INGRESS_GATEWAY, Optional.of(TopologyPlanner.INGRESS_IDENTITY),
                        List.of(new ListenerPlan(ListenerNames.HTTP, Protocol.HTTP, InboundTls.PLAIN,
                                Optional.of(new Routing.RoundRobin(host(entry), entries)),
                                cell.sidecar() && mtls ? Optional.of(new OriginateMtls(host(entry), identity(entry))) : Optional.empty())),
                        Map.of()));
            }
        }
        return new TopologyPlan(cell.id(), options, out);
    }

    /** Where the load generator sends in {@code plan} of {@code graph}: the ingress, or the entrypoint's replicas (their sidecars). */
    public static List<Endpoint> clientTargets(TopologyPlan plan, GraphShape graph) {
        List<ComponentPlan> ingress = plan.ofKind(ComponentKind.INGRESS_GATEWAY);
        if (!ingress.isEmpty()) {
            return ingress.stream().map(c -> new Endpoint(c.name(), ListenerNames.HTTP)).toList();
        }
        boolean sidecars = !plan.ofKind(ComponentKind.SIDECAR).isEmpty();
        List<Endpoint> out = new ArrayList<>();
        for (ComponentPlan c : plan.ofKind(ComponentKind.SERVICE)) {
            if (c.name().startsWith(graph.entrypoint() + "-") && c.name().substring(graph.entrypoint().length() + 1).matches("[0-9]+")) {
                out.add(sidecars ? new Endpoint(ComponentNames.sidecarOf(c.name()), ListenerNames.INBOUND)
                        : new Endpoint(c.name(), ListenerNames.HTTP));
            }
        }
        return out;
    }

    private static Identity identity(String service) {
        return new Identity(NAMESPACE, service);
    }

    private static List<Endpoint> replicas(String service, int scale, String listener, boolean sidecar) {
        List<Endpoint> out = new ArrayList<>();
        for (int n = 1; n <= scale; n++) {
            out.add(new Endpoint(sidecar ? ComponentNames.sidecarOf(replica(service, n)) : replica(service, n), listener));
        }
        return out;
    }
}
