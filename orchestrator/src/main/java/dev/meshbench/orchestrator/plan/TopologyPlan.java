package dev.meshbench.orchestrator.plan;

import dev.meshbench.orchestrator.cases.EgressCase;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

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
        Set<String> names = new HashSet<>();
        for (ComponentPlan c : components) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("plan of case " + egressCase.id() + " has two components named " + c.name());
            }
        }
        for (ComponentPlan c : components) {
            for (ListenerPlan l : c.listeners()) {
                l.upstreams().forEach(u -> check(c.name() + "/" + l.name(), u, names));
            }
            c.calls().values().forEach(u -> check(c.name(), u, names));
        }
    }

    private void check(String from, Endpoint to, Set<String> names) {
        if (!names.contains(to.component())) {
            throw new IllegalArgumentException("plan of case " + egressCase.id() + ": " + from + " sends to unknown component " + to.component());
        }
        component(to.component()).listener(to.listener());
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
