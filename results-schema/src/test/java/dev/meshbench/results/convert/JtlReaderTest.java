package dev.meshbench.results.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.meshbench.results.io.ResultsFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JtlReaderTest {
    static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,step";
    static final String ROW = "1000,12,login,200,OK,Clients 1-1,text,true,,600,300,1,1,http://127.0.0.1/x,11,0,0,1";

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"timeStamp", "elapsed", "success", "step"})
    @DisplayName("names the file and the column when a required column is missing")
    void missingColumn(String column) throws IOException {
        List<String> names = new ArrayList<>(List.of(HEADER.split(",")));
        int i = names.indexOf(column);
        names.remove(i);
        List<String> values = new ArrayList<>(List.of(ROW.split(",", -1)));
        values.remove(i);
        Path f = write(String.join(",", names) + "\n" + String.join(",", values) + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": missing column '" + column + "' in the header (found: " + String.join(",", names) + ")",
                e.getMessage());
    }

    @Test
    @DisplayName("reads the standard JMeter columns plus step")
    void readsRow() throws IOException {
        List<JtlSample> samples = read(write(HEADER + "\n" + ROW + "\n"));
        assertEquals(List.of(new JtlSample(1000, 12, "login", true, 1, 2)), samples);
    }

    @Test
    @DisplayName("reads the header JMeter 5.6.3 writes, with the sample variable's name quoted")
    void quotedVariableName() throws IOException {
        String header = HEADER.replace(",step", ",\"step\"");
        assertEquals(List.of(new JtlSample(1000, 12, "login", true, 1, 2)), read(write(header + "\n" + ROW + "\n")));
    }

    @Test
    @DisplayName("accepts CRLF line ends and a byte-order mark")
    void crlfAndBom() throws IOException {
        List<JtlSample> samples = read(write("\uFEFF" + HEADER + "\r\n" + ROW + "\r\n" + ROW + "\r\n"));
        assertEquals(2, samples.size());
        assertEquals(3, samples.get(1).line());
    }

    @Test
    @DisplayName("skips a last row cut short and says so")
    void truncatedLastRow() throws IOException {
        List<String> notes = new ArrayList<>();
        List<JtlSample> samples = new ArrayList<>();
        new JtlReader(write(HEADER + "\n" + ROW + "\n" + "1001,13,login,200,OK,Cli")).read(samples::add, notes);
        assertEquals(1, samples.size());
        assertEquals(List.of("samples.jtl: last row (line 3) has 6 of 18 fields and was skipped (file cut short)"),
                notes);
    }

    @Test
    @DisplayName("reads a quoted failure message with commas, quotes and line breaks as one row, and counts lines on")
    void quotedMultiLineField() throws IOException {
        String failed = "1001,13,login,500,Error,Clients 1-1,text,false,\"line one\r\nline \"\"two\"\", with a comma\n\","
                + "600,300,1,1,http://127.0.0.1/x,11,0,0,1";
        List<JtlSample> samples = read(write(HEADER + "\n" + failed + "\n" + ROW + "\n"));
        assertEquals(List.of(new JtlSample(1001, 13, "login", false, 1, 2), new JtlSample(1000, 12, "login", true, 1, 5)),
                samples);
    }

    @Test
    @DisplayName("skips a last row cut inside a quoted field and says so")
    void truncatedInsideQuotes() throws IOException {
        List<String> notes = new ArrayList<>();
        List<JtlSample> samples = new ArrayList<>();
        new JtlReader(write(HEADER + "\n" + ROW + "\n" + "1001,13,login,500,Error,Clients 1-1,text,false,\"line one\nli"))
                .read(samples::add, notes);
        assertEquals(1, samples.size());
        assertEquals(List.of("samples.jtl: last row (line 3) ends inside a quoted field and was skipped (file cut short)"),
                notes);
    }

    @Test
    @DisplayName("refuses text after a closing quote, naming file and line")
    void textAfterClosingQuote() throws IOException {
        Path f = write(HEADER + "\n" + ROW + "\n" + ROW.replace(",OK,", ",\"O\"K,") + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertTrue(e.getMessage().startsWith(f + ": line 3: Unexpected character ('K'"), e.getMessage());
    }

    @Test
    @DisplayName("refuses a row with more fields than the header, naming file and line")
    void longRow() throws IOException {
        Path f = write(HEADER + "\n" + ROW + "\n" + ROW + ",extra\n" + ROW + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertTrue(e.getMessage().startsWith(f + ": line 3: Too many entries: expected at most 18"), e.getMessage());
    }

    @Test
    @DisplayName("refuses a header naming a column twice")
    void duplicateColumn() throws IOException {
        Path f = write(HEADER + ",elapsed\n" + ROW + ",13\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": column 'elapsed' appears twice in the header", e.getMessage());
    }

    @Test
    @DisplayName("skips blank lines between rows")
    void blankLines() throws IOException {
        List<JtlSample> samples = read(write(HEADER + "\n\n" + ROW + "\n\r\n" + ROW + "\n\n"));
        assertEquals(List.of(3, 5), samples.stream().map(JtlSample::line).toList());
    }

    @Test
    @DisplayName("refuses a short row in the middle, naming file and line")
    void shortRowInTheMiddle() throws IOException {
        Path f = write(HEADER + "\n" + "1001,13,login\n" + ROW + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": line 2 has 3 fields but the header has 18", e.getMessage());
    }

    @Test
    @DisplayName("refuses a non-numeric elapsed, naming line, column and value")
    void badElapsed() throws IOException {
        Path f = write(HEADER + "\n" + ROW.replace("1000,12,", "1000,12.5,") + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": line 2, column elapsed: \"12.5\" is not a whole number of milliseconds", e.getMessage());
    }

    @Test
    @DisplayName("explains how to fix a JTL written with formatted time stamps")
    void formattedTimeStamp() throws IOException {
        Path f = write(HEADER + "\n" + ROW.replace("1000,12,", "2026/11/20 09:00:00,12,") + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": line 2, column timeStamp: \"2026/11/20 09:00:00\" is not a whole number of milliseconds"
                + " (set jmeter.save.saveservice.timestamp_format=ms so JMeter writes epoch milliseconds)",
                e.getMessage());
    }

    @Test
    @DisplayName("refuses a success value that is not true or false")
    void badSuccess() throws IOException {
        Path f = write(HEADER + "\n" + ROW.replace(",true,", ",yes,") + "\n");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": line 2, column success: \"yes\" is not true or false", e.getMessage());
    }

    @Test
    @DisplayName("says an empty file needs a header")
    void emptyFile() throws IOException {
        Path f = write("");
        ResultsFormatException e = assertThrows(ResultsFormatException.class, () -> read(f));
        assertEquals(f + ": file is empty (expected a header row: timeStamp,elapsed,success,step,...)",
                e.getMessage());
    }

    private Path write(String content) throws IOException {
        Path f = tmp.resolve("samples.jtl");
        Files.writeString(f, content);
        return f;
    }

    private static List<JtlSample> read(Path f) throws ResultsFormatException {
        List<JtlSample> samples = new ArrayList<>();
        new JtlReader(f).read(samples::add, new ArrayList<>());
        return samples;
    }
}
