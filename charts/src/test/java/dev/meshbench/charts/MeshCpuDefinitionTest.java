package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.samples.SampleRunGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's definition of mesh CPU is what its figure adds up: every kind of component the converter counts as
 * {@link ComponentRole#MESH} on a run named as the orchestrator names its components ({@link SampleRunGenerator}),
 * the ingress gateway included, is named by {@link ComponentRole#definition()}, which the method section prints.
 */
class MeshCpuDefinitionTest {
    @Test
    @DisplayName("the method section's mesh CPU names every kind of component the mesh CPU figure adds up, the ingress gateway included")
    void methodTextNamesEveryMeshComponent(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results");
        SampleRunGenerator.write(results.resolve("sni-1"), SampleRunGenerator.model("sni", DataPlaneInfo.NETTY), 1);
        ReportGenerator.generate(results, dir.resolve("report"), 20, ConversionMode.MISSING, Instant.EPOCH);

        RunResults run = ResultsJson.readResults(results.resolve("sni-1/results.json"));
        Set<String> summed = run.steps().stream().flatMap(s -> s.cpu().components().stream())
                .filter(c -> c.role() == ComponentRole.MESH).map(c -> ComponentRole.kindOf(c.component()))
                .collect(Collectors.toSet());
        assertTrue(summed.contains(ComponentNames.INGRESS_GATEWAY), "the sample run has an ingress gateway: " + summed);
        assertEquals(Set.copyOf(ComponentRole.MESH.kinds()), summed, "kinds the mesh CPU adds up vs kinds its definition names");

        String html = Files.readString(dir.resolve("report/index.html"));
        String method = html.substring(html.indexOf("id=\"method\""));
        assertTrue(method.contains("Mesh = ingress gateway + sidecars + egress gateway + SNI proxy;"), method);
        assertTrue(method.contains("app = customer + flight + auth + booking."), method);
    }
}
