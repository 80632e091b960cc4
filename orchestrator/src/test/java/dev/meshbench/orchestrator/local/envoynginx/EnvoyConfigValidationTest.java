package dev.meshbench.orchestrator.local.envoynginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.model.EgressCase;
import dev.meshbench.orchestrator.local.LocalAddresses;
import dev.meshbench.orchestrator.local.MeshFiles;
import dev.meshbench.orchestrator.plan.ComponentKind;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real Envoy ({@code -Dmeshbench.envoy.binary} or {@code envoy} on PATH) accepts every rendered bootstrap, with
 * real certificate files ({@code envoy --mode validate} loads them). Skipped, with the reason, when there is no Envoy.
 */
class EnvoyConfigValidationTest {
    static Stream<Arguments> everyCaseWithAndWithoutSidecarMtls() {
        return Stream.of(EgressCase.values()).flatMap(c -> Stream.of(Arguments.of(c, true), Arguments.of(c, false)));
    }

    @ParameterizedTest(name = "case {0}, sidecar mTLS {1}: envoy --mode validate accepts every sidecar and gateway")
    @MethodSource("everyCaseWithAndWithoutSidecarMtls")
    void validates(EgressCase c, boolean sidecarMtls, @TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(c, sidecarMtls);
        MeshFiles files = EnvoyFixtures.realMeshFiles(plan, Files.createDirectories(dir.resolve("pki")));
        LocalAddresses addrs = EnvoyFixtures.fixedAddresses(plan);
        List<String> failures = new ArrayList<>();
        int validated = 0;
        for (ComponentPlan p : plan.components()) {
            if (p.kind() != ComponentKind.SIDECAR && p.kind() != ComponentKind.EGRESS_GATEWAY) {
                continue;
            }
            Path bootstrap = dir.resolve(p.name() + ".envoy.yaml");
            Files.writeString(bootstrap, EnvoyBootstrapRenderer.render(plan, p, addrs, files), StandardCharsets.UTF_8);
            List<String> cmd = new ArrayList<>(List.of(envoy.toString()));
            cmd.addAll(EnvoyCommand.validateArgs(bootstrap));
            EnvoyFixtures.Finished r = EnvoyFixtures.runToEnd(cmd, Duration.ofSeconds(60));
            if (r.exitCode() != 0) {
                failures.add(p.name() + ": exit " + r.exitCode() + ": " + r.output().strip());
            }
            validated++;
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertEquals(4 + (plan.ofKind(ComponentKind.EGRESS_GATEWAY).isEmpty() ? 0 : 1), validated);
    }

    @Test
    @DisplayName("envoy --mode validate rejects a bootstrap whose certificate files are missing (so the check above means something)")
    void validationLoadsCertificates(@TempDir Path dir) throws Exception {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        TopologyPlan plan = EnvoyFixtures.plan(EgressCase.MTLS, true);
        Path bootstrap = dir.resolve("egress-gateway.envoy.yaml");
        Files.writeString(bootstrap, EnvoyBootstrapRenderer.render(plan, plan.component("egress-gateway"), EnvoyFixtures.fixedAddresses(plan),
                EnvoyFixtures.fixedMeshFiles(plan)));
        List<String> cmd = new ArrayList<>(List.of(envoy.toString()));
        cmd.addAll(EnvoyCommand.validateArgs(bootstrap));
        EnvoyFixtures.Finished r = EnvoyFixtures.runToEnd(cmd, Duration.ofSeconds(60));
        assertFalse(r.exitCode() == 0, r.output());
        assertTrue(r.output().contains(EnvoyFixtures.FIXED_PKI.toString()), r.output());
    }

    @Test
    @DisplayName("the installed Envoy's version reads like 'envoy 1.40.0 (BoringSSL)'")
    void version() {
        Path envoy = EnvoyFixtures.envoyOrSkip();
        assertTrue(NativeBinaries.envoyVersion(envoy).matches("envoy \\d+\\.\\d+\\.\\d+\\S* \\(\\S+\\)"), NativeBinaries.envoyVersion(envoy));
    }
}
