package dev.meshbench.orchestrator.local.envoynginx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * An Envoy proxy configured the way Istio's control plane configures one: a small bootstrap (node, admin and where
 * to get the rest) and its listeners and clusters as dynamic resources (LDS, CDS) that can change while it runs, so
 * the kit deploys the application once and switches cases underneath it.
 *
 * <p>The resources come from files ({@code path_config_source}) in a directory per proxy:
 * <pre>
 * &lt;xdsDir&gt;/lds/listeners.yaml   a DiscoveryResponse of Listener resources
 * &lt;xdsDir&gt;/cds/clusters.yaml    a DiscoveryResponse of Cluster resources
 * </pre>
 * Each is the exact list of the proxy's listeners (clusters) for one case, as {@link EnvoyBootstrapRenderer#resources}
 * renders them, with the caller's version in {@code version_info}. {@link #push} writes each to a temporary file in
 * the same folder and renames it over the old one; Envoy watches each folder ({@code watched_directory}) and reads
 * the file again when a file is moved into it. What Envoy 1.40 does, as checked for this class:
 * <ul>
 *   <li>only a rename into the folder is seen: a file written in place is ignored until the next rename;</li>
 *   <li>any rename into a watched folder makes every subscription on that folder read its file again, so LDS and CDS
 *       have a folder each (sharing one, a CDS push re-read the listeners file and counted an old rejection again);</li>
 *   <li>an update Envoy cannot apply (a listener it rejects, a document it cannot parse) is rejected as a whole:
 *       {@code listener_manager.lds.update_rejected} / {@code cluster_manager.cds.update_rejected} count it, Envoy
 *       logs {@code Filesystem config update rejected: <reason>} at warning level, a rejected listener shows its
 *       reason in {@code /config_dump}'s {@code error_state}, and the proxy keeps the configuration it had;</li>
 *   <li>a resource an update leaves unchanged keeps the version it was last changed in (in {@code /config_dump}),
 *       and {@code /config_dump}'s own {@code version_info} moves only when something changed (and even on an update
 *       that was then rejected); the version Envoy accepted last is the text readout
 *       {@code listener_manager.lds.version_text} / {@code cluster_manager.cds.version_text} in {@code /stats}, which
 *       is what {@link #awaitApplied} reads as the version, with the names and states from {@code /config_dump};</li>
 *   <li>LDS and CDS are two subscriptions with a watch each, applied in the order Envoy sees the renames: for a
 *       moment after a push a listener may name a cluster Envoy has not added yet (a connection accepted then is
 *       closed at once, {@code tcp.<listener>.downstream_cx_no_route}). Nothing is measured then: the kit waits for
 *       {@link #awaitApplied}.</li>
 * </ul>
 * What a change does to open connections is in {@code orchestrator/ENVOY.md} ("Switching cases while Envoy runs").
 */
public final class EnvoyConfigs {
    static final String LDS_DIR = "lds";
    static final String CDS_DIR = "cds";
    static final String LDS_FILE = "listeners.yaml";
    static final String CDS_FILE = "clusters.yaml";
    static final String LISTENER_TYPE = "type.googleapis.com/envoy.config.listener.v3.Listener";
    static final String CLUSTER_TYPE = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
    /** How long {@link #awaitApplied} waits between two looks at the proxy's admin. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    /** How long one admin request may take. */
    static final Duration ADMIN_REQUEST_TIMEOUT = Duration.ofSeconds(2);
    private static final int MAX_VERSION_LENGTH = 128;

    private static final String LDS_VERSION = "listener_manager.lds.version_text";
    private static final String CDS_VERSION = "cluster_manager.cds.version_text";
    private static final String LDS_REJECTED = "listener_manager.lds.update_rejected";
    private static final String CDS_REJECTED = "cluster_manager.cds.update_rejected";
    private static final String LISTENERS_DRAINING = "listener_manager.total_listeners_draining";
    private static final String FILTER_CHAINS_DRAINING = "listener_manager.total_filter_chains_draining";
    private static final String STATS_FILTER = "^(" + String.join("|", List.of(LDS_VERSION, CDS_VERSION, LDS_REJECTED, CDS_REJECTED,
            LISTENERS_DRAINING, FILTER_CHAINS_DRAINING)).replace(".", "\\.") + ")$";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML_READER = new YAMLMapper();

    private EnvoyConfigs() {
    }

    /**
     * The bootstrap of {@code proxy}: node, admin, and {@code dynamic_resources} whose LDS and CDS come from the
     * files under {@code xdsDir} (made absolute). It holds no listener or cluster, so it is the same for every case;
     * {@link #push} the first configuration before Envoy starts on it.
     */
    public static String bootstrap(ComponentPlan proxy, LocalAddresses addrs, Path xdsDir) {
        Objects.requireNonNull(xdsDir, "xdsDir");
        ObjectNode root = EnvoyBootstrapRenderer.nodeAndAdmin(proxy, addrs);
        ObjectNode dynamic = root.putObject("dynamic_resources");
        dynamic.set("lds_config", pathSource(listenersFile(xdsDir)));
        dynamic.set("cds_config", pathSource(clustersFile(xdsDir)));
        return EnvoyBootstrapRenderer.yaml(root, "bootstrap of " + proxy.name());
    }

    /**
     * Writes {@code proxy}'s listeners and clusters in {@code plan} as {@code version}: the clusters first, then the
     * listeners, each to a temporary file in its folder and renamed over the old one (an atomic rename, which is what
     * Envoy watches for). A running Envoy applies them on its own; {@link #awaitApplied} waits until it has.
     *
     * @param version the configuration's name, as Envoy will report it: 1 to 128 characters, no spaces or control
     *                characters, and a new one for every different configuration of this proxy
     * @throws IllegalArgumentException when the version is malformed, or was pushed to this directory before with
     *                                  other contents (Envoy could not tell the two apart), or the plan cannot be
     *                                  rendered; nothing is written then
     * @throws TargetException          when writing a file fails (a temporary file left over is removed)
     */
    public static void push(TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles mesh, Path xdsDir, String version) {
        checkVersion(proxy, version);
        String clusters = clustersDocument(plan, proxy, addrs, mesh, version);
        String listeners = listenersDocument(plan, proxy, addrs, mesh, version);
        Path cds = clustersFile(xdsDir);
        Path lds = listenersFile(xdsDir);
        refuseReusedVersion(proxy, cds, clusters, version);
        refuseReusedVersion(proxy, lds, listeners, version);
        writeAtomically(proxy, cds, clusters);
        writeAtomically(proxy, lds, listeners);
    }

    /**
     * Returns once {@code proxy}'s own admin shows the configuration {@code version} of {@code plan} in force: its
     * last accepted LDS and CDS updates are {@code version} ({@code /stats} text readouts), {@code /config_dump}
     * lists exactly the plan's listeners and clusters by name, none warming, and no listener or filter chain of an
     * earlier configuration is still draining (so connections accepted under it have been closed; see
     * {@code ENVOY.md} for the one kind of connection a change leaves open).
     *
     * @param admin the proxy's admin, {@code http://127.0.0.1:<admin port>}
     * @throws TargetException after {@code timeout}, naming the proxy, the version wanted and what it has: the
     *                         versions it accepted last, listeners and clusters missing or not in the plan, warming
     *                         or draining, and, when Envoy rejected updates, its rejection counters and reasons
     */
    public static void awaitApplied(HttpClient http, URI admin, TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, String version,
            Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<String> unmet = notApplied(http, admin, plan, proxy, addrs, version);
            if (unmet.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TargetException(proxy.name() + " has not applied configuration " + version + " within " + timeout.toMillis()
                        + " ms: " + unmet.get());
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("waiting for " + proxy.name() + " to apply configuration " + version + " was interrupted");
            }
        }
    }

    /**
     * One look at {@code proxy}'s admin: empty when configuration {@code version} of {@code plan} is in force as
     * {@link #awaitApplied} defines it, else what it has instead (for a readiness check that polls).
     */
    public static Optional<String> notApplied(HttpClient http, URI admin, TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs,
            String version) {
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(admin, "admin");
        checkVersion(proxy, version);
        plan.component(proxy.name()); // the proxy must belong to the plan
        List<String> listeners = proxy.listeners().stream().map(ListenerPlan::name).toList();
        List<String> clusters = EnvoyBootstrapRenderer.clusterNames(proxy, addrs);
        Observed seen;
        try {
            seen = Observed.read(http, admin);
        } catch (IOException e) {
            return Optional.of("its admin " + admin + " did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("reading its admin " + admin + " was interrupted");
        }
        return seen.unmet(version, listeners, clusters);
    }

    /** The LDS document of {@code proxy} in {@code plan}: a DiscoveryResponse of its listeners as {@code version}. */
    static String listenersDocument(TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles mesh, String version) {
        return document(LISTENER_TYPE, EnvoyBootstrapRenderer.resources(plan, proxy, addrs, mesh).listeners(), version,
                "listeners of " + proxy.name());
    }

    /** The CDS document of {@code proxy} in {@code plan}: a DiscoveryResponse of its clusters as {@code version}. */
    static String clustersDocument(TopologyPlan plan, ComponentPlan proxy, LocalAddresses addrs, MeshFiles mesh, String version) {
        return document(CLUSTER_TYPE, EnvoyBootstrapRenderer.resources(plan, proxy, addrs, mesh).clusters(), version,
                "clusters of " + proxy.name());
    }

    static Path listenersFile(Path xdsDir) {
        return xdsDir.toAbsolutePath().normalize().resolve(LDS_DIR).resolve(LDS_FILE);
    }

    static Path clustersFile(Path xdsDir) {
        return xdsDir.toAbsolutePath().normalize().resolve(CDS_DIR).resolve(CDS_FILE);
    }

    /**
     * Writes {@code text} to a temporary file next to {@code file} and renames it over {@code file} in one step, so
     * a reader (Envoy) sees the old file or the new one, never part of one.
     */
    static void writeAtomically(ComponentPlan proxy, Path file, String text) {
        Path dir = file.getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (AtomicMoveNotSupportedException e) {
            throw new TargetException("pushing configuration to " + proxy.name() + ": " + dir + " cannot rename " + tmp + " over " + file
                    + " atomically, which Envoy's file watch needs: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new TargetException("pushing configuration to " + proxy.name() + ": writing " + file + " failed: " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the write already failed and says so; a stray temporary file is harmless to Envoy
                }
            }
        }
    }

    private static ObjectNode pathSource(Path file) {
        ObjectNode source = F.objectNode();
        source.put("resource_api_version", "V3");
        ObjectNode path = source.putObject("path_config_source");
        path.put("path", file.toString());
        path.putObject("watched_directory").put("path", file.getParent().toString());
        return source;
    }

    private static String document(String type, List<ObjectNode> resources, String version, String what) {
        ObjectNode doc = F.objectNode();
        doc.put("version_info", version);
        var array = doc.putArray("resources");
        for (ObjectNode r : resources) {
            ObjectNode typed = array.addObject();
            typed.put("@type", type);
            typed.setAll(r);
        }
        return EnvoyBootstrapRenderer.yaml(doc, what);
    }

    private static void checkVersion(ComponentPlan proxy, String version) {
        if (version == null || version.isEmpty() || version.length() > MAX_VERSION_LENGTH
                || version.chars().anyMatch(ch -> Character.isWhitespace(ch) || Character.isISOControl(ch))) {
            throw new IllegalArgumentException("configuration version for " + proxy.name() + " must be 1 to " + MAX_VERSION_LENGTH
                    + " characters without spaces or control characters, not " + (version == null ? "null" : "'" + version + "'"));
        }
    }

    private static void refuseReusedVersion(ComponentPlan proxy, Path file, String text, String version) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        String existing;
        try {
            existing = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TargetException("pushing configuration " + version + " to " + proxy.name() + ": reading " + file + " failed: "
                    + e.getMessage(), e);
        }
        if (existing.equals(text)) {
            return;
        }
        String existingVersion;
        try {
            existingVersion = YAML_READER.readTree(existing).path("version_info").asText("");
        } catch (IOException e) {
            return; // not a document of ours: it is replaced
        }
        if (existingVersion.equals(version)) {
            throw new IllegalArgumentException("pushing configuration " + version + " to " + proxy.name() + " refused: " + file
                    + " already holds version " + version + " with other contents; give every configuration its own version, or"
                    + " the proxy's admin cannot show which one it runs");
        }
    }

    /**
     * What a proxy's admin showed at one look.
     *
     * @param ldsVersion                      the version of the last LDS update Envoy accepted
     * @param cdsVersion                      the version of the last CDS update Envoy accepted
     * @param ldsRejected                     LDS updates it rejected since it started
     * @param cdsRejected                     CDS updates it rejected since it started
     * @param listenersDraining               whole listeners draining ({@code total_listeners_draining})
     * @param filterChainsDraining            filter chains draining after an in-place listener update
     * @param activeListeners                 active listener name to the version it was last changed in
     * @param warmingListeners                listeners not yet serving
     * @param drainingListeners               listeners whose earlier configuration is draining
     * @param listenerErrors                  listener name to Envoy's reason for rejecting its last update
     * @param activeClusters                  active cluster name to the version it was last changed in
     * @param warmingClusters                 clusters not yet serving
     */
    private record Observed(String ldsVersion, String cdsVersion, long ldsRejected, long cdsRejected, long listenersDraining,
            long filterChainsDraining, Map<String, String> activeListeners, Set<String> warmingListeners, Set<String> drainingListeners,
            Map<String, String> listenerErrors, Map<String, String> activeClusters, Set<String> warmingClusters) {

        static Observed read(HttpClient http, URI admin) throws IOException, InterruptedException {
            JsonNode stats = JSON.readTree(get(http, admin.resolve("/stats?format=json&filter="
                    + URLEncoder.encode(STATS_FILTER, StandardCharsets.UTF_8))));
            Map<String, JsonNode> values = new LinkedHashMap<>();
            for (JsonNode s : stats.path("stats")) {
                values.put(s.path("name").asText(), s.path("value"));
            }
            JsonNode dump = JSON.readTree(get(http, admin.resolve("/config_dump")));
            Map<String, String> activeListeners = new LinkedHashMap<>();
            Set<String> warmingListeners = new TreeSet<>();
            Set<String> drainingListeners = new TreeSet<>();
            Map<String, String> listenerErrors = new LinkedHashMap<>();
            Map<String, String> activeClusters = new LinkedHashMap<>();
            Set<String> warmingClusters = new TreeSet<>();
            for (JsonNode config : dump.path("configs")) {
                String type = config.path("@type").asText();
                if (type.endsWith(".ListenersConfigDump")) {
                    for (JsonNode l : config.path("dynamic_listeners")) {
                        // Envoy 1.40 lists a rejected new listener once more without a name; its failed configuration has it.
                        String name = l.hasNonNull("name") ? l.get("name").asText()
                                : l.at("/error_state/failed_configuration/name").asText("(unnamed)");
                        if (l.has("active_state")) {
                            activeListeners.put(name, l.at("/active_state/version_info").asText(""));
                        }
                        if (l.has("warming_state")) {
                            warmingListeners.add(name);
                        }
                        if (l.has("draining_state")) {
                            drainingListeners.add(name);
                        }
                        if (l.has("error_state")) {
                            listenerErrors.put(name, l.at("/error_state/details").asText("").strip().replaceAll("\\s+", " "));
                        }
                    }
                } else if (type.endsWith(".ClustersConfigDump")) {
                    for (JsonNode c : config.path("dynamic_active_clusters")) {
                        activeClusters.put(c.at("/cluster/name").asText(), c.path("version_info").asText(""));
                    }
                    for (JsonNode c : config.path("dynamic_warming_clusters")) {
                        warmingClusters.add(c.at("/cluster/name").asText());
                    }
                }
            }
            return new Observed(text(values, LDS_VERSION), text(values, CDS_VERSION), count(values, LDS_REJECTED), count(values, CDS_REJECTED),
                    count(values, LISTENERS_DRAINING), count(values, FILTER_CHAINS_DRAINING), activeListeners, warmingListeners,
                    drainingListeners, listenerErrors, activeClusters, warmingClusters);
        }

        /** Empty when {@code version} with exactly these listeners and clusters is in force, else what differs. */
        Optional<String> unmet(String version, List<String> listeners, List<String> clusters) {
            List<String> unmet = new ArrayList<>();
            if (!ldsVersion.equals(version)) {
                unmet.add("its listeners are version " + shown(ldsVersion));
            }
            if (!cdsVersion.equals(version)) {
                unmet.add("its clusters are version " + shown(cdsVersion));
            }
            differences("listeners", listeners, activeListeners.keySet(), unmet);
            differences("clusters", clusters, activeClusters.keySet(), unmet);
            if (!warmingListeners.isEmpty()) {
                unmet.add("listeners warming " + warmingListeners);
            }
            if (!warmingClusters.isEmpty()) {
                unmet.add("clusters warming " + warmingClusters);
            }
            if (!drainingListeners.isEmpty() || listenersDraining > 0 || filterChainsDraining > 0) {
                unmet.add("an earlier configuration is still draining (listeners " + drainingListeners + ", " + LISTENERS_DRAINING + " "
                        + listenersDraining + ", " + FILTER_CHAINS_DRAINING + " " + filterChainsDraining + ")");
            }
            if (unmet.isEmpty()) {
                return Optional.empty();
            }
            StringBuilder b = new StringBuilder(String.join("; ", unmet));
            b.append(". It has listeners ").append(withVersions(activeListeners)).append(" and clusters ").append(withVersions(activeClusters));
            if (ldsRejected > 0 || cdsRejected > 0 || !listenerErrors.isEmpty()) {
                b.append(". Envoy rejected updates: ").append(LDS_REJECTED).append(' ').append(ldsRejected).append(", ")
                        .append(CDS_REJECTED).append(' ').append(cdsRejected);
                listenerErrors.forEach((name, reason) -> b.append("; listener ").append(name).append(": ").append(reason));
                b.append(" (its log has every rejection: 'Filesystem config update rejected: <reason>')");
            }
            return Optional.of(b.toString());
        }

        private static void differences(String what, List<String> wanted, Set<String> actual, List<String> unmet) {
            Set<String> missing = new LinkedHashSet<>(wanted);
            missing.removeAll(actual);
            Set<String> extra = new LinkedHashSet<>(actual);
            extra.removeAll(wanted);
            if (!missing.isEmpty()) {
                unmet.add(what + " missing " + missing);
            }
            if (!extra.isEmpty()) {
                unmet.add(what + " not in the plan " + extra);
            }
        }

        private static String withVersions(Map<String, String> named) {
            return named.entrySet().stream().map(e -> e.getKey() + "@" + shown(e.getValue())).collect(Collectors.joining(", ", "[", "]"));
        }

        private static String shown(String version) {
            return version.isEmpty() ? "(none)" : version;
        }

        private static String text(Map<String, JsonNode> values, String name) {
            JsonNode v = values.get(name);
            return v == null ? "" : v.asText("");
        }

        private static long count(Map<String, JsonNode> values, String name) {
            JsonNode v = values.get(name);
            return v == null ? 0 : v.asLong(0);
        }

        private static String get(HttpClient http, URI uri) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(ADMIN_REQUEST_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("GET " + uri + " answered " + r.statusCode() + ": " + r.body().strip());
            }
            return r.body();
        }
    }
}
