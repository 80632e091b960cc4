package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.samples.SampleRunGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResultsConverterGoldenTest {
    static final Path RUNS = Path.of("src/test/resources/runs");
    static final List<String> LOCALES = List.of("en-US", "ru-RU", "de-DE", "fr-FR", "ar-EG", "hi-IN-u-nu-deva");

    static Stream<Arguments> casesAndLocales() {
        List<Arguments> all = new ArrayList<>();
        for (String c : ResultsSchema.KNOWN_CASES) {
            for (String l : LOCALES) {
                all.add(Arguments.of(c + "-1", l));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("casesAndLocales")
    @DisplayName("converts each sample run to exactly its golden results.json, whatever the default locale")
    void matchesGoldenUnderLocale(String run, String locale) throws IOException {
        Path dir = RUNS.resolve(run);
        String json = WithLocale.call(Locale.forLanguageTag(locale), () ->
                ResultsJson.toJson(ResultsConverter.compute(dir)));
        assertEquals(Files.readString(dir.resolve("results.golden.json")), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bypass-1", "sidecar-1", "gateway-1", "mtls-1", "sni-1"})
    @DisplayName("reads and rewrites each committed run.json byte for byte")
    void runJsonRoundTrips(String run) throws IOException {
        Path file = RUNS.resolve(run).resolve("run.json");
        assertEquals(Files.readString(file), ResultsJson.toJson(ResultsJson.readRunInputs(file)));
    }

    @Test
    @DisplayName("writes results.json into the run folder and reads back the same results")
    void convertWritesResultsFile(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("sni-1");
        Files.createDirectories(dir);
        for (String f : List.of("run.json", "samples.jtl", "cpu-samples.csv")) {
            Files.copy(RUNS.resolve("sni-1").resolve(f), dir.resolve(f));
        }
        RunResults written = ResultsConverter.convert(dir);
        assertEquals(written, ResultsJson.readResults(dir.resolve("results.json")));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(4, files.count(), "no temporary file is left behind");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bypass", "sidecar", "gateway", "mtls", "sni"})
    @DisplayName("recovers the generator's mesh and app CPU per transaction within 15%")
    void cpuPerTransactionMatchesModel(String caseId) throws IOException {
        SampleRunGenerator.CaseModel model = SampleRunGenerator.model(caseId);
        RunResults r = ResultsConverter.compute(RUNS.resolve(caseId + "-1"));
        StepResult s = r.step(20).orElseThrow();
        double tps = s.throughputPerSecond();
        double mesh = expected(model, "mesh", tps);
        double app = expected(model, "app", tps);
        assertEquals(mesh, s.cpu().mesh().cpuMsPerTransaction(), mesh * 0.15, "mesh CPU ms per transaction");
        assertEquals(app, s.cpu().app().cpuMsPerTransaction(), app * 0.15, "app CPU ms per transaction");
    }

    @Test
    @DisplayName("shows the study's ordering: sni costs clearly more mesh CPU per transaction than bypass")
    void sniCostsMoreThanBypass() throws IOException {
        double bypass = ResultsConverter.compute(RUNS.resolve("bypass-1")).step(20).orElseThrow()
                .cpu().mesh().cpuMsPerTransaction();
        double sni = ResultsConverter.compute(RUNS.resolve("sni-1")).step(20).orElseThrow()
                .cpu().mesh().cpuMsPerTransaction();
        assertTrue(sni > 2 * bypass, "sni " + sni + " vs bypass " + bypass);
    }

    private static double expected(SampleRunGenerator.CaseModel model, String role, double tps) {
        return model.components().stream().filter(c -> c.role().equals(role))
                .mapToDouble(c -> c.msPerTx() + c.idleMsPerSecond() / tps).sum();
    }
}
