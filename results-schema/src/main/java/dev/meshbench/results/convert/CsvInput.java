package dev.meshbench.results.convert;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvReadException;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The conversion's CSV inputs ({@code samples.jtl}, {@code cpu-samples.csv}, {@code counters.csv}) as Jackson's CSV
 * parser reads them: the first row names the columns (any order; JMeter 5.6's quoted names come unquoted, a UTF-8
 * byte-order mark is dropped when reading bytes), every further row is a map from column name to text. Quoting,
 * doubled quotes, line breaks inside quotes, CRLF and blank lines are Jackson's. What is left here is what Jackson
 * does not check or does not say in our words: the required columns, a name used twice, and errors naming the file
 * and the line.
 */
final class CsvInput {
    /**
     * Rows as column name to text. A row with fewer fields than the header lacks the last columns (the readers count
     * them); one with more, even a trailing empty one, is Jackson's error.
     */
    private static final ObjectReader ROWS = new CsvMapper().readerForMapOf(String.class)
            .with(CsvSchema.emptySchema().withHeader())
            .with(CsvParser.Feature.SKIP_EMPTY_LINES)
            .without(CsvParser.Feature.ALLOW_TRAILING_COMMA);

    private CsvInput() {
    }

    /**
     * The rows of {@code in}, the content of {@code file}. Jackson reads the header row here, with the first token.
     *
     * @param expected the header row to name when the file has none
     */
    static MappingIterator<Map<String, String>> open(Path file, InputStream in, String expected) throws IOException {
        try {
            return ROWS.readValues(in);
        } catch (CsvReadException e) { // "Empty header line": nothing but blank lines
            throw new ResultsFormatException(file, "file is empty (expected a header row: " + expected + ")", e);
        }
    }

    /**
     * Checks the header row that no name appears twice (Jackson would keep the last one's value) and that every
     * required column is there; returns the number of columns.
     */
    static int header(Path file, MappingIterator<Map<String, String>> rows, List<String> required)
            throws IOException {
        rows.hasNextValue(); // Jackson has read the header at the latest once the first row is opened
        List<String> names = ((CsvSchema) rows.getParser().getSchema()).getColumnNames();
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw new ResultsFormatException(file, "column '" + name + "' appears twice in the header");
            }
        }
        for (String name : required) {
            if (!seen.contains(name)) {
                throw new ResultsFormatException(file, "missing column '" + name + "' in the header (found: "
                        + String.join(",", names) + ")");
            }
        }
        return names.size();
    }

    /**
     * Line (1-based) where the row that {@code rows.nextValue()} returns next starts, once {@code rows.hasNextValue()}
     * said there is one: Jackson has then only opened the row, not read into it.
     */
    static int nextLine(MappingIterator<?> rows) {
        return rows.getCurrentLocation().getLineNr();
    }

    /**
     * The row starting at {@code line}, or {@code null} when it is the last row and was cut short (its writer
     * stopped mid-row: fewer fields than the header, or the input ends inside a quoted field), which {@code notes}
     * is told. A short row anywhere else is an error.
     */
    static Map<String, String> rowOrCut(Path file, MappingIterator<Map<String, String>> rows, int columns, int line,
            List<String> notes) throws IOException {
        Map<String, String> row;
        try {
            row = rows.nextValue();
        } catch (JsonProcessingException e) {
            // Jackson says "the input ended inside quotes" only in its message, with no exception type of its own
            if (String.valueOf(e.getOriginalMessage()).startsWith("Missing closing quote")) {
                notes.add(file.getFileName() + ": last row (line " + line
                        + ") ends inside a quoted field and was skipped (file cut short)");
                return null;
            }
            throw e;
        }
        if (row.size() != columns) { // fewer: Jackson refuses a row with more
            if (!rows.hasNextValue()) {
                notes.add(file.getFileName() + ": last row (line " + line + ") has " + row.size() + " of " + columns
                        + " fields and was skipped (file cut short)");
                return null;
            }
            throw new ResultsFormatException(file, "line " + line + " has " + row.size() + " fields but the header has "
                    + columns);
        }
        return row;
    }

    /** What Jackson could not read, naming the file and the line it was reading. */
    static ResultsFormatException error(Path file, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : "line " + at.getLineNr() + ": ";
        return new ResultsFormatException(file, where + e.getOriginalMessage(), e);
    }
}
