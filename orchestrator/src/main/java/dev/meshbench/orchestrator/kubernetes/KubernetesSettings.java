package dev.meshbench.orchestrator.kubernetes;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.latency.LatencyPlanner;
import dev.meshbench.orchestrator.plan.TopologyPlanner;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the Kubernetes target runs a case, validated where it enters: every bad value is refused naming its property.
 *
 * @param kubeconfig     the kubeconfig file, or empty for the usual places ({@code KUBECONFIG}, {@code ~/.kube/config},
 *                       in-cluster)
 * @param namespace      where the case goes; created and owned by the kit (an existing namespace that is not the
 *                       kit's is refused)
 * @param images         original image name in {@code istio-config} ({@code acmeair-services}, {@code sni-proxy}) to
 *                       the reference to run; names not given keep the files' defaults
 * @param mongo          the external TLS MongoDB (the egress study's cases need it; the latency study has no database)
 * @param ingressUrl     where the load generator reaches Istio's ingress gateway, which routes to the services by
 *                       path (with {@code meshbench.ingress=true}; refused with {@code false}), or empty to
 *                       port-forward to the gateway's Service
 * @param entrypointUrl  the latency study's cells without an ingress gateway: where the load generator reaches the
 *                       graph's entrypoint Service directly (a NodePort or load balancer of it), or empty to
 *                       port-forward to it ({@code ingressUrl} is for the gateway cells, through Istio's ingress)
 * @param prometheusUrl  Prometheus's HTTP API, or empty to port-forward to {@code prometheusService}
 * @param prometheusService {@code namespace/name} of Prometheus's Service (port 9090), used without a URL
 * @param egressGatewayNamespace where Istio's egress gateway runs (cases gateway and mtls)
 * @param ingressGatewayNamespace where Istio's ingress gateway runs (the cases with {@code meshbench.ingress=true}, the
 *                       latency study's gateway cells)
 * @param keep           leave everything deployed after the run
 * @param readyTimeout   how long rollouts may take
 * @param cpuRequestScale what every container's CPU request in the kit's manifests is multiplied by, in (0, 1]
 * @param clusterIps     Services without a URL setting are reached at their ClusterIP (this machine is in the cluster's
 *                       network), not through port-forwards
 * @param kubectl        the kubectl that renders {@code istio-config} ({@code meshbench.kubectl.binary}), else {@code kubectl}
 *                       on the PATH
 */
public record KubernetesSettings(Optional<Path> kubeconfig, String namespace, Map<String, String> images, Optional<Mongo> mongo,
        Optional<URI> ingressUrl, Optional<URI> entrypointUrl, Optional<URI> prometheusUrl, String prometheusService,
        String egressGatewayNamespace, String ingressGatewayNamespace, boolean keep, Duration readyTimeout,
        double cpuRequestScale, boolean clusterIps, Optional<String> kubectl) {

    public static final String P_KUBECONFIG = Catalogue.KUBECONFIG.name();
    public static final String P_NAMESPACE = Catalogue.NAMESPACE.name();
    public static final String P_IMAGE_SERVICES = Catalogue.IMAGES_SERVICES.name();
    public static final String P_IMAGE_REGISTRY = Catalogue.IMAGES_REGISTRY.name();
    public static final String P_IMAGE_TAG = Catalogue.IMAGES_TAG.name();
    public static final String P_IMAGE_SNI_PROXY = Catalogue.IMAGES_SNI_PROXY.name();
    public static final String P_MONGO_URI = Catalogue.MONGO_URI.name();
    public static final String P_MONGO_CA = Catalogue.MONGO_CA.name();
    public static final String P_MONGO_CIDR = Catalogue.MONGO_CIDR.name();
    public static final String P_MONGO_WILDCARD = Catalogue.MONGO_WILDCARD.name();
    public static final String P_INGRESS_URL = Catalogue.INGRESS_URL.name();
    public static final String P_ENTRYPOINT_URL = Catalogue.LATENCY_ENTRYPOINT_URL.name();
    public static final String P_PROMETHEUS_URL = Catalogue.PROMETHEUS_URL.name();
    public static final String P_PROMETHEUS_SERVICE = Catalogue.PROMETHEUS_SERVICE.name();
    public static final String P_EGRESS_GATEWAY_NAMESPACE = Catalogue.EGRESS_GATEWAY_NAMESPACE.name();
    public static final String P_INGRESS_GATEWAY_NAMESPACE = Catalogue.INGRESS_GATEWAY_NAMESPACE.name();
    public static final String P_KEEP = Catalogue.KEEP.name();
    public static final String P_READY_TIMEOUT = Catalogue.READY_TIMEOUT_SECONDS.name();
    public static final String P_CPU_REQUEST_SCALE = Catalogue.CPU_REQUEST_SCALE.name();
    public static final String P_SERVICE_ACCESS = Catalogue.SERVICE_ACCESS.name();

    /** The image name the services' Deployments use in {@code istio-config}. */
    public static final String SERVICES_IMAGE = "acmeair-services";
    /** The image name of the SNI proxy container in {@code istio-config}. */
    public static final String SNI_PROXY_IMAGE = "sni-proxy";

    public KubernetesSettings {
        Objects.requireNonNull(kubeconfig, "kubeconfig");
        Objects.requireNonNull(mongo, P_MONGO_URI);
        images = Map.copyOf(images);
        if (!(cpuRequestScale > 0 && cpuRequestScale <= 1)) {
            throw new IllegalArgumentException(P_CPU_REQUEST_SCALE + "=" + cpuRequestScale + ": must be more than 0 and at most 1");
        }
        Catalogue.NAMESPACE.parse(namespace);
        Catalogue.EGRESS_GATEWAY_NAMESPACE.parse(egressGatewayNamespace);
        Catalogue.INGRESS_GATEWAY_NAMESPACE.parse(ingressGatewayNamespace);
        Catalogue.PROMETHEUS_SERVICE.parse(prometheusService);
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException(P_READY_TIMEOUT + " (" + readyTimeout.toSeconds() + ") must be positive");
        }
    }

    /**
     * The external MongoDB as the mesh must know it.
     *
     * @param uri      the connection string the services use ({@code tls=true}; the host a name, so the driver sends SNI)
     * @param host     the host in the URI
     * @param wildcard a wildcard that matches the host (case sni, the study's {@code *.com})
     * @param cidr     the host's address as a CIDR (case bypass)
     * @param caPem    the CA that signed MongoDB's certificate, PEM
     */
    public record Mongo(URI uri, String host, String wildcard, String cidr, String caPem) {
        public Mongo {
            Objects.requireNonNull(uri, P_MONGO_URI);
            if (!wildcard.startsWith("*.") || !host.endsWith(wildcard.substring(1))) {
                throw new IllegalArgumentException(P_MONGO_WILDCARD + "=" + wildcard + ": must be '*.<domain>' and match "
                        + "the MongoDB host " + host);
            }
            if (!cidr.matches("\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}")) {
                throw new IllegalArgumentException(P_MONGO_CIDR + "=" + cidr + ": must be an IPv4 CIDR such as 10.0.0.5/32");
            }
            if (!caPem.contains("-----BEGIN CERTIFICATE-----")) {
                throw new IllegalArgumentException(P_MONGO_CA + ": holds no PEM certificate");
            }
        }
    }

    /** These settings with another namespace and keep flag. */
    public KubernetesSettings with(String otherNamespace, boolean otherKeep) {
        return new KubernetesSettings(kubeconfig, otherNamespace, images, mongo, ingressUrl, entrypointUrl, prometheusUrl,
                prometheusService, egressGatewayNamespace, ingressGatewayNamespace, otherKeep, readyTimeout, cpuRequestScale,
                clusterIps, kubectl);
    }

    /** The external MongoDB, or an error naming the properties to set when there is none. */
    public Mongo requireMongo() {
        return mongo.orElseThrow(() -> new IllegalArgumentException(P_MONGO_URI + " is not set: the egress study's cases need "
                + "an external TLS MongoDB"));
    }

    /**
     * Reads the egress study's settings from run properties (Maven's {@code -D} and profile properties): the
     * external MongoDB is required, the namespace defaults to {@value TopologyPlanner#APP_NAMESPACE}. The services'
     * image is {@code meshbench.images.services}, else {@code meshbench.images.registry}{@code /acmeair-services:}{@code meshbench.images.tag},
     * else {@code istio-config}'s own default.
     */
    public static KubernetesSettings fromProperties(Map<String, String> p) {
        return fromProperties(p, Optional.of(mongo(p)), TopologyPlanner.APP_NAMESPACE);
    }

    /**
     * Reads the latency study's settings: as {@link #fromProperties(Map)} without a database (the MongoDB properties
     * are not read), the namespace defaulting to the latency manifests' own, {@value LatencyPlanner#NAMESPACE}.
     */
    public static KubernetesSettings latencyFromProperties(Map<String, String> p) {
        return fromProperties(p, Optional.empty(), LatencyPlanner.NAMESPACE);
    }

    private static KubernetesSettings fromProperties(Map<String, String> p, Optional<Mongo> mongo, String defaultNamespace) {
        Map<String, String> images = new LinkedHashMap<>();
        Optional<String> registry = Catalogue.IMAGES_REGISTRY.read(p);
        Optional<String> services = Catalogue.IMAGES_SERVICES.read(p).or(() -> registry.map(r -> r + "/" + SERVICES_IMAGE + ":"
                + Catalogue.IMAGES_TAG.read(p).orElseThrow(() -> new IllegalArgumentException(P_IMAGE_TAG + " is empty: needed with "
                        + P_IMAGE_REGISTRY))));
        services.ifPresent(image -> images.put(SERVICES_IMAGE, image));
        Catalogue.IMAGES_SNI_PROXY.read(p).ifPresent(image -> images.put(SNI_PROXY_IMAGE, image));
        return new KubernetesSettings(
                Catalogue.KUBECONFIG.read(p).map(s -> existingFile(P_KUBECONFIG, s)),
                Catalogue.NAMESPACE.read(p).orElse(defaultNamespace),
                images, mongo, Catalogue.INGRESS_URL.read(p), Catalogue.LATENCY_ENTRYPOINT_URL.read(p), Catalogue.PROMETHEUS_URL.read(p),
                Catalogue.PROMETHEUS_SERVICE.value(p), Catalogue.EGRESS_GATEWAY_NAMESPACE.value(p),
                Catalogue.INGRESS_GATEWAY_NAMESPACE.value(p), Catalogue.KEEP.value(p),
                Duration.ofSeconds(Catalogue.READY_TIMEOUT_SECONDS.value(p)), Catalogue.CPU_REQUEST_SCALE.value(p),
                Catalogue.SERVICE_ACCESS.value(p).equals("cluster-ip"), Catalogue.KUBECTL_BINARY.read(p));
    }

    static Mongo mongo(Map<String, String> p) {
        String raw = p.get(P_MONGO_URI);
        if (blank(raw)) {
            throw new IllegalArgumentException(P_MONGO_URI + " is not set: the Kubernetes target needs an external TLS "
                    + "MongoDB, e.g. -D" + P_MONGO_URI + "=mongodb://mongo.example.com:27017/?tls=true -D" + P_MONGO_CA + "=ca.pem");
        }
        URI uri;
        try {
            uri = URI.create(raw.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(P_MONGO_URI + "=" + raw + ": not a URI: " + e.getMessage());
        }
        if (!"mongodb".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException(P_MONGO_URI + "=" + raw + ": must be mongodb://<host>:<port>/?tls=true "
                    + "(one host; mongodb+srv is not supported)");
        }
        String query = Optional.ofNullable(uri.getQuery()).orElse("").toLowerCase(Locale.ROOT);
        if (!query.contains("tls=true") && !query.contains("ssl=true")) {
            throw new IllegalArgumentException(P_MONGO_URI + "=" + raw + ": must enable TLS (tls=true): the study's MongoDB "
                    + "speaks TLS and the egress cases route it by SNI");
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (host.matches("[0-9.]+") || host.startsWith("[") || host.indexOf('.') < 0) {
            throw new IllegalArgumentException(P_MONGO_URI + "=" + raw + ": the host must be a DNS name with a domain "
                    + "(the driver sends no SNI for an IP literal, and case sni needs a wildcard of its domain)");
        }
        String wildcard = Optional.ofNullable(p.get(P_MONGO_WILDCARD)).filter(s -> !s.isBlank()).map(String::trim)
                .orElse("*" + host.substring(host.indexOf('.')));
        String cidr = Optional.ofNullable(p.get(P_MONGO_CIDR)).filter(s -> !s.isBlank()).map(String::trim)
                .orElseGet(() -> resolve(host));
        String caFile = p.get(P_MONGO_CA);
        if (blank(caFile)) {
            throw new IllegalArgumentException(P_MONGO_CA + " is not set: the PEM CA that signed MongoDB's certificate "
                    + "(the services verify it; there is no trust-all)");
        }
        Path ca = existingFile(P_MONGO_CA, caFile);
        try {
            return new Mongo(uri, host, wildcard, cidr, Files.readString(ca));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(P_MONGO_CA + "=" + ca + ": cannot be read: " + e.getMessage());
        }
    }

    private static String resolve(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a instanceof java.net.Inet4Address) {
                    return a.getHostAddress() + "/32";
                }
            }
            throw new IllegalArgumentException(P_MONGO_URI + ": host " + host + " has no IPv4 address; set " + P_MONGO_CIDR);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(P_MONGO_URI + ": host " + host + " does not resolve from this machine; set "
                    + P_MONGO_CIDR + " to its address as the cluster sees it (case bypass excludes it from the sidecar)");
        }
    }

    private static Path existingFile(String property, String value) {
        Path path = Path.of(value.trim());
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(property + "=" + value + ": no such file");
        }
        return path;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
