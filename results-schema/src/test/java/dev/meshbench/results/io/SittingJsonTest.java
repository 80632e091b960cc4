package dev.meshbench.results.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.MeasurementInfo;
import dev.meshbench.results.RunInputs;
import dev.meshbench.results.SittingInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's place in its sitting is written and read back unchanged (schema 7). */
class SittingJsonTest {
    @Test
    @DisplayName("a sitting with what its switch changed reads back unchanged; the method's test is no field of the file")
    void roundTrip(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("run.json");
        SittingInfo sitting = new SittingInfo("20261129-101500-sitting", SittingInfo.SWITCHED, List.of("bypass", "sni"), 2,
                4, 2.4, List.of("started egress-gateway", "started sni-proxy"), "services re-pointed straight at MongoDB");
        RunInputs inputs = ResultsJsonTest.starting().withMeasurement(MeasurementInfo.DEFAULT.withRun(2, 3, java.util.Map.of())
                .withSitting(sitting));
        ResultsJson.writeRunInputs(file, inputs);
        String json = Files.readString(file);
        assertTrue(json.replaceAll("\\s+", " ").contains("\"switched\" : [ \"started egress-gateway\", \"started sni-proxy\" ]"),
                json);
        assertFalse(json.contains("\"switched\" : true"), json);
        assertEquals(inputs, ResultsJson.readRunInputs(file));
        assertEquals(sitting, ResultsJson.readRunInputs(file).measurement().sitting());
    }
}
