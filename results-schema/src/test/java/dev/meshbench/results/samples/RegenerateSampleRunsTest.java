package dev.meshbench.results.samples;

import dev.meshbench.results.convert.ResultsConverter;
import dev.meshbench.results.io.ResultsJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Rewrites the committed sample runs and golden files. Off by default; run it after a deliberate change of the
 * generator or the schema, then review the diff before committing:
 * {@code mvn -pl results-schema test -Dtest=RegenerateSampleRunsTest -Dmeshbench.regenerate=true}.
 */
@EnabledIfSystemProperty(named = "meshbench.regenerate", matches = "true")
class RegenerateSampleRunsTest {
    static final Path RUNS = Path.of("src/test/resources/runs");
    static final Path CHARTS_RESULTS = Path.of("../charts/src/test/resources/results");

    @Test
    @DisplayName("regenerates the sample runs, the golden results and the charts module's results")
    void regenerate() throws IOException {
        for (SampleRunGenerator.CaseModel model : SampleRunGenerator.cases()) {
            int repeats = model.caseId().equals("bypass") || model.caseId().equals("sni") ? 3 : 1;
            for (int repeat = 1; repeat <= repeats; repeat++) {
                String runId = model.caseId() + "-" + repeat;
                Path dir = repeat == 1 ? RUNS.resolve(runId) : Files.createTempDirectory(runId).resolve(runId);
                SampleRunGenerator.write(dir, model, repeat);
                String json = ResultsJson.toJson(ResultsConverter.compute(dir));
                if (repeat == 1) {
                    Files.writeString(dir.resolve("results.golden.json"), json);
                }
                Path chartsRun = CHARTS_RESULTS.resolve(runId);
                Files.createDirectories(chartsRun);
                Files.writeString(chartsRun.resolve("results.json"), json);
            }
        }
    }
}
