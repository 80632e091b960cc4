package dev.meshbench.orchestrator.plan;

import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import java.util.stream.Collectors;

/** A plan as text for people (and golden tests): one line per component, one per listener, one per call. */
public final class TopologyPlanText {
    private TopologyPlanText() {
    }

    public static String describe(TopologyPlan plan) {
        StringBuilder b = new StringBuilder();
        PlanOptions o = plan.options();
        b.append("case ").append(plan.id()).append(" | data plane ").append(o.dataPlane().id())
                .append(" | sidecar mTLS ").append(o.sidecarMtls() ? "on" : "off").append(" | workers ").append(o.workers()).append('\n');
        for (ComponentPlan c : plan.components()) {
            b.append(c.name()).append(" (").append(c.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).append(')');
            c.identity().ifPresent(i -> b.append(' ').append(i.spiffeId()));
            b.append('\n');
            for (ListenerPlan l : c.listeners()) {
                b.append("  listener ").append(l.name()).append(": ").append(l.protocol()).append(", accepts ").append(l.inbound());
                l.routing().ifPresent(r -> b.append(" -> ").append(routing(r)));
                l.upstreamTls().ifPresent(t -> b.append(", originates mTLS sni=").append(t.serverName()).append(" peer=").append(t.peer().spiffeId()));
                b.append('\n');
            }
            c.calls().forEach((what, via) -> b.append("  calls ").append(what).append(" via ")
                    .append(via.stream().map(Endpoint::toString).collect(Collectors.joining(", "))).append('\n'));
        }
        return b.toString();
    }

    private static String routing(Routing r) {
        if (r instanceof Routing.Fixed f) {
            return f.upstream().toString();
        }
        if (r instanceof Routing.RoundRobin rr) {
            return "round robin over " + rr.host() + " " + rr.upstreams();
        }
        if (r instanceof Routing.ByPath p) {
            return "by path " + p.routes().stream().map(x -> x.operation() + " => " + x.upstream()).collect(Collectors.joining(", "));
        }
        Routing.ByServerName n = (Routing.ByServerName) r;
        return "by " + n.source() + " server name " + n.routes().stream().map(x -> x.pattern() + " => " + x.upstream())
                .collect(Collectors.joining(", "));
    }
}
