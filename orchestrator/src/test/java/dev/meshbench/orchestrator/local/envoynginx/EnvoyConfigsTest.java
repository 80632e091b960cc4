package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.local.ProxyLaunch;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link EnvoyConfigs} without a running Envoy: what it writes and what it refuses. */
class EnvoyConfigsTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final List<TopologyPlan> PLANS = EnvoyFixtures.everyCase(true);
    private static final LocalAddresses ADDRS = EnvoyFixtures.fixedAddresses(PLANS);

    private static TopologyPlan plan(EgressCase c) {
        return PLANS.get(c.ordinal());
    }

    @Test
    @DisplayName("the bootstrap holds node, admin and where LDS and CDS come from (a watched folder each), and is the same for every case")
    void bootstrapHasOnlyDynamicResources() throws Exception {
        Path xds = Path.of("/run/meshbench/config/sidecar-booking.xds");
        String first = EnvoyConfigs.bootstrap(plan(EgressCase.SIDECAR).component("sidecar-booking"), ADDRS, xds);
        for (TopologyPlan plan : PLANS) {
            assertEquals(first, EnvoyConfigs.bootstrap(plan.component("sidecar-booking"), ADDRS, xds), plan.id());
        }
        JsonNode root = YAML.readTree(first);
        assertEquals(List.of("node", "admin", "dynamic_resources"), fieldNames(root));
        assertEquals("sidecar-booking", root.at("/node/id").asText());
        assertEquals(ADDRS.adminPort("sidecar-booking"), root.at("/admin/address/socket_address/port_value").asInt());
        for (String[] kind : new String[][] {{"lds_config", "lds", "listeners.yaml"}, {"cds_config", "cds", "clusters.yaml"}}) {
            JsonNode source = root.path("dynamic_resources").path(kind[0]);
            assertEquals("V3", source.path("resource_api_version").asText());
            assertEquals(xds.resolve(kind[1]).resolve(kind[2]).toString(), source.at("/path_config_source/path").asText());
            assertEquals(xds.resolve(kind[1]).toString(), source.at("/path_config_source/watched_directory/path").asText());
        }
    }

    @Test
    @DisplayName("the LDS and CDS documents hold exactly the static bootstrap's listeners and clusters, typed, at the version given")
    void documentsHoldTheStaticResources() throws Exception {
        int checked = 0;
        for (TopologyPlan plan : PLANS) {
            MeshFiles files = EnvoyFixtures.fixedMeshFiles(plan);
            for (ComponentPlan p : plan.components()) {
                if (!p.kind().isProxy() || p.kind() == ComponentKind.SNI_PROXY) {
                    continue;
                }
                JsonNode stat = YAML.readTree(EnvoyBootstrapRenderer.render(plan, p, ADDRS, files)).path("static_resources");
                JsonNode lds = YAML.readTree(EnvoyConfigs.listenersDocument(plan, p, ADDRS, files, "v7"));
                JsonNode cds = YAML.readTree(EnvoyConfigs.clustersDocument(plan, p, ADDRS, files, "v7"));
                assertEquals("v7", lds.path("version_info").asText());
                assertEquals("v7", cds.path("version_info").asText());
                assertEquals(stat.path("listeners"), untyped(lds.path("resources"), EnvoyConfigs.LISTENER_TYPE), plan.id() + " " + p.name());
                assertEquals(stat.path("clusters"), untyped(cds.path("resources"), EnvoyConfigs.CLUSTER_TYPE), plan.id() + " " + p.name());
                assertEquals(EnvoyBootstrapRenderer.clusterNames(p, ADDRS),
                        Stream.of(stat.path("clusters")).flatMap(a -> java.util.stream.StreamSupport.stream(a.spliterator(), false))
                                .map(c -> c.path("name").asText()).toList(), "cluster names as awaitApplied expects them");
                checked++;
            }
        }
        assertTrue(checked >= 25, "every Envoy of every case: " + checked);
    }

    @Test
    @DisplayName("push renames both documents into their folders, leaves no temporary file, and takes the same version again only for the same contents")
    void pushWritesByRenameAndRefusesAReusedVersion(@TempDir Path dir) throws Exception {
        TopologyPlan sidecar = plan(EgressCase.SIDECAR);
        TopologyPlan gateway = plan(EgressCase.GATEWAY);
        ComponentPlan proxy = sidecar.component("sidecar-booking");
        MeshFiles files = EnvoyFixtures.fixedMeshFiles(sidecar);
        Path xds = dir.resolve("sidecar-booking.xds");

        EnvoyConfigs.push(sidecar, proxy, ADDRS, files, xds, "one");
        assertEquals(EnvoyConfigs.listenersDocument(sidecar, proxy, ADDRS, files, "one"), Files.readString(xds.resolve("lds/listeners.yaml")));
        assertEquals(EnvoyConfigs.clustersDocument(sidecar, proxy, ADDRS, files, "one"), Files.readString(xds.resolve("cds/clusters.yaml")));
        try (Stream<Path> all = Files.walk(xds)) {
            assertEquals(List.of("cds/clusters.yaml", "lds/listeners.yaml"),
                    all.filter(Files::isRegularFile).map(f -> xds.relativize(f).toString()).sorted().toList());
        }

        EnvoyConfigs.push(sidecar, proxy, ADDRS, files, xds, "one"); // the same contents again: fine
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                EnvoyConfigs.push(gateway, gateway.component("sidecar-booking"), ADDRS, EnvoyFixtures.fixedMeshFiles(gateway), xds, "one"));
        assertTrue(e.getMessage().contains("sidecar-booking") && e.getMessage().contains("version one"), e.getMessage());
        assertEquals(EnvoyConfigs.listenersDocument(sidecar, proxy, ADDRS, files, "one"), Files.readString(xds.resolve("lds/listeners.yaml")),
                "nothing written");

        EnvoyConfigs.push(gateway, gateway.component("sidecar-booking"), ADDRS, EnvoyFixtures.fixedMeshFiles(gateway), xds, "two");
        assertTrue(Files.readString(xds.resolve("cds/clusters.yaml")).contains("istio-egressgateway"));
    }

    @Test
    @DisplayName("a version that is empty, has spaces or control characters is refused, naming the proxy, before anything is written")
    void malformedVersionsAreRefused(@TempDir Path dir) {
        TopologyPlan sidecar = plan(EgressCase.SIDECAR);
        ComponentPlan proxy = sidecar.component("sidecar-booking");
        for (String bad : new String[] {"", "two words", "line\nbreak", "x".repeat(129), null}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                    EnvoyConfigs.push(sidecar, proxy, ADDRS, EnvoyFixtures.fixedMeshFiles(sidecar), dir.resolve("x.xds"), bad));
            assertTrue(e.getMessage().contains("sidecar-booking"), e.getMessage());
        }
        assertFalse(Files.exists(dir.resolve("x.xds")));
    }

    @Test
    @DisplayName("awaitApplied on an admin nobody serves fails after the timeout, naming the proxy, the version and the admin")
    void awaitAppliedWithoutEnvoyFails() throws Exception {
        TopologyPlan sidecar = plan(EgressCase.SIDECAR);
        try (dev.meshbench.component.testing.ClosedPort nobody = new dev.meshbench.component.testing.ClosedPort()) {
            URI admin = URI.create("http://127.0.0.1:" + nobody.port());
            TargetException e = assertThrows(TargetException.class, () -> EnvoyConfigs.awaitApplied(HttpClient.newHttpClient(), admin,
                    sidecar, sidecar.component("sidecar-booking"), ADDRS, "sidecar", Duration.ofMillis(300)));
            assertTrue(e.getMessage().contains("sidecar-booking") && e.getMessage().contains("configuration sidecar")
                    && e.getMessage().contains(admin.toString()), e.getMessage());
        }
    }

    @Test
    @DisplayName("nginx is not reconfigured while it runs (it is restarted), and a Netty relay whose admin does not answer fails, named")
    void reconfigureIsEnvoyOnly(@TempDir Path dir) {
        TopologyPlan sni = plan(EgressCase.SNI);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProxyLaunch netty = new ProxyLaunch(DataPlane.NETTY, "auto", java, Optional.empty(), Optional.empty(), Optional.empty());
        ProxyLaunch envoy = new ProxyLaunch(DataPlane.ENVOY, "auto", java, Optional.empty(), Optional.empty(), Optional.empty());
        URI admin = URI.create("http://127.0.0.1:1");
        TargetException n = assertThrows(TargetException.class, () -> netty.reconfigure(sni, sni.component("sidecar-booking"), ADDRS,
                EnvoyFixtures.fixedMeshFiles(sni), dir, "sni", HttpClient.newHttpClient(), admin, Duration.ofSeconds(1)));
        assertTrue(n.getMessage().startsWith("sidecar-booking: configuration sni could not be given: PUT http://127.0.0.1:1/config?version=sni"),
                n.getMessage());
        TargetException x = assertThrows(TargetException.class, () -> envoy.reconfigure(sni, sni.component("sni-proxy"), ADDRS,
                EnvoyFixtures.fixedMeshFiles(sni), dir, "sni", HttpClient.newHttpClient(), admin, Duration.ofSeconds(1)));
        assertTrue(x.getMessage().contains("sni-proxy") && x.getMessage().contains("not supported"), x.getMessage());
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The resources without their {@code @type}, after checking it. */
    private static ArrayNode untyped(JsonNode resources, String type) {
        ArrayNode out = YAML.createArrayNode();
        for (JsonNode r : resources) {
            assertEquals(type, r.path("@type").asText());
            ObjectNode copy = ((ObjectNode) r).deepCopy();
            copy.remove("@type");
            out.add(copy);
        }
        return out;
    }
}
