package dev.meshbench.orchestrator.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Follows a JTL (CSV with header) while JMeter writes it, keeping per-step counts for live progress and the
 * wall-clock window of each step. Each call reads from the byte offset where the last complete record ended, hands
 * the complete records to Jackson's CSV parser, and moves the offset past them; a half-written last row, or a quoted
 * field still open across lines, is read again by the next call. Not the results conversion: that reads the
 * finished file once, in results-schema.
 */
public final class JtlTail {
    private final Path file;
    /** Bytes of the file holding the complete records consumed so far: where the next call starts reading. */
    private long offset;
    private int colTime = -1;
    private int colElapsed = -1;
    private int colSuccess = -1;
    private int colStep = -1;
    private final Map<Integer, StepCounts> steps = new TreeMap<>();
    private int latestStep = -1;
    private long latestStartMs = Long.MIN_VALUE;
    private long firstStartMs = Long.MAX_VALUE;

    public JtlTail(Path file) {
        this.file = file;
    }

    /** What has been seen of one step. */
    public static final class StepCounts {
        long samples;
        long errors;
        long firstStartMs = Long.MAX_VALUE;
        long lastEndMs = Long.MIN_VALUE;

        public long samples() {
            return samples;
        }

        public long errors() {
            return errors;
        }

        public long firstStartMs() {
            return firstStartMs;
        }

        public long lastEndMs() {
            return lastEndMs;
        }
    }

    /** Reads what was appended; returns the number of new samples. */
    public synchronized long poll() throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long len = raf.length();
            if (len < offset) { // truncated or replaced: start over
                offset = 0;
                steps.clear();
                colTime = -1;
            }
            if (len == offset) {
                return 0;
            }
            raf.seek(offset);
            byte[] data = new byte[(int) Math.min(len - offset, 16 * 1024 * 1024)];
            raf.readFully(data);
            int complete = completeRecords(data);
            if (complete == 0) {
                return 0;
            }
            offset += complete; // before parsing: records Jackson cannot read are not read again
            return parse(data, complete);
        }
    }

    /**
     * Length of the complete records at the start of {@code data}: up to and including the last line break outside
     * quotes. Written here because Jackson's CSV parser cannot tell it: its locations have no byte offset (it
     * decodes through a Reader; getByteOffset is -1), the character offset of its current location is one short of
     * where the next record starts, and a record still open at the end of the input comes only as a "Missing closing
     * quote" error. Counting quotes is enough for what JMeter writes: it quotes every field holding a quote, comma or
     * line break and doubles the quotes inside, so a line break is outside quotes after an even number of them. The
     * bytes of {@code "} and {@code \n} never occur inside a UTF-8 multi-byte character, so a character cut at the
     * end of what JMeter has flushed waits, whole, for the next call.
     */
    static int completeRecords(byte[] data) {
        boolean quoted = false;
        int end = 0;
        for (int i = 0; i < data.length; i++) {
            if (data[i] == '"') {
                quoted = !quoted;
            } else if (data[i] == '\n' && !quoted) {
                end = i + 1;
            }
        }
        return end;
    }

    /**
     * Jackson's reader of the JTL's records as lists of fields, blank lines skipped. Built at the first parse, not
     * with the first tail: in a fresh JVM that takes a few hundred milliseconds, which would otherwise fall inside
     * the warm-up's first window (WarmUp makes its tail after starting its clock).
     */
    private static final class Records {
        static final ObjectReader READER = new CsvMapper().readerForListOf(String.class)
                .with(CsvParser.Feature.WRAP_AS_ARRAY)
                .with(CsvParser.Feature.SKIP_EMPTY_LINES);
    }

    /** Accepts the records in the first {@code length} bytes of {@code data}, all of them complete. */
    private long parse(byte[] data, int length) throws IOException {
        long added = 0;
        try (MappingIterator<List<String>> records = Records.READER.readValues(data, 0, length)) {
            while (records.hasNextValue()) {
                List<String> record;
                try {
                    record = records.nextValue();
                } catch (JsonProcessingException e) {
                    continue; // not CSV as JMeter writes it: skipped (Jackson resumes after the record's end), as
                              // rows of an odd shape are; the converter judges the file
                }
                if (accept(record)) {
                    added++;
                }
            }
        }
        return added;
    }

    private boolean accept(List<String> f) {
        if (colTime < 0) {
            colTime = f.indexOf("timeStamp"); // the reader unquotes JMeter 5.6's quoted variable names: "step"
            colElapsed = f.indexOf("elapsed");
            colSuccess = f.indexOf("success");
            colStep = f.indexOf("step");
            if (colTime < 0 || colElapsed < 0 || colSuccess < 0 || colStep < 0) {
                throw new IllegalStateException(file + ": the JTL header lacks one of timeStamp, elapsed, success, step: "
                        + String.join(",", f));
            }
            return false;
        }
        try {
            long ts = Long.parseLong(f.get(colTime));
            long el = Long.parseLong(f.get(colElapsed));
            int step = Integer.parseInt(f.get(colStep).trim());
            String success = f.get(colSuccess);
            StepCounts c = steps.computeIfAbsent(step, k -> new StepCounts());
            c.samples++;
            if (!"true".equals(success)) {
                c.errors++;
            }
            c.firstStartMs = Math.min(c.firstStartMs, ts);
            firstStartMs = Math.min(firstStartMs, ts);
            if (ts >= latestStartMs) {
                latestStartMs = ts;
                latestStep = step;
            }
            c.lastEndMs = Math.max(c.lastEndMs, ts + el);
            return true;
        } catch (RuntimeException e) {
            return false; // not a sample row (or a message with an odd shape); the converter judges the file
        }
    }

    /** The step (client count) of the most recent sample, or -1 before the first one. */
    public synchronized int latestStep() {
        return latestStep;
    }

    /** Start of the first sample, or empty before the first one: when the load really began. */
    public synchronized java.util.OptionalLong firstStartMs() {
        return firstStartMs == Long.MAX_VALUE ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(firstStartMs);
    }

    /** Counts per step (by client count), in client order. */
    public synchronized Map<Integer, StepCounts> steps() {
        return new TreeMap<>(steps);
    }
}
