package dev.meshbench.orchestrator.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.orchestrator.plan.DataPlane;
import dev.meshbench.orchestrator.plan.PlanOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LocalDataPlaneTest {
    private static final PlanOptions NETTY = new PlanOptions(DataPlane.NETTY, true, 1, false);

    @Test
    void theEgressStudyRecordsItsThreeProxyKinds() {
        LocalDataPlane d = LocalDataPlane.resolve(NETTY, null, null, "", "1.2.3");

        assertEquals(Map.of("sidecar", "meshbench-netty 1.2.3", "egress-gateway", "meshbench-netty 1.2.3",
                "sni-proxy", "meshbench-netty 1.2.3"), d.versions());
    }

    @Test
    void theLatencyStudyRecordsTheSidecarAndTheIngressGatewayOnly() {
        LocalDataPlane d = LocalDataPlane.resolve(NETTY, null, null, "", "1.2.3");

        Map<String, String> v = d.latencyVersions();

        assertEquals(List.of("sidecar", "ingress-gateway"), List.copyOf(v.keySet()));
        assertEquals("meshbench-netty 1.2.3", v.get("ingress-gateway"));
    }

    @Test
    void anEnvoyIngressIsTheSidecarsEnvoyAndNginxIsLeftOut() {
        LocalDataPlane d = new LocalDataPlane(new PlanOptions(DataPlane.ENVOY, true, 1, false), Optional.of(Path.of("/x/envoy")),
                Optional.of(Path.of("/x/nginx")), Map.of("sidecar", "envoy 1.40.0", "egress-gateway", "envoy 1.40.0",
                        "sni-proxy", "nginx 1.22.1"));

        assertEquals(Map.of("sidecar", "envoy 1.40.0", "ingress-gateway", "envoy 1.40.0"), d.latencyVersions());
    }

    @Test
    void withoutKnownVersionsNothingIsClaimed() {
        assertTrue(LocalDataPlane.netty(NETTY).latencyVersions().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new LocalDataPlane(new PlanOptions(DataPlane.ENVOY, true, 1, false),
                Optional.empty(), Optional.empty(), Map.of()));
    }

    /** A stand-in binary: a shell script answering {@code -V} (nginx's build options) or anything else with {@code text}. */
    private static Path script(Path dir, String name, String text) throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir);
        Path p = dir.resolve(name);
        java.nio.file.Files.writeString(p, "#!/bin/sh\necho '" + text + "' >&2\n");
        p.toFile().setExecutable(true);
        return p;
    }

    private static final String NGINX_V = "nginx version: nginx/1.22.1\nconfigure arguments: --with-stream "
            + "--with-stream_ssl_preread_module";

    @Test
    @DisplayName("auto: Envoy when nginx with the stream module and an Envoy are found (PATH or the kit's cache), else Netty, saying why")
    void autoChoosesEnvoyWhereItCanBeHad(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path bin = tmp.resolve("bin");
        Path cache = tmp.resolve("cache");
        LocalDataPlane.Choice none = LocalDataPlane.choose(LocalDataPlane.Binaries.ON_PATH, bin.toString(), cache);
        assertEquals(DataPlane.NETTY, none.dataPlane());
        assertTrue(none.why().startsWith("netty (auto: the Envoy data plane's SNI proxy needs nginx with the stream module"), none.why());

        script(bin, "nginx", NGINX_V);
        LocalDataPlane.Choice noEnvoy = LocalDataPlane.choose(LocalDataPlane.Binaries.ON_PATH, bin.toString(), cache);
        assertEquals(DataPlane.NETTY, noEnvoy.dataPlane());
        assertTrue(noEnvoy.why().contains("no Envoy on PATH or in " + cache), noEnvoy.why());

        Path cached = script(LocalDataPlane.cachedEnvoy(cache).getParent(), "envoy", "envoy");
        LocalDataPlane.Choice fromCache = LocalDataPlane.choose(LocalDataPlane.Binaries.ON_PATH, bin.toString(), cache);
        assertEquals(DataPlane.ENVOY, fromCache.dataPlane());
        assertEquals(Optional.of(cached.toString()), fromCache.binaries().envoy());
        assertTrue(fromCache.why().startsWith("envoy (auto: Envoy " + cached + " from the kit's cache, nginx " + bin.resolve("nginx")),
                fromCache.why());

        Path onPath = script(bin, "envoy", "envoy");
        assertEquals(Optional.of(onPath.toString()),
                LocalDataPlane.choose(LocalDataPlane.Binaries.ON_PATH, bin.toString(), cache).binaries().envoy(), "PATH first");
    }

    @Test
    @DisplayName("auto never hides a bad binary setting behind Netty: the setting is named")
    void autoRefusesABadBinarySetting(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        script(tmp.resolve("bin"), "nginx", NGINX_V);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LocalDataPlane.choose(
                new LocalDataPlane.Binaries(Optional.of(tmp.resolve("nope").toString()), Optional.empty()), tmp.resolve("bin").toString(),
                tmp.resolve("cache")));
        assertTrue(e.getMessage().startsWith("meshbench.envoy.binary=" + tmp.resolve("nope") + ": no such file"), e.getMessage());
    }
}
