package dev.meshbench.orchestrator.local.envoynginx;

import dev.meshbench.component.MeshNames;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import dev.meshbench.model.ComponentNames;

/**
 * The name of the Envoy cluster that sends to a plan endpoint, in Istio's {@code direction|port|subset|host} form,
 * so {@code /stats} reads like an Istio sidecar's ({@code cluster.outbound|27017||mongo.meshbench.test.upstream_cx_total}).
 * A pure function of the endpoint (and, for the app behind a sidecar, its port), shared by the bootstrap renderer
 * and {@link EnvoyStatsReader}:
 * <table>
 *   <caption>cluster names</caption>
 *   <tr><th>upstream component</th><th>cluster</th><th>Istio's counterpart</th></tr>
 *   <tr><td>{@code mongo}</td><td>{@code outbound|27017||mongo.meshbench.test}</td>
 *       <td>the TLS {@code ServiceEntry} port</td></tr>
 *   <tr><td>{@code egress-gateway}</td><td>{@code outbound|443|mongo|istio-egressgateway.istio-system.svc.cluster.local}</td>
 *       <td>the {@code DestinationRule} subset {@code mongo} of the gateway service</td></tr>
 *   <tr><td>{@code sni-proxy}</td><td>{@code outbound|27017||sni-proxy.local}</td><td>the study's {@code ServiceEntry sni-proxy.local}</td></tr>
 *   <tr><td>{@code sidecar-<peer>}</td><td>{@code outbound|80||<peer>.acmeair.svc.cluster.local}</td><td>the peer's Kubernetes service</td></tr>
 *   <tr><td>a service (behind its own sidecar)</td><td>{@code inbound|<app port>||}</td><td>Istio's inbound cluster</td></tr>
 * </table>
 */
public final class EnvoyClusterNames {
    /** The port of MongoDB (and of the study's SNI proxy) as Istio's {@code ServiceEntry} declares it. */
    public static final int MONGO_SERVICE_PORT = 27017;
    /** The port of the egress gateway's TLS server in cases gateway, mtls and sni. */
    public static final int GATEWAY_SERVICE_PORT = 443;
    /** The port of an Acmeair service's Kubernetes service. */
    public static final int SERVICE_PORT = 80;
    /** The host of the egress gateway's Kubernetes service. */
    public static final String GATEWAY_HOST = "istio-egressgateway.istio-system.svc.cluster.local";
    /** The study's name for the SNI proxy's {@code ServiceEntry}. */
    public static final String SNI_PROXY_HOST = "sni-proxy.local";

    private static final String SIDECAR_PREFIX = ComponentNames.sidecarOf("");

    private EnvoyClusterNames() {
    }

    /** The cluster a proxy uses to reach {@code upstream}. */
    public static String of(Endpoint upstream, LocalAddresses addresses) {
        String component = upstream.component();
        if (component.equals(ComponentNames.MONGO)) {
            return outbound(MONGO_SERVICE_PORT, "", MeshNames.MONGO_HOST);
        }
        if (component.equals(ComponentNames.EGRESS_GATEWAY)) {
            return outbound(GATEWAY_SERVICE_PORT, "mongo", GATEWAY_HOST);
        }
        if (component.equals(ComponentNames.SNI_PROXY)) {
            return outbound(MONGO_SERVICE_PORT, "", SNI_PROXY_HOST);
        }
        if (component.startsWith(SIDECAR_PREFIX)) {
            String peer = component.substring(SIDECAR_PREFIX.length());
            return outbound(SERVICE_PORT, "", peer + "." + TopologyPlanner.APP_NAMESPACE + ".svc.cluster.local");
        }
        return "inbound|" + addresses.port(upstream) + "||";
    }

    /** The cluster of a service's replicas ({@link dev.meshbench.orchestrator.plan.ListenerPlan.Routing.RoundRobin}), as Istio names it. */
    public static String ofService(String host) {
        return outbound(SERVICE_PORT, "", host);
    }

    private static String outbound(int port, String subset, String host) {
        return "outbound|" + port + "|" + subset + "|" + host;
    }
}
