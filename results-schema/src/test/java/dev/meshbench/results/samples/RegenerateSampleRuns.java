package dev.meshbench.results.samples;

import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.smp.SmpExporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Rewrites the committed sample runs and golden files. Off by default; run it after a deliberate change of the
 * generator or the schema, then review the diff before committing:
 * {@code mvn -pl results-schema test -Dtest=RegenerateSampleRunsTest -Dmeshbench.regenerate=true}.
 *
 * <p>Netty: every case, bypass and sni three times. Envoy: bypass once, sni twice ({@code <case>-envoy-<n>}).
 * The first run of each case and data plane is a golden run of this module (Envoy: {@code sni-envoy-1} only);
 * all of them go to the charts module. Kubernetes: sni on envoy once ({@code sni-k8s-1}, with
 * {@link SampleRunGenerator#CLUSTER}), a golden run of this module only. The version 1 run {@code mtls-v1} is kept
 * by hand (this build writes the current version only); only its golden results are rewritten. The SMP export of
 * {@link #SMP_GOLDEN_RUNS} is rewritten too ({@code smp.golden.json}).
 */
@EnabledIfSystemProperty(named = "meshbench.regenerate", matches = "true")
class RegenerateSampleRunsTest {
    static final Path RUNS = Path.of("src/test/resources/runs");
    static final Path CHARTS_RESULTS = Path.of("../charts/src/test/resources/results");
    static final List<String> GOLDEN_RUNS = List.of("bypass-1", "sidecar-1", "gateway-1", "mtls-1", "sni-1",
            "sni-envoy-1", "sni-k8s-1");
    static final List<String> SMP_GOLDEN_RUNS = List.of("sni-1", "sni-k8s-1");

    @Test
    @DisplayName("regenerates the sample runs, the golden results, the SMP golden exports and the charts module's results")
    void regenerate() throws IOException {
        for (SampleRunGenerator.CaseModel model : SampleRunGenerator.cases()) {
            int repeats = model.caseId().equals("bypass") || model.caseId().equals("sni") ? 3 : 1;
            generate(model, "", repeats);
        }
        for (SampleRunGenerator.CaseModel model : SampleRunGenerator.envoyCases()) {
            generate(model, "-envoy", model.caseId().equals("sni") ? 2 : 1);
        }
        Path k8s = RUNS.resolve("sni-k8s-1");
        SampleRunGenerator.write(k8s, SampleRunGenerator.model("sni", DataPlaneInfo.ENVOY), 1,
                SampleRunGenerator.CLUSTER);
        Files.writeString(k8s.resolve("results.golden.json"), ResultsJson.toJson(ResultsConverter.compute(k8s)));
        Path v1 = RUNS.resolve("mtls-v1");
        Files.writeString(v1.resolve("results.golden.json"), ResultsJson.toJson(ResultsConverter.compute(v1)));
        for (String run : SMP_GOLDEN_RUNS) {
            Path dir = RUNS.resolve(run);
            Files.writeString(dir.resolve("smp.golden.json"), SmpExporter.toJson(ResultsConverter.compute(dir)));
        }
    }

    private static void generate(SampleRunGenerator.CaseModel model, String suffix, int repeats) throws IOException {
        for (int repeat = 1; repeat <= repeats; repeat++) {
            String runId = model.caseId() + suffix + "-" + repeat;
            boolean golden = GOLDEN_RUNS.contains(runId);
            Path dir = golden ? RUNS.resolve(runId) : Files.createTempDirectory(runId).resolve(runId);
            SampleRunGenerator.write(dir, model, repeat);
            String json = ResultsJson.toJson(ResultsConverter.compute(dir));
            if (golden) {
                Files.writeString(dir.resolve("results.golden.json"), json);
            }
            Path chartsRun = CHARTS_RESULTS.resolve(runId);
            Files.createDirectories(chartsRun);
            Files.writeString(chartsRun.resolve("results.json"), json);
        }
    }
}
