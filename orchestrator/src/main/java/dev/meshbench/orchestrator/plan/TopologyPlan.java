package dev.meshbench.orchestrator.plan;

import dev.meshbench.model.EgressCase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a target deploys for one case of the egress study or one cell of the latency study: components in
 * start order (callees before callers), their listeners, routes, upstreams and TLS. Built by
 * {@link TopologyPlanner} or {@code LatencyPlanner}; every upstream refers to a listener of this plan.
 *
 * @param id the case's or cell's id ({@code sni}, {@code double/5/gateway/sidecar})
 */
public record TopologyPlan(String id, PlanOptions options, List<ComponentPlan> components) {
    public TopologyPlan {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(options, "options");
        components = List.copyOf(components);
        Map<String, ComponentPlan> byName = new HashMap<>();
        for (ComponentPlan c : components) {
            if (byName.put(c.name(), c) != null) {
                throw new IllegalArgumentException("plan of " + id + " has two components named " + c.name());
            }
        }
        for (ComponentPlan c : components) {
            for (ListenerPlan l : c.listeners()) {
                for (Endpoint u : l.upstreams()) {
                    check(id, c.name() + "/" + l.name(), u, byName);
                }
            }
            for (List<Endpoint> to : c.calls().values()) {
                for (Endpoint u : to) {
                    check(id, c.name(), u, byName);
                }
            }
        }
    }

    /** A plan of one case of the egress study. */
    public TopologyPlan(EgressCase egressCase, PlanOptions options, List<ComponentPlan> components) {
        this(egressCase.id(), options, components);
    }

    private static void check(String id, String from, Endpoint to, Map<String, ComponentPlan> byName) {
        ComponentPlan target = byName.get(to.component());
        if (target == null) {
            throw new IllegalArgumentException("plan of " + id + ": " + from + " sends to unknown component " + to.component());
        }
        target.listener(to.listener());
    }

    public ComponentPlan component(String name) {
        return components.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("plan of " + id + " has no component " + name));
    }

    /** The components of one kind, in start order. */
    public List<ComponentPlan> ofKind(ComponentKind kind) {
        return components.stream().filter(c -> c.kind() == kind).toList();
    }

    /** The listener an endpoint names. */
    public ListenerPlan listener(Endpoint e) {
        return component(e.component()).listener(e.listener());
    }
}
