package dev.meshbench.results.convert;

import dev.meshbench.results.io.ResultsFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Streams a JMeter CSV results file ({@code samples.jtl}) with a header row. Columns are found by name; the
 * required ones are {@code timeStamp} (epoch ms), {@code elapsed} (ms), {@code success} and {@code step} (the
 * sample variable holding the step's client count). A last row cut short (JMeter killed mid-write) is skipped
 * with a note; any other malformed row is an error naming the file, line, column and value.
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
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            CsvRecordReader csv = new CsvRecordReader(in);
            List<String> head = csv.next();
            if (head == null) {
                throw new ResultsFormatException(file, "file is empty (expected a header row: "
                        + String.join(",", REQUIRED) + ",...)");
            }
            CsvHeader header = new CsvHeader(file, head);
            int timeStamp = header.require("timeStamp");
            int elapsed = header.require("elapsed");
            int success = header.require("success");
            int step = header.require("step");
            int label = header.optional("label");
            long rows = 0;
            List<String> pending = csv.next();
            int pendingLine = csv.recordLine();
            while (pending != null) {
                List<String> next = csv.next();
                boolean last = next == null;
                if (pending.size() != header.size()) {
                    if (last && pending.size() < header.size()) {
                        notes.add(file.getFileName() + ": last row (line " + pendingLine + ") has " + pending.size()
                                + " of " + header.size() + " fields and was skipped (file cut short)");
                        break;
                    }
                    throw new ResultsFormatException(file, "line " + pendingLine + " has " + pending.size()
                            + " fields but the header has " + header.size());
                }
                sink.accept(new JtlSample(
                        longValue(pending, timeStamp, "timeStamp", pendingLine),
                        longValue(pending, elapsed, "elapsed", pendingLine),
                        label < 0 ? "" : pending.get(label),
                        booleanValue(pending, success, pendingLine),
                        stepValue(pending, step, pendingLine),
                        pendingLine));
                rows++;
                pending = next;
                pendingLine = csv.recordLine();
            }
            return rows;
        } catch (NoSuchFileException e) {
            throw new ResultsFormatException(file, "file not found", e);
        } catch (ResultsFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new ResultsFormatException(file, "cannot be read: " + e.getMessage(), e);
        }
    }

    private long longValue(List<String> row, int column, String name, int line) throws ResultsFormatException {
        String v = row.get(column).strip();
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

    private boolean booleanValue(List<String> row, int column, int line) throws ResultsFormatException {
        String v = row.get(column).strip().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ResultsFormatException(file, "line " + line + ", column success: \"" + v
                    + "\" is not true or false");
        };
    }

    private Integer stepValue(List<String> row, int column, int line) throws ResultsFormatException {
        String v = row.get(column).strip();
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
