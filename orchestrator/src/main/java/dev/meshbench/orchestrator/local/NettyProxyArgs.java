package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan.InboundTls;
import dev.meshbench.orchestrator.plan.ListenerPlan.PathRoute;
import dev.meshbench.orchestrator.plan.ListenerPlan.Routing;
import dev.meshbench.orchestrator.plan.ListenerPlan.ServerNameRoute;
import java.util.ArrayList;
import java.util.List;

/**
 * The Netty stand-ins' command line ({@code dataplane.jar}) for one proxy of a plan. Where the stand-ins are
 * simpler than the plan: a sidecar listener relays to its one upstream without reading the app's ClientHello
 * (Envoy matches the server name there; the app only ever sends the one name the route matches).
 */
final class NettyProxyArgs {
    private NettyProxyArgs() {
    }

    static List<String> of(ComponentPlan c, LocalAddresses a, MeshFiles mesh, int workers) {
        List<String> args = new ArrayList<>();
        boolean byPath = c.listeners().stream().anyMatch(l -> l.routing().orElse(null) instanceof Routing.ByPath);
        if (byPath) {
            return ingressGateway(c, a, workers);
        }
        args.add(switch (c.kind()) {
            case SIDECAR, INGRESS_GATEWAY -> "sidecar";
            case EGRESS_GATEWAY -> "egress-gateway";
            case SNI_PROXY -> "sni-proxy";
            case DATABASE, SERVICE -> throw new IllegalArgumentException(c.name() + " is not a proxy");
        });
        args.addAll(List.of("--name", c.name(), "--admin-port", Integer.toString(a.adminPort(c.name())),
                "--io-threads", Integer.toString(workers)));
        switch (c.kind()) {
            case SIDECAR, INGRESS_GATEWAY -> {
                for (ListenerPlan l : c.listeners()) {
                    StringBuilder spec = new StringBuilder("name=" + l.name() + ",port=" + a.port(c.name(), l.name())
                            + ",upstream=" + upstreams(c, l, a));
                    if (l.inbound() == InboundTls.MESH_MTLS) {
                        spec.append(",tls=mtls-terminate");
                    }
                    l.upstreamTls().ifPresent(t -> spec.append(",tls=mtls-originate,sni=").append(t.serverName())
                            .append(",peer-id=").append(t.peer().spiffeId()));
                    args.addAll(List.of("--listener", spec.toString()));
                }
            }
            case EGRESS_GATEWAY, SNI_PROXY -> {
                ListenerPlan l = only(c);
                if (c.kind() == dev.meshbench.orchestrator.plan.ComponentKind.EGRESS_GATEWAY) {
                    args.addAll(List.of("--mode", l.inbound() == InboundTls.MESH_MTLS ? "mtls" : "sni-passthrough"));
                }
                args.addAll(List.of("--listen-port", Integer.toString(a.port(c.name(), l.name()))));
                Routing.ByServerName byName = (Routing.ByServerName) l.routing().orElseThrow();
                for (ServerNameRoute r : byName.routes()) {
                    args.addAll(List.of("--route", r.pattern() + "=" + a.address(r.upstream()) + ",upstream-name=" + r.upstream().component()));
                }
            }
            case DATABASE, SERVICE -> throw new IllegalArgumentException(c.name() + " is not a proxy");
        }
        // A sidecar or the egress gateway gets its workload certificate whenever one was issued for it, also in a case
        // where none of its listeners speaks mTLS: a deployment switched to such a case later reconfigures its listeners
        // (the gateway's --mode is one), not its files.
        if (c.usesMeshMtls() || (c.kind() == dev.meshbench.orchestrator.plan.ComponentKind.SIDECAR
                || c.kind() == dev.meshbench.orchestrator.plan.ComponentKind.EGRESS_GATEWAY) && mesh.has(c.name())) {
            args.addAll(List.of("--ca-file", mesh.caPem().toString(), "--cert-file", mesh.certChain(c.name()).toString(),
                    "--key-file", mesh.key(c.name()).toString()));
        }
        return args;
    }

    /**
     * The HTTP entry ({@code dataplane ingress-gateway}): {@code --route POST /auth/login=127.0.0.1:p,upstream-name=sidecar-auth}
     * per operation of the plan, nothing else. It speaks plain HTTP to its upstreams.
     */
    private static List<String> ingressGateway(ComponentPlan c, LocalAddresses a, int workers) {
        ListenerPlan l = only(c);
        if (l.upstreamTls().isPresent() || l.inbound() != InboundTls.PLAIN) {
            throw new IllegalArgumentException("the Netty ingress gateway speaks plain HTTP on both sides; " + c.name() + "/" + l.name()
                    + " asks for " + l.tlsMode());
        }
        List<String> args = new ArrayList<>(List.of("ingress-gateway", "--name", c.name(), "--admin-port", Integer.toString(a.adminPort(c.name())),
                "--io-threads", Integer.toString(workers), "--listen-port", Integer.toString(a.port(c.name(), l.name()))));
        for (PathRoute r : ((Routing.ByPath) l.routing().orElseThrow()).routes()) {
            args.addAll(List.of("--route", r.operation() + "=" + a.address(r.upstream()) + ",upstream-name=" + r.upstream().component()));
        }
        return args;
    }

    private static ListenerPlan only(ComponentPlan c) {
        if (c.listeners().size() != 1) {
            throw new IllegalArgumentException("the Netty " + c.kind() + " serves one listener; plan of " + c.name() + " has " + c.listeners().size());
        }
        return c.listeners().get(0);
    }

    /**
     * {@code 127.0.0.1:p,upstream-name=<component>} for one upstream; {@code 127.0.0.1:p1|127.0.0.1:p2,upstream-name=<host>}
     * for a round robin over replicas (the relays take turns per connection).
     */
    private static String upstreams(ComponentPlan c, ListenerPlan l, LocalAddresses a) {
        Routing r = l.routing().orElseThrow(() -> new IllegalArgumentException("a Netty sidecar listener relays; " + c.name() + "/" + l.name()
                + " has no upstream"));
        if (r instanceof Routing.Fixed f) {
            return a.address(f.upstream()) + ",upstream-name=" + f.upstream().component();
        }
        if (r instanceof Routing.RoundRobin rr) {
            return rr.upstreams().stream().map(a::address).collect(java.util.stream.Collectors.joining("|")) + ",upstream-name=" + rr.host();
        }
        // By server name with one upstream (a sidecar's MongoDB listener): the relay sends everything there.
        List<Endpoint> ups = l.upstreams();
        if (ups.size() != 1) {
            throw new IllegalArgumentException("a Netty sidecar listener relays to one upstream or replicas of one service; " + c.name() + "/"
                    + l.name() + " has " + ups);
        }
        return a.address(ups.get(0)) + ",upstream-name=" + ups.get(0).component();
    }
}
