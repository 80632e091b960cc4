package dev.meshbench.orchestrator.plan;

import dev.meshbench.orchestrator.cases.EgressCase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a target deploys for one case: components in start order (callees before callers), their
 * listeners, routes, upstreams and TLS. Built by {@link TopologyPlanner}; every upstream refers to a listener of
 * this plan.
 */
public record TopologyPlan(EgressCase egressCase, PlanOptions options, List<ComponentPlan> components) {
    public TopologyPlan {
        Objects.requireNonNull(egressCase, "egressCase");
        Objects.requireNonNull(options, "options");
        components = List.copyOf(components);
        Map<String, ComponentPlan> byName = new HashMap<>();
        for (ComponentPlan c : components) {
            if (byName.put(c.name(), c) != null) {
                throw new IllegalArgumentException("plan of case " + egressCase.id() + " has two components named " + c.name());
            }
        }
        for (ComponentPlan c : components) {
            for (ListenerPlan l : c.listeners()) {
                for (Endpoint u : l.upstreams()) {
                    check(egressCase, c.name() + "/" + l.name(), u, byName);
                }
            }
            for (Endpoint u : c.calls().values()) {
                check(egressCase, c.name(), u, byName);
            }
        }
    }

    private static void check(EgressCase egressCase, String from, Endpoint to, Map<String, ComponentPlan> byName) {
        ComponentPlan target = byName.get(to.component());
        if (target == null) {
            throw new IllegalArgumentException("plan of case " + egressCase.id() + ": " + from + " sends to unknown component " + to.component());
        }
        target.listener(to.listener());
    }

    public ComponentPlan component(String name) {
        return components.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("plan of case " + egressCase.id() + " has no component " + name));
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
