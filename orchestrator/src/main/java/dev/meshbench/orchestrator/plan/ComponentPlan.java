package dev.meshbench.orchestrator.plan;

import dev.meshbench.results.ComponentRole;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One component of a case's topology.
 *
 * @param name      unique within the plan: {@code mongo}, {@code booking}, {@code sidecar-booking},
 *                  {@code egress-gateway}, {@code sni-proxy}
 * @param kind      what it is
 * @param identity  its mesh identity (sidecars and the gateway), if any
 * @param listeners what it listens on
 * @param calls     for a service: where it sends each outgoing dependency ({@code mongo}, or a peer service's
 *                  name) — its own sidecar's listener, or the destination itself when the sidecar is bypassed;
 *                  several endpoints (the replicas of a callee without sidecars) take requests in turn
 */
public record ComponentPlan(String name, ComponentKind kind, Optional<Identity> identity, List<ListenerPlan> listeners,
        Map<String, List<Endpoint>> calls) {

    public ComponentPlan {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(identity, "identity");
        listeners = List.copyOf(listeners);
        Map<String, List<Endpoint>> copy = new LinkedHashMap<>();
        calls.forEach((what, to) -> {
            if (to.isEmpty()) {
                throw new IllegalArgumentException("component " + name + " calls " + what + " but has nowhere to send it");
            }
            copy.put(what, List.copyOf(to));
        });
        calls = java.util.Collections.unmodifiableMap(copy);
        Set<String> names = new HashSet<>();
        for (ListenerPlan l : listeners) {
            if (!names.add(l.name())) {
                throw new IllegalArgumentException("component " + name + " has two listeners named " + l.name());
            }
        }
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("component " + name + " has no listener");
        }
        boolean mtls = listeners.stream().anyMatch(l -> l.inbound() == ListenerPlan.InboundTls.MESH_MTLS || l.upstreamTls().isPresent());
        if (mtls && identity.isEmpty()) {
            throw new IllegalArgumentException("component " + name + " speaks mesh mTLS but has no identity");
        }
    }

    public ComponentRole role() {
        return kind.role();
    }

    /** The one endpoint this component sends {@code what} to (its sidecar's listener, or the destination). */
    public Endpoint call(String what) {
        List<Endpoint> to = calls.get(what);
        if (to == null || to.size() != 1) {
            throw new IllegalArgumentException("component " + name + " sends " + what + " to " + (to == null ? "nowhere" : to.size() + " endpoints")
                    + ", not one");
        }
        return to.get(0);
    }

    public ListenerPlan listener(String listenerName) {
        return listeners.stream().filter(l -> l.name().equals(listenerName)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("component " + name + " has no listener " + listenerName));
    }

    /** True when this component needs a workload certificate (it terminates or originates mesh mTLS). */
    public boolean usesMeshMtls() {
        return listeners.stream().anyMatch(l -> l.inbound() == ListenerPlan.InboundTls.MESH_MTLS || l.upstreamTls().isPresent());
    }
}
