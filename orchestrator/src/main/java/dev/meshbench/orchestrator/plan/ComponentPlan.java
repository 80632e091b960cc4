package dev.meshbench.orchestrator.plan;

import dev.meshbench.orchestrator.target.Role;
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
 *                  name) — its own sidecar's listener, or the destination itself when the sidecar is bypassed
 */
public record ComponentPlan(String name, ComponentKind kind, Optional<Identity> identity, List<ListenerPlan> listeners,
        Map<String, Endpoint> calls) {

    public ComponentPlan {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(identity, "identity");
        listeners = List.copyOf(listeners);
        calls = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(calls));
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

    public Role role() {
        return kind.role();
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
