package dev.meshbench.charts.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.load.ConversionMode;
import dev.meshbench.charts.load.LoadedRun;
import dev.meshbench.charts.load.ResultsDirectoryReader;
import dev.meshbench.charts.study.PublishedFigures;
import dev.meshbench.results.ComponentCpu;
import dev.meshbench.model.ComponentNames;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.RunResults;
import dev.meshbench.results.StepResult;
import dev.meshbench.results.io.ResultsJson;
import dev.meshbench.results.stats.Comparison;
import dev.meshbench.results.stats.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTablesTest {
    private static final Path RESULTS = Path.of("src/test/resources/results");
    private static final String NETTY = "netty (JDK TLS)";
    private static final String NETTY_V1 = "netty (JDK TLS, no sidecar mTLS, no ingress) \u00b7 roundtrip mix, no flight cache, sync rewards";

    private static ReportModel model;
    private static ReportTables tables;

    @BeforeAll
    static void read() throws IOException {
        model = ReportModel.of(ResultsDirectoryReader.read(RESULTS, ConversionMode.NONE), 20);
        tables = ReportTables.of(model);
    }

    @Test
    @DisplayName("comparison lines: bypass is each data plane's baseline, a plane without one says so, planes are marked where they start")
    void comparisonLines() {
        assertEquals(model.comparison().size(), tables.comparison().size());
        for (ReportTables.ComparisonLine l : tables.comparison()) {
            assertEquals(l.row().caseId(), l.summary().caseId());
            assertEquals(l.row().dataPlane(), l.summary().dataPlane());
            ReportTables.Baseline expected = l.row().caseId().equals(ResultsSchema.BASELINE_CASE)
                    ? ReportTables.Baseline.IS_BASELINE
                    : l.row().dataPlane().equals(NETTY_V1) ? ReportTables.Baseline.MISSING : ReportTables.Baseline.PRESENT;
            assertEquals(expected, l.baseline(), l.row().caseId() + " on " + l.row().dataPlane());
            if (l.baseline() != ReportTables.Baseline.PRESENT) {
                assertEquals(List.of("", "", ""), List.of(l.throughputInterval(), l.p99Interval(), l.meshCpuInterval()));
            }
            assertEquals(l.summary().errors(20), l.errors());
        }
        assertEquals(model.dataPlanes().size() - 1, tables.comparison().stream()
                .filter(ReportTables.ComparisonLine::firstOfPlane).count());
        assertFalse(tables.comparison().get(0).firstOfPlane(), "the first plane is not marked");
    }

    @Test
    @DisplayName("the throughput change's interval is Welch's over the runs at the compared clients; one run gives none")
    void intervals() throws IOException {
        List<Double> bypass = new ArrayList<>();
        List<Double> sni = new ArrayList<>();
        for (LoadedRun r : model.loaded().runs()) {
            if (r.dataPlaneLabel().equals(NETTY) && r.caseId().equals("bypass")) {
                bypass.add(r.results().step(20).orElseThrow().throughputPerSecond());
            } else if (r.dataPlaneLabel().equals(NETTY) && r.caseId().equals("sni")) {
                sni.add(r.results().step(20).orElseThrow().throughputPerSecond());
            }
        }
        Comparison cmp = new Comparison(new Sample(bypass), new Sample(sni));
        String expected = String.format(Locale.ROOT, "%+.1f \u00b1 %.1f %%, %s", cmp.changePercent(),
                cmp.changeHalfWidthPercent(), cmp.verdict() == Comparison.Verdict.SIGNIFICANT ? "significant" : "within noise");
        assertEquals(expected, line("sni", NETTY).throughputInterval());
        assertEquals("one run: no interval", line("sni", "envoy").throughputInterval(), "bypass on envoy ran once");
        assertEquals("one run: no interval", line("gateway", NETTY).throughputInterval(), "gateway ran once");
    }

    @Test
    @DisplayName("CPU by component: one column per case, each role's components together and ending in the role's total")
    void components() {
        ReportTables.ComponentTable c = tables.components();
        assertEquals(model.cases(), c.columns());
        List<ComponentRole> seen = new ArrayList<>();
        ComponentRole current = null;
        for (ReportTables.ComponentLine l : c.lines()) {
            assertEquals(c.columns().size(), l.values().size());
            if (current == null) {
                current = l.role();
                assertFalse(seen.contains(current), "role " + current + " appears in one block");
                seen.add(current);
            }
            assertEquals(current, l.role(), "a role's lines are together");
            if (l.total()) {
                for (int i = 0; i < c.columns().size(); i++) {
                    assertEquals(c.columns().get(i).cpuPerTransaction(20, l.role()), l.values().get(i));
                }
                current = null;
            }
        }
        assertNull(current, "the last role ends in its total");
        assertEquals(List.of(ComponentRole.values()).stream().filter(seen::contains).toList(), seen,
                "roles in their order");
        // a component's value: the spread of its per-run values at 20 clients
        int bypassNetty = model.cases().indexOf(model.baseline(NETTY));
        ReportTables.ComponentLine sidecar = c.lines().stream().filter(l -> ComponentNames.sidecarOf("auth").equals(l.component()))
                .findFirst().orElseThrow();
        List<Double> perRun = model.baseline(NETTY).runs().stream().map(r -> r.results().step(20).orElseThrow())
                .map(StepResult::cpu).flatMap(cpu -> cpu.components().stream())
                .filter(cc -> cc.component().equals(ComponentNames.sidecarOf("auth"))).map(ComponentCpu::cpuMsPerTransaction)
                .filter(Objects::nonNull).toList();
        assertEquals(Spread.of(perRun), sidecar.values().get(bypassNetty));
    }

    @Test
    @DisplayName("data planes: versions per component kind in traffic order, workers, how the load came in, TLS provider "
            + "and the runs that used it")
    void dataPlanes() {
        ReportTables.DataPlaneLine envoy = tables.dataPlanes().stream().filter(p -> p.label().equals("envoy"))
                .findFirst().orElseThrow();
        assertEquals(new ReportTables.DataPlaneLine("envoy", List.of("sidecar: envoy 1.40.0",
                "egress-gateway: envoy 1.40.0", "sni-proxy: nginx 1.22.1"), "2", true, "through the ingress gateway", "BoringSSL",
                List.of("bypass-envoy-1", "sni-envoy-1", "sni-envoy-2")), envoy);
        ReportTables.DataPlaneLine v1 = tables.dataPlanes().stream().filter(p -> p.label().equals(NETTY_V1))
                .findFirst().orElseThrow();
        assertEquals(new ReportTables.DataPlaneLine(NETTY_V1, List.of(), "not recorded", false, "straight to the sidecars", "JDK",
                List.of("mtls-v1")), v1);
        assertEquals(model.dataPlanes(), tables.dataPlanes().stream().map(ReportTables.DataPlaneLine::label).toList());
        assertEquals(List.of("through the ingress gateway", "straight to the sidecars"), tables.entries(),
                "the runs of version 5 came through the ingress gateway, the version 1 run straight to the sidecars");
    }

    @Test
    @DisplayName("inputs: shared ones once, varying ones per run in report order, files relative to the results folder")
    void inputs() {
        assertTrue(tables.shared().contains(new ReportTables.InputValue("JMeter", "5.6.3")), tables.shared().toString());
        assertTrue(tables.shared().contains(new ReportTables.InputValue("client steps", "1, 5, 10, 20, 30")),
                tables.shared().toString());
        assertTrue(tables.varying().contains("data plane"), tables.varying().toString());
        assertTrue(tables.shared().stream().noneMatch(i -> tables.varying().contains(i.header())));
        List<String> order = model.cases().stream().flatMap(c -> c.runs().stream()).map(LoadedRun::runId).toList();
        assertEquals(order, tables.runs().stream().map(r -> r.run().runId()).toList());
        for (ReportTables.RunLine r : tables.runs()) {
            assertEquals(tables.varying().size(), r.varying().size());
            assertEquals(r.run().runId() + "/results.json", r.file());
            assertTrue(r.summary().runs().contains(r.run()));
        }
        assertEquals(List.of("local"), tables.targets());
    }

    @Test
    @DisplayName("steps: every step of every run in report order, the first of each run marked")
    void steps() {
        int steps = model.loaded().runs().stream().mapToInt(r -> r.results().steps().size()).sum();
        assertEquals(steps, tables.steps().size());
        assertEquals(model.loaded().runs().size(), tables.steps().stream().filter(ReportTables.StepLine::firstStep)
                .count());
        assertEquals(tables.runs().stream().map(r -> r.run().runId()).toList(), tables.steps().stream()
                .map(s -> s.run().runId()).distinct().toList());
    }

    @Test
    @DisplayName("skipped files relative to the folder with their reason, and the runs' notes in order")
    void skippedAndNotes(@TempDir Path tmp) throws IOException {
        try (Stream<Path> files = Files.walk(RESULTS.resolve("bypass-1"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path to = tmp.resolve("bypass-1").resolve(RESULTS.resolve("bypass-1").relativize(f));
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }
        Path json = tmp.resolve("bypass-1/results.json");
        RunResults r = ResultsJson.readResults(json);
        ResultsJson.writeResults(json, new RunResults(r.schemaVersion(), r.inputs(), r.conversion(), r.steps(),
                List.of("first note", "second note")));
        Files.createDirectories(tmp.resolve("broken"));
        Files.writeString(tmp.resolve("broken/results.json"), "{");
        ReportModel m = ReportModel.of(ResultsDirectoryReader.read(tmp, ConversionMode.NONE), 20);
        ReportTables t = ReportTables.of(m, PublishedFigures.load().egress());
        assertEquals(1, t.skipped().size());
        assertEquals("broken/results.json", t.skipped().get(0).file());
        assertEquals(m.loaded().skipped().get(0).reason(), t.skipped().get(0).reason());
        assertEquals(List.of(new ReportTables.NoteLine("bypass-1", "first note"),
                new ReportTables.NoteLine("bypass-1", "second note")), t.notes());
        assertEquals(List.of(), t.comparison().stream().filter(l -> l.baseline() != ReportTables.Baseline.IS_BASELINE)
                .toList());
    }

    private static ReportTables.ComparisonLine line(String caseId, String dataPlane) {
        return tables.comparison().stream().filter(l -> l.row().caseId().equals(caseId)
                && l.row().dataPlane().equals(dataPlane)).findFirst().orElseThrow();
    }
}
