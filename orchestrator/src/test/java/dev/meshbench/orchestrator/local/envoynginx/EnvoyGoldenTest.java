package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every proxy of every case runs, with sidecar mTLS on and off, against golden files under
 * {@code src/test/resources/envoy-golden/<case>-sidecar-mtls|plain/}: per Envoy its bootstrap
 * ({@code <proxy>.bootstrap.yaml}, {@link EnvoyConfigs#bootstrap}) and the LDS and CDS documents pushed for the case
 * ({@code <proxy>.lds.yaml}, {@code <proxy>.cds.yaml}, version = the case's id), and the SNI proxy's nginx.conf.
 * Ports are reserved once over every case, as the kit does (listeners from 20001, admin from 21001, in order of first
 * appearance), so two cases' files differ only where the case does; certificate and xDS paths are fixed. After a
 * deliberate change, rewrite them with
 * {@code mvn -B -pl orchestrator -am test -Dtest=EnvoyGoldenTest -Dsurefire.failIfNoSpecifiedTests=false -Dmeshbench.regenerateGolden=true} and review the diff.
 */
class EnvoyGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/envoy-golden");

    static Stream<Arguments> everyProxyOfEveryCase() {
        return Stream.of(EgressCase.values()).flatMap(c -> Stream.of(true, false).flatMap(mtls ->
                EnvoyFixtures.plan(c, mtls).components().stream().filter(p -> p.kind().isProxy()).map(p -> Arguments.of(c, mtls, p.name()))));
    }

    @ParameterizedTest(name = "case {0}, sidecar mTLS {1}: {2} matches its golden files")
    @MethodSource("everyProxyOfEveryCase")
    void proxyConfigMatchesGolden(EgressCase c, boolean sidecarMtls, String component) throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(c, sidecarMtls);
        ComponentPlan proxy = plan.component(component);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(EnvoyFixtures.everyCase(sidecarMtls));
        Path dir = GOLDEN.resolve(c.id() + (sidecarMtls ? "-sidecar-mtls" : "-plain"));
        if (proxy.kind() == ComponentKind.SNI_PROXY) {
            check(dir.resolve(component + ".nginx.conf"),
                    NginxConfigRenderer.render(plan, proxy, addrs, EnvoyFixtures.FIXED_WORK_DIR, 2, Optional.of(EnvoyFixtures.FIXED_STREAM_MODULE)));
            return;
        }
        MeshFiles files = EnvoyFixtures.fixedMeshFiles(plan);
        check(dir.resolve(component + ".bootstrap.yaml"), EnvoyConfigs.bootstrap(proxy, addrs, EnvoyFixtures.fixedXdsDir(proxy)));
        check(dir.resolve(component + ".lds.yaml"), EnvoyConfigs.listenersDocument(plan, proxy, addrs, files, c.id()));
        check(dir.resolve(component + ".cds.yaml"), EnvoyConfigs.clustersDocument(plan, proxy, addrs, files, c.id()));
    }

    private static void check(Path golden, String text) throws IOException {
        if (Boolean.getBoolean("meshbench.regenerateGolden")) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, text, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), text, "rendered " + golden + " differs");
    }

    @Test
    @DisplayName("every golden file is one the test renders (no stale golden left behind)")
    void noStaleGoldenFiles() throws IOException {
        java.util.Set<String> expected = new java.util.TreeSet<>();
        everyProxyOfEveryCase().forEach(a -> {
            Object[] args = a.get();
            EgressCase c = (EgressCase) args[0];
            String dir = c.id() + ((Boolean) args[1] ? "-sidecar-mtls" : "-plain");
            String name = (String) args[2];
            if (name.equals(dev.meshbench.model.ComponentNames.SNI_PROXY)) {
                expected.add(dir + "/" + name + ".nginx.conf");
            } else {
                for (String kind : List.of("bootstrap", "lds", "cds")) {
                    expected.add(dir + "/" + name + "." + kind + ".yaml");
                }
            }
        });
        java.util.Set<String> present = new java.util.TreeSet<>();
        try (Stream<Path> files = Files.walk(GOLDEN)) {
            files.filter(Files::isRegularFile).forEach(f -> present.add(GOLDEN.relativize(f).toString().replace('\\', '/')));
        }
        assertEquals(expected, present);
    }

    @Test
    @DisplayName("rendering the same plan twice gives the same bytes")
    void deterministic() {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        MeshFiles files = EnvoyFixtures.fixedMeshFiles(plan);
        for (ComponentPlan p : plan.ofKind(ComponentKind.SIDECAR)) {
            assertEquals(EnvoyBootstrapRenderer.render(plan, p, addrs, files), EnvoyBootstrapRenderer.render(plan, p, addrs, files));
            assertEquals(EnvoyConfigs.listenersDocument(plan, p, addrs, files, "v"), EnvoyConfigs.listenersDocument(plan, p, addrs, files, "v"));
            assertEquals(EnvoyConfigs.clustersDocument(plan, p, addrs, files, "v"), EnvoyConfigs.clustersDocument(plan, p, addrs, files, "v"));
        }
    }
}
