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
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Envoy bootstrap (each sidecar and the egress gateway) of every case, with sidecar mTLS on and off, and the
 * SNI proxy's nginx.conf, against golden files under {@code src/test/resources/envoy-golden/<case>-sidecar-mtls|plain/},
 * rendered with fixed ports (listeners from 20001, admin from 21001) and fixed certificate paths. After a
 * deliberate change, rewrite them with
 * {@code mvn -B -pl orchestrator -am test -Dtest=EnvoyGoldenTest -Dsurefire.failIfNoSpecifiedTests=false -Dmeshbench.regenerateGolden=true} and review the diff.
 */
class EnvoyGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/envoy-golden");

    static Stream<Arguments> everyProxyOfEveryCase() {
        return Stream.of(EgressCase.values()).flatMap(c -> Stream.of(true, false).flatMap(mtls ->
                EnvoyFixtures.plan(c, mtls).components().stream().filter(p -> p.kind().isProxy()).map(p -> Arguments.of(c, mtls, p.name()))));
    }

    @ParameterizedTest(name = "case {0}, sidecar mTLS {1}: {2} matches its golden file")
    @MethodSource("everyProxyOfEveryCase")
    void proxyConfigMatchesGolden(EgressCase c, boolean sidecarMtls, String component) throws IOException {
        TopologyPlan plan = EnvoyFixtures.plan(c, sidecarMtls);
        ComponentPlan proxy = plan.component(component);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        String text;
        String file;
        if (proxy.kind() == ComponentKind.SNI_PROXY) {
            text = NginxConfigRenderer.render(plan, proxy, addrs, EnvoyFixtures.FIXED_WORK_DIR, 2, Optional.of(EnvoyFixtures.FIXED_STREAM_MODULE));
            file = component + ".nginx.conf";
        } else {
            MeshFiles files = EnvoyFixtures.fixedMeshFiles(plan);
            text = EnvoyBootstrapRenderer.render(plan, proxy, addrs, files);
            file = component + ".envoy.yaml";
        }
        Path golden = GOLDEN.resolve(c.id() + (sidecarMtls ? "-sidecar-mtls" : "-plain")).resolve(file);
        if (Boolean.getBoolean("meshbench.regenerateGolden")) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, text, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), text, "rendered " + golden + " differs");
    }

    @Test
    @DisplayName("rendering the same plan twice gives the same bytes")
    void deterministic() {
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.SNI, true);
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        MeshFiles files = EnvoyFixtures.fixedMeshFiles(plan);
        for (ComponentPlan p : plan.ofKind(ComponentKind.SIDECAR)) {
            assertEquals(EnvoyBootstrapRenderer.render(plan, p, addrs, files), EnvoyBootstrapRenderer.render(plan, p, addrs, files));
        }
    }
}
