package dev.meshbench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.DataPlaneInfo;
import dev.meshbench.results.samples.SampleRunGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's CPU table lists components in the order traffic meets them, on a run whose components are named by
 * the orchestrator's naming code ({@link ComponentNames}, through {@link SampleRunGenerator}): a raw run folder
 * (run.json, samples.jtl, cpu-samples.csv) converted by the report itself, as after a real run.
 */
class ComponentOrderTest {
    @Test
    @DisplayName("the CPU table lists the ingress gateway, the sidecars, then the egress gateway, then the SNI proxy, "
            + "then the app and MongoDB")
    void trafficOrderOnProductionNames(@TempDir Path dir) throws IOException {
        Path results = dir.resolve("results");
        SampleRunGenerator.write(results.resolve("sni-1"), SampleRunGenerator.model("sni", DataPlaneInfo.NETTY), 1);
        ReportGenerator.generate(results, dir.resolve("report"), 20, ConversionMode.MISSING, Instant.EPOCH);
        String html = Files.readString(dir.resolve("report/index.html"));

        List<String> sidecars = ComponentNames.SERVICES.stream().map(ComponentNames::sidecarOf)
                .sorted(Comparator.naturalOrder()).toList();
        List<String> expected = new ArrayList<>();
        expected.add(ComponentNames.INGRESS_GATEWAY);
        expected.addAll(sidecars);
        expected.add(ComponentNames.EGRESS_GATEWAY);
        expected.add(ComponentNames.SNI_PROXY);
        ComponentNames.SERVICES.stream().sorted().forEach(expected::add);
        expected.add(ComponentNames.MONGO);

        int table = html.indexOf("CPU per transaction by component");
        assertTrue(table >= 0, "the report has the component CPU table");
        List<String> shown = new ArrayList<>(expected);
        shown.sort(Comparator.comparingInt(name -> position(html, table, name)));
        assertEquals(expected, shown, "rows of the component CPU table, top to bottom");
    }

    @Test
    @DisplayName("traffic order puts the ingress gateway first, then sidecar-<service> whatever the service is called")
    void comparatorOnNames() {
        List<String> names = new ArrayList<>(List.of(ComponentNames.SNI_PROXY, "sidecar-zeta",
                ComponentNames.EGRESS_GATEWAY, ComponentNames.sidecarOf("auth"), "other", ComponentNames.INGRESS_GATEWAY));
        names.sort(ComponentNames.trafficOrder());
        assertEquals(List.of(ComponentNames.INGRESS_GATEWAY, "sidecar-auth", "sidecar-zeta", ComponentNames.EGRESS_GATEWAY,
                ComponentNames.SNI_PROXY, "other"), names);
    }

    /** Where the table cell naming {@code component} starts, after {@code from}. */
    private static int position(String html, int from, String component) {
        int at = html.indexOf(">" + component + "</td>", from);
        assertTrue(at >= 0, component + " has a row in the component CPU table");
        return at;
    }
}
