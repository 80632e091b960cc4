package dev.meshbench.results.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Streams a JMeter CSV results file ({@code samples.jtl}) with a header row. Columns are found by name; the
 * required ones are {@code timeStamp} (epoch ms), {@code elapsed} (ms), {@code success} and {@code step} (the
 * sample variable holding the step's client count). Read with Jackson's CSV parser ({@link CsvInput}). A last
 * row cut short (JMeter killed mid-write, maybe inside a quoted message) is skipped with a note; any other
 * malformed row is an error naming the file, line, column and value.
 */
final class JtlReader {
    static final List<String> REQUIRED = List.of("timeStamp", "elapsed", "success", "step");

    private final Path file;

    JtlReader(Path file) {
        this.file = file;
    }

    /**
     * Sends every row to {@code sink}, returning how many rows were read.
     *
     * @param notes receives what a reader of the results should know (e.g. a cut last row)
     */
    long read(Consumer<JtlSample> sink, List<String> notes) throws ResultsFormatException {
        try (InputStream in = Files.newInputStream(file);
                MappingIterator<Map<String, String>> rows =
                        CsvInput.open(file, in, String.join(",", REQUIRED) + ",...")) {
            int columns = CsvInput.header(file, rows, REQUIRED);
            long samples = 0;
            while (rows.hasNextValue()) {
                int line = CsvInput.nextLine(rows);
                Map<String, String> row = CsvInput.rowOrCut(file, rows, columns, line, notes);
                if (row == null) {
                    break;
                }
                sink.accept(new JtlSample(
                        longValue(row, "timeStamp", line),
                        longValue(row, "elapsed", line),
                        row.getOrDefault("label", ""),
                        booleanValue(row, line),
                        stepValue(row, line),
                        line));
                samples++;
            }
            return samples;
        } catch (NoSuchFileException e) {
            throw new ResultsFormatException(file, "file not found", e);
        } catch (ResultsFormatException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw CsvInput.error(file, e);
        } catch (IOException e) {
            throw new ResultsFormatException(file, "cannot be read: " + e.getMessage(), e);
        }
    }

    private long longValue(Map<String, String> row, String name, int line) throws ResultsFormatException {
        String v = row.get(name).strip();
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            String hint = name.equals("timeStamp")
                    ? " (set jmeter.save.saveservice.timestamp_format=ms so JMeter writes epoch milliseconds)" : "";
            throw new ResultsFormatException(file, "line " + line + ", column " + name + ": \"" + v
                    + "\" is not a whole number of milliseconds" + hint);
        }
    }

    private boolean booleanValue(Map<String, String> row, int line) throws ResultsFormatException {
        String v = row.get("success").strip().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ResultsFormatException(file, "line " + line + ", column success: \"" + v
                    + "\" is not true or false");
        };
    }

    private Integer stepValue(Map<String, String> row, int line) throws ResultsFormatException {
        String v = row.get("step").strip();
        if (v.isEmpty() || v.equals("null")) {
            return null;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ResultsFormatException(file, "line " + line + ", column step: \"" + v
                    + "\" is not a client count (or 0, the warm-up)");
        }
    }
}
