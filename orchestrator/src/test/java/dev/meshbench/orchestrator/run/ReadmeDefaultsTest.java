package dev.meshbench.orchestrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.meshbench.orchestrator.latency.LatencySettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The README's property tables against the code's defaults, so the two cannot drift: every default in
 * {@link RunSettings#DEFAULTS}, {@link RunSettings#GOAL_DEFAULTS} and {@link RunSettings#STUDY} has its row with that value,
 * and every value a row gives as the default is the code's. Same for the latency study's {@link LatencySettings#DEFAULTS}.
 */
class ReadmeDefaultsTest {
    private static final Path README = Path.of(System.getProperty("basedir", ".")).resolve("../README.md").normalize();
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");
    private static final Pattern ONLY_CODE = Pattern.compile("`[^`]*`(\\s*,\\s*`[^`]*`)*");

    /** One table row: the properties it names, and per property the value of each column (empty when none is given). */
    record Row(String property, String defaultValue, String studyValue) {
    }

    @Test
    @DisplayName("the Properties table gives every RunSettings default (local and -Pstudy), and only those")
    void propertiesTableMatchesRunConfig() throws IOException {
        Map<String, Row> rows = table("### Properties");
        Map<String, String> defaults = new TreeMap<>(RunSettings.DEFAULTS);
        defaults.putAll(RunSettings.GOAL_DEFAULTS);
        for (Map.Entry<String, String> d : defaults.entrySet()) {
            Row row = rows.get(d.getKey());
            if (row == null) {
                fail(d.getKey() + " (default " + d.getValue() + " in RunSettings) has no row in " + README + "'s Properties table");
            }
            assertEquals(d.getValue(), row.defaultValue(), d.getKey() + ": the README's default differs from RunSettings's");
        }
        for (Row row : rows.values()) {
            if (!row.defaultValue().isEmpty()) {
                assertEquals(row.defaultValue(), defaults.get(row.property()),
                        row.property() + ": the README gives a default that RunSettings does not have");
            }
            assertEquals(RunSettings.STUDY.getOrDefault(row.property(), ""), row.studyValue(),
                    row.property() + ": the README's -Pstudy column differs from RunSettings.STUDY");
        }
        for (String key : RunSettings.STUDY.keySet()) {
            assertTrue(rows.containsKey(key), key + " (in RunSettings.STUDY) has no row in the README's Properties table");
        }
    }

    @Test
    @DisplayName("the latency study's table gives every LatencySettings default, and the mesh's as RunSettings's")
    void latencyTableMatchesLatencySettings() throws IOException {
        Map<String, Row> rows = table("## The latency study");
        for (Map.Entry<String, String> d : LatencySettings.DEFAULTS.entrySet()) {
            assertTrue(rows.containsKey(d.getKey()), d.getKey() + " has no row in the README's latency table");
            assertEquals(d.getValue(), rows.get(d.getKey()).defaultValue(), d.getKey() + ": the README's default differs");
        }
        for (Row row : rows.values()) {
            if (!row.defaultValue().isEmpty()) {
                String code = LatencySettings.DEFAULTS.getOrDefault(row.property(), RunSettings.DEFAULTS.get(row.property()));
                assertEquals(row.defaultValue(), code, row.property() + ": the README gives a default the code does not have");
            }
        }
    }

    @Test
    @DisplayName("the parser reads several names in one row, shorthand names, and defaults that are not one value")
    void parser() {
        Map<String, Row> rows = new LinkedHashMap<>();
        addRow(rows, "| `meshbench.dataplane`, `.sidecarMtls` | `netty`, `true` | | x |", false);
        addRow(rows, "| `meshbench.cpus.loadgen`, `.mesh` | none | | x |", false);
        addRow(rows, "| `meshbench.envoy.binary` | `envoy` on PATH | | x |", false);
        addRow(rows, "| `meshbench.clients` | `1,5` | `1,5,60` | x |", true);
        assertEquals(List.of(new Row("meshbench.dataplane", "netty", ""), new Row("meshbench.sidecarMtls", "true", ""),
                new Row("meshbench.cpus.loadgen", "", ""), new Row("meshbench.cpus.mesh", "", ""),
                new Row("meshbench.envoy.binary", "", ""), new Row("meshbench.clients", "1,5", "1,5,60")), List.copyOf(rows.values()));
    }

    /** The first table after the heading {@code heading}, by property. */
    private static Map<String, Row> table(String heading) throws IOException {
        List<String> lines = Files.readAllLines(README, StandardCharsets.UTF_8);
        int start = 0;
        while (start < lines.size() && !lines.get(start).startsWith(heading)) {
            start++;
        }
        assertTrue(start < lines.size(), README + " has no heading '" + heading + "'");
        int i = start + 1;
        while (i < lines.size() && !lines.get(i).startsWith("| property")) {
            i++;
        }
        assertTrue(i < lines.size(), "no property table after '" + heading + "' in " + README);
        boolean study = lines.get(i).contains("`-Pstudy`");
        Map<String, Row> rows = new LinkedHashMap<>();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            addRow(rows, lines.get(i), study);
        }
        return rows;
    }

    private static void addRow(Map<String, Row> rows, String line, boolean hasStudyColumn) {
        String[] cells = line.split("\\|", -1);
        List<String> names = names(cells[1]);
        List<String> defaults = values(cells[2], names.size());
        List<String> study = hasStudyColumn ? values(cells[3], names.size()) : null;
        for (int n = 0; n < names.size(); n++) {
            Row previous = rows.put(names.get(n), new Row(names.get(n), defaults.get(n), study == null ? "" : study.get(n)));
            assertTrue(previous == null, names.get(n) + " has two rows");
        }
    }

    /** {@code `meshbench.cpus.loadgen`, `.services`}: full names, a leading dot continuing the first name's prefix. */
    private static List<String> names(String cell) {
        List<String> out = new ArrayList<>();
        Matcher m = CODE.matcher(cell);
        String prefix = null;
        while (m.find()) {
            String name = m.group(1);
            if (name.startsWith(".") && prefix != null) {
                name = prefix + name;
            } else {
                prefix = name.substring(0, name.lastIndexOf('.'));
            }
            out.add(name);
        }
        assertTrue(!out.isEmpty() && out.get(0).startsWith("meshbench."), "a row's first cell names no property: " + cell);
        return out;
    }

    /**
     * The values of a cell made only of code spans, one per name ({@code `netty`, `true`}), or one empty value per
     * name when the cell says something else ({@code none}, {@code `envoy` on PATH}, empty).
     */
    private static List<String> values(String cell, int names) {
        String c = cell.trim();
        Optional<List<String>> code = ONLY_CODE.matcher(c).matches()
                ? Optional.of(CODE.matcher(c).results().map(r -> r.group(1)).toList()) : Optional.empty();
        if (code.isEmpty()) {
            return java.util.Collections.nCopies(names, "");
        }
        assertEquals(names, code.get().size(), "a cell gives " + code.get().size() + " values for " + names + " properties: " + cell);
        return code.get();
    }
}
