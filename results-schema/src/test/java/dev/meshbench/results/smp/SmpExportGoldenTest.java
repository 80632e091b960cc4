package dev.meshbench.results.smp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.meshbench.results.convert.ResultsConverter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The SMP export of two sample runs, frozen: {@code sni-1} (local, netty) and {@code sni-k8s-1} (Kubernetes, envoy,
 * a cluster). {@code RegenerateSampleRuns} rewrites the golden files with the runs.
 */
class SmpExportGoldenTest {
    static final Path RUNS = Path.of("src/test/resources/runs");

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource({"sni-1, en-US", "sni-1, ru-RU", "sni-1, ar-EG", "sni-k8s-1, en-US", "sni-k8s-1, de-DE",
            "sni-k8s-1, hi-IN-u-nu-deva"})
    @DisplayName("exports each golden sample run to exactly its smp.golden.json, whatever the default locale")
    void matchesGolden(String run, String locale) throws IOException {
        Path dir = RUNS.resolve(run);
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag(locale));
        try {
            assertEquals(Files.readString(dir.resolve("smp.golden.json")),
                    SmpExporter.toJson(ResultsConverter.compute(dir)));
        } finally {
            Locale.setDefault(before);
        }
    }
}
