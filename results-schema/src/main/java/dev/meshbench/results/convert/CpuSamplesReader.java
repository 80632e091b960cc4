package dev.meshbench.results.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.meshbench.results.ComponentRole;
import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads {@code cpu-samples.csv}: header {@code epochMs,component,role,pid,cpuMillis,rssBytes} (any order;
 * {@code rssBytes} optional; empty or negative means unknown), one row per process per sampling tick,
 * {@code cpuMillis} the process's cumulative CPU time (user + system) since it started.
 */
final class CpuSamplesReader {
    private final Path file;

    CpuSamplesReader(Path file) {
        this.file = file;
    }

    /** The timelines of every component, sorted by component name. */
    List<CpuTimeline> read(List<String> notes) throws ResultsFormatException {
        record Row(long t, String component, long pid, double cpu, long rss) {
        }
        Map<String, ComponentRole> roles = new TreeMap<>();
        Map<String, Map<Long, List<Row>>> rows = new TreeMap<>();
        try (InputStream in = Files.newInputStream(file);
                MappingIterator<Map<String, String>> csv =
                        CsvInput.open(file, in, "epochMs,component,role,pid,cpuMillis,rssBytes")) {
            int columns = CsvInput.header(file, csv, List.of("epochMs", "component", "role", "pid", "cpuMillis"));
            while (csv.hasNextValue()) {
                int line = CsvInput.nextLine(csv);
                Map<String, String> row = CsvInput.rowOrCut(file, csv, columns, line, notes);
                if (row == null) {
                    break;
                }
                String name = row.get("component").strip();
                if (name.isEmpty()) {
                    throw new ResultsFormatException(file, "line " + line + ", column component: empty");
                }
                ComponentRole r;
                try {
                    r = ComponentRole.fromId(row.get("role").strip());
                } catch (IllegalArgumentException e) {
                    throw new ResultsFormatException(file, "line " + line + ", column role: " + e.getMessage());
                }
                ComponentRole before = roles.putIfAbsent(name, r);
                if (before != null && before != r) {
                    throw new ResultsFormatException(file, "line " + line + ": component '" + name + "' has role "
                            + r.id() + " but earlier rows say " + before.id());
                }
                long t = wholeNumber(row.get("epochMs"), "epochMs", line);
                long p = wholeNumber(row.get("pid"), "pid", line);
                double cpu = number(row.get("cpuMillis"), "cpuMillis", line);
                String rssBytes = row.getOrDefault("rssBytes", "");
                long rss = rssBytes.isBlank() || rssBytes.strip().startsWith("-")
                        ? -1 : wholeNumber(rssBytes, "rssBytes", line);
                rows.computeIfAbsent(name, k -> new TreeMap<>()).computeIfAbsent(p, k -> new ArrayList<>())
                        .add(new Row(t, name, p, cpu, rss));
            }
        } catch (NoSuchFileException e) {
            throw new ResultsFormatException(file, "file not found", e);
        } catch (ResultsFormatException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw CsvInput.error(file, e);
        } catch (IOException e) {
            throw new ResultsFormatException(file, "cannot be read: " + e.getMessage(), e);
        }
        List<CpuTimeline> timelines = new ArrayList<>();
        for (Map.Entry<String, Map<Long, List<Row>>> c : rows.entrySet()) {
            CpuTimeline timeline = new CpuTimeline(c.getKey(), roles.get(c.getKey()));
            Map<Long, List<Row>> byPid = new LinkedHashMap<>();
            c.getValue().entrySet().stream()
                    .sorted(Comparator.comparingLong(e -> e.getValue().stream().mapToLong(Row::t).min().orElse(0)))
                    .forEach(e -> byPid.put(e.getKey(), e.getValue()));
            for (Map.Entry<Long, List<Row>> p : byPid.entrySet()) {
                List<Row> samples = new ArrayList<>(p.getValue());
                samples.sort(Comparator.comparingLong(Row::t));
                timeline.addPid(p.getKey(),
                        samples.stream().map(s -> new long[] {s.t(), s.rss()}).toList(),
                        samples.stream().map(Row::cpu).toList());
            }
            timelines.add(timeline);
        }
        return timelines;
    }

    private long wholeNumber(String value, String column, int line) throws ResultsFormatException {
        try {
            long n = Long.parseLong(value.strip());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ResultsFormatException(file, "line " + line + ", column " + column + ": \"" + value.strip()
                    + "\" is not a whole number >= 0");
        }
    }

    private double number(String value, String column, int line) throws ResultsFormatException {
        try {
            double n = Double.parseDouble(value.strip());
            if (!(n >= 0) || Double.isInfinite(n)) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ResultsFormatException(file, "line " + line + ", column " + column + ": \"" + value.strip()
                    + "\" is not a number >= 0 (use a decimal point)");
        }
    }
}
