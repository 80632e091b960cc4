package dev.meshbench.charts.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.charts.latency.CellId;
import dev.meshbench.charts.latency.GistRow;
import dev.meshbench.charts.latency.GistTable;
import dev.meshbench.charts.render.Numbers;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The READMEs and the pages under {@code docs/} (the dated sittings of {@code docs/measurements/} above all) quote the
 * studies' figures; these tests hold every quote to {@link PublishedFigures#RESOURCE}, so a figure changes in one
 * place and a quote cannot drift from it.
 */
class ReadmeFiguresTest {
    /** Tests run in the module's folder. */
    private static final Path ROOT = Path.of("..");
    private static final Path CHARTS_README = Path.of("README.md");

    private static final PublishedFigures FIGURES = PublishedFigures.load();

    @Test
    @DisplayName("every 'study' column of the README's and docs' tables quotes the egress study's throughput change per case")
    void studyColumns() throws IOException {
        int tables = 0;
        int cells = 0;
        for (Path doc : rootDocs()) {
            List<String> lines = Files.readAllLines(doc);
            String file = ROOT.relativize(doc).toString();
            for (int i = 0; i < lines.size(); i++) {
                List<String> header = cells(lines.get(i));
                int column = header.indexOf("study");
                if (column < 0) {
                    column = header.indexOf("study: throughput");
                }
                if (column < 0) {
                    continue;
                }
                tables++;
                for (int j = i + 2; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                    List<String> row = cells(lines.get(j));
                    String caseId = row.get(0);
                    String quoted = row.get(column);
                    var finding = FIGURES.egress().finding(caseId);
                    assertTrue(finding.isPresent(), file + " line " + (j + 1) + ": no published figure for case " + caseId);
                    BigDecimal published = finding.get().throughputChangePercent();
                    String where = file + " line " + (j + 1) + ", case " + caseId + ": study column \"" + quoted + "\"";
                    if (published == null) {
                        assertTrue(quoted.isEmpty() || quoted.equals("about 0"), where + ", the study published no figure");
                    } else if (published.signum() == 0) {
                        assertTrue(quoted.isEmpty() || quoted.equals("0"), where + ", the study's figure is 0");
                    } else {
                        assertEquals(percent(published), quoted.replace(" %", "%"), where);
                    }
                    cells++;
                }
            }
        }
        assertTrue(tables >= 3, "README.md and docs/ have their tables with a study column (found " + tables + ")");
        assertTrue(cells >= 13, "rows checked: " + cells);
    }

    @Test
    @DisplayName("the README's and docs' prose quotes the study's mtls and sni figures as the data file has them")
    void studyProse() throws IOException {
        StringBuilder docs = new StringBuilder();
        for (Path doc : rootDocs()) {
            docs.append(Files.readString(doc)).append('\n');
        }
        String readme = docs.toString().replaceAll("\\s+", " ");
        String mtls = percent(FIGURES.egress().finding("mtls").orElseThrow().throughputChangePercent());
        String sni = percent(FIGURES.egress().finding("sni").orElseThrow().throughputChangePercent());
        Matcher m = Pattern.compile("study's (-?\\d+)% (?:\\(mtls\\) )?and (-?\\d+)%").matcher(readme);
        int quotes = 0;
        while (m.find()) {
            assertEquals(List.of(mtls, sni), List.of(m.group(1) + "%", m.group(2) + "%"), m.group());
            quotes++;
        }
        assertTrue(quotes >= 2, "README.md and docs/ quote the study's mtls and sni figures (found " + quotes + ")");
        String charts = Files.readString(CHARTS_README).replaceAll("\\s+", " ");
        String sentence = "The study reports about " + mtls.replace("%", " %") + " throughput for `mtls` and "
                + sni.replace("%", " %") + " for `sni`.";
        assertTrue(charts.contains(sentence), "charts/README.md: " + sentence);
    }

    @Test
    @DisplayName("the gist's columns in charts/README.md's console example equal the data file's rows")
    void gistColumns() throws IOException {
        GistTable gist = GistTable.load();
        Pattern row = Pattern.compile("(single|double) +(\\d+) +(none|gateway) +(none|sidecar) +.*\\| +([\\d.]+) +"
                + "([\\d.]+) +(\\d+)\\b.*");
        List<String> checked = new ArrayList<>();
        for (String line : Files.readAllLines(CHARTS_README)) {
            Matcher m = row.matcher(line);
            if (!m.matches()) {
                continue;
            }
            CellId cell = CellId.parse(m.group(1) + "/" + m.group(2) + "/" + m.group(3) + "/" + m.group(4));
            GistRow published = gist.row(cell).orElseThrow(() -> new AssertionError("no gist row " + cell));
            assertEquals(Numbers.fixed(published.p99Ms(), 3), m.group(5), cell + " P99");
            assertEquals(Numbers.fixed(published.p50Ms(), 3), m.group(6), cell + " P50");
            assertEquals(Numbers.fixed(published.maxQps(), 0), m.group(7), cell + " MaxQPS");
            checked.add(cell.id());
        }
        assertFalse(checked.isEmpty(), "charts/README.md shows the console table");
    }

    /** The root README and every Markdown page under {@code docs/}, in a stable order. */
    static List<Path> rootDocs() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** The pipe table's cells of {@code line}, stripped; empty when it is not a table row. */
    private static List<String> cells(String line) {
        if (!line.startsWith("|")) {
            return List.of();
        }
        String[] parts = line.split("\\|", -1);
        List<String> cells = new ArrayList<>();
        for (int i = 1; i < parts.length - 1; i++) {
            cells.add(parts[i].strip());
        }
        return cells;
    }

    /** {@code -10} as {@code -10%}. */
    private static String percent(BigDecimal value) {
        return value.stripTrailingZeros().toPlainString() + "%";
    }
}
