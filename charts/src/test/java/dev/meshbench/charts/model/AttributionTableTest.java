package dev.meshbench.charts.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.results.MeshPart;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.stats.Comparison;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "Where the cost differs" on {@link AttributedSitting}, every expected value worked out by hand from its table. */
class AttributionTableTest {

    private static AttributionTable table(Path dir, int repeats) throws IOException {
        AttributedSitting.write(dir, repeats);
        return AttributionTable.of(ReportModel.of(ResultsDirectoryReader.read(dir, ConversionMode.NONE), 20));
    }

    private static AttributionTable.Line line(AttributionTable t, String caseId) {
        return t.lines().stream().filter(l -> l.summary().caseId().equals(caseId)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("cases in the kit's order, each part's mean over the repeats, the MongoDB path apart from the shared parts")
    void meansByHand(@TempDir Path dir) throws IOException {
        AttributionTable t = table(dir, 2);
        assertEquals(List.of("bypass", "mtls", "sni"), t.lines().stream().map(l -> l.summary().caseId()).toList());
        AttributionTable.Line sni = line(t, "sni");
        // ms per transaction = ms / 1000
        assertEquals(0.091, sni.parts().get(MeshPart.EGRESS_GATEWAY).value().mean(), 1e-12, "(92 + 90) / 2");
        assertEquals(0.052, sni.parts().get(MeshPart.SNI_PROXY).value().mean(), 1e-12, "(50 + 54) / 2");
        assertEquals(0.120, sni.parts().get(MeshPart.SIDECARS_MONGO).value().mean(), 1e-12, "0.2 x (610 + 590) / 2");
        assertEquals(0.305, sni.parts().get(MeshPart.INGRESS_GATEWAY).value().mean(), 1e-12, "(300 + 310) / 2");
        assertEquals(0.480, sni.parts().get(MeshPart.SIDECARS_HTTP).value().mean(), 1e-12, "0.8 x (610 + 590) / 2");
        assertEquals(0.263, sni.mongoPath().value().mean(), 1e-12, "(0.264 + 0.262) / 2");
        assertEquals(0.785, sni.shared().value().mean(), 1e-12, "(0.788 + 0.782) / 2");
        assertEquals(0.214, line(t, "mtls").mongoPath().value().mean(), 1e-12, "(0.210 + 0.218) / 2");
        AttributionTable.Line bypass = line(t, "bypass");
        assertEquals(0.0, bypass.mongoPath().value().mean(), "no mesh on bypass's MongoDB path");
        assertNull(bypass.mongoPath().change(), "bypass is the baseline");
        assertEquals(ReportTables.Baseline.IS_BASELINE, bypass.baseline());
        // the point of the table: the totals misrank these two, the MongoDB path does not
        assertTrue(sni.mongoPath().value().mean() > line(t, "mtls").mongoPath().value().mean());
    }

    @Test
    @DisplayName("changes against bypass by Welch's t: mtls +0.214 ± 0.0508 ms/tx = +24.6 ± 5.8 points, sni +30.2 ± 1.5 points")
    void changesByHand(@TempDir Path dir) throws IOException {
        AttributionTable t = table(dir, 2);
        // mtls' MongoDB path {0.210, 0.218} against bypass {0, 0}: s² = 2 · 0.004² / 1 = 0.000032, se = √(0.000032 / 2)
        // = 0.004, df = 1 (bypass has no spread), t(0.975, 1) = 12.7062: 0.214 ± 0.050825. Bypass's mesh CPU is
        // (0.850 + 0.890) / 2 = 0.870 ms/tx: 0.214 / 0.870 = 24.598 points, 0.050825 / 0.870 = 5.842
        AttributionTable.Line mtls = line(t, "mtls");
        assertEquals(0.214, mtls.mongoPath().change().estimate(), 1e-12);
        assertEquals(0.050825, mtls.mongoPath().change().halfWidth(), 5e-6);
        assertEquals(24.598, mtls.mongoPathPoints().estimate(), 5e-4);
        assertEquals(5.842, mtls.mongoPathPoints().halfWidth(), 5e-4);
        assertEquals(Comparison.Verdict.SIGNIFICANT, mtls.mongoPath().verdict());
        // sni's {0.264, 0.262}: se = 0.001, 0.263 ± 0.012706; 30.230 ± 1.460 points
        AttributionTable.Line sni = line(t, "sni");
        assertEquals(30.230, sni.mongoPathPoints().estimate(), 5e-4);
        assertEquals(1.460, sni.mongoPathPoints().halfWidth(), 5e-4);
        // a shared part: mtls' ingress gateway {0.360, 0.340} against {0.350, 0.370}: -0.010; s² 0.0002 on both
        // sides, se = √(0.0001 + 0.0001) = 0.014142, df = 2, t(0.975, 2) = 4.3027: ± 0.060849, within noise
        AttributionTable.Figure ingress = mtls.parts().get(MeshPart.INGRESS_GATEWAY);
        assertEquals(-0.010, ingress.change().estimate(), 1e-12);
        assertEquals(0.060849, ingress.change().halfWidth(), 5e-6);
        assertEquals(Comparison.Verdict.WITHIN_NOISE, ingress.verdict());
        assertEquals("+30.2 \u00b1 1.5", AttributionTable.signed(sni.mongoPathPoints()));
    }

    @Test
    @DisplayName("noise floor: the shared parts' pooled relative SD 3.05%, detectable 13.1% with 2 runs, 10% needs 3 runs")
    void noiseFloorByHand(@TempDir Path dir) throws IOException {
        AttributionTable.Noise n = table(dir, 2).noise().get(0);
        // relative variances (s/m)², each with 1 degree of freedom:
        //   bypass ingress {0.350, 0.370}: 0.0002 / 0.36²  = 0.0015432   bypass HTTP {0.500, 0.520}: 0.0002 / 0.51²  = 0.0007689
        //   mtls ingress   {0.360, 0.340}: 0.0002 / 0.35²  = 0.0016327   mtls HTTP   {0.480, 0.496}: 0.000128 / 0.488² = 0.0005375
        //   sni ingress    {0.300, 0.310}: 0.00005 / 0.305² = 0.0005375  sni HTTP    {0.488, 0.472}: 0.000128 / 0.48²  = 0.0005556
        // pooled: √(0.0055754 / 6) = 0.030483
        assertEquals(0.030483, n.floor().relativeSd(), 5e-7);
        assertEquals(6, n.floor().degreesOfFreedom());
        assertEquals(2, n.repeats());
        assertEquals(6, n.runs());
        assertEquals(3, n.cases());
        // 2 runs per case: t(0.975, 2) · s · √(2/2) = 4.3027 · 0.030483 = 0.13116
        assertEquals(0.13116, n.detectableDifference(), 5e-5);
        // 10%: s²/d² = 0.092922; n = 2: 2 · (4.303 + 1.061)² · 0.0929 = 5.35 > 2; n = 3: 2 · (2.776 + 0.941)² · 0.0929
        // = 2.57 <= 3 -> 3. The normal formula alone: 15.698 · 0.0929 = 1.46 -> 2
        assertEquals(3, n.repeatsForSuggested());
        assertEquals(2, n.normalRepeatsForSuggested());
    }

    @Test
    @DisplayName("one run per case: figures, changes without intervals, and no noise floor")
    void oneRun(@TempDir Path dir) throws IOException {
        AttributionTable t = table(dir, 1);
        AttributionTable.Line sni = line(t, "sni");
        assertEquals(0.264, sni.mongoPath().value().mean(), 1e-12);
        assertFalse(sni.mongoPath().change().isKnown());
        assertEquals(Comparison.Verdict.UNKNOWN, sni.mongoPath().verdict());
        assertEquals(0.264 / 0.850 * 100, sni.mongoPathPoints().estimate(), 1e-9);
        AttributionTable.Noise n = t.noise().get(0);
        assertNull(n.floor());
        assertEquals(1, n.repeats());
        assertTrue(Double.isNaN(n.detectableDifference()));
    }

    @Test
    @DisplayName("a case whose runs have no attribution says why; the others are still compared")
    void absent(@TempDir Path dir) throws IOException {
        AttributedSitting.write(dir, 2);
        for (int i = 1; i <= 2; i++) {
            ResultsJson.writeResults(dir.resolve("mtls-" + i).resolve(ResultsSchema.RESULTS_FILE),
                    AttributedSitting.run("mtls-" + i, "mtls", AttributedSitting.RUNS.get("mtls").get(i - 1), false));
        }
        AttributionTable t = AttributionTable.of(ReportModel.of(ResultsDirectoryReader.read(dir, ConversionMode.NONE), 20));
        AttributionTable.Line mtls = line(t, "mtls");
        assertFalse(mtls.attributed());
        assertEquals("no " + ResultsSchema.COUNTERS_FILE, mtls.absent(), "the runs have no work counters at all");
        assertNull(mtls.mongoPath());
        assertTrue(line(t, "sni").attributed());
        assertEquals(4, t.noise().get(0).runs(), "the noise floor comes from the attributed runs");
        assertTrue(t.summary().get(0).contains("mtls n/a"), t.summary().toString());
        assertTrue(t.summary().get(0).contains("sni 0.263 ms/tx (+30.2 \u00b1 1.5 pts)"), t.summary().toString());
    }
}
