package dev.meshbench.orchestrator.run;

import dev.meshbench.results.convert.CsvRecordReader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Follows a JTL (CSV with header) while JMeter writes it, keeping per-step counts for live progress and the
 * wall-clock window of each step. Reads only what was appended since the last call with the kit's one CSV reader
 * ({@link CsvRecordReader}, as the results conversion does); a half-written last row, or a quoted field still open
 * across lines, waits for the next call. Not the results conversion: that reads the finished file once, in
 * results-schema.
 */
public final class JtlTail {
    private final Path file;
    private long offset;
    private byte[] pendingBytes = new byte[0];
    private String pendingText = "";
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
                pendingText = "";
                pendingBytes = new byte[0];
                steps.clear();
                colTime = -1;
            }
            if (len == offset) {
                return 0;
            }
            raf.seek(offset);
            byte[] buf = new byte[(int) Math.min(len - offset, 16 * 1024 * 1024)];
            raf.readFully(buf);
            offset += buf.length;
            byte[] data = new byte[pendingBytes.length + buf.length];
            System.arraycopy(pendingBytes, 0, data, 0, pendingBytes.length);
            System.arraycopy(buf, 0, data, pendingBytes.length, buf.length);
            // decode up to the last line break only: a UTF-8 sequence never contains the byte '\n', so a character
            // cut at the end of what JMeter has flushed waits whole for the next call
            int end = data.length;
            while (end > 0 && data[end - 1] != '\n') {
                end--;
            }
            pendingBytes = Arrays.copyOfRange(data, end, data.length);
            if (end == 0) {
                return 0;
            }
            return parse(pendingText + new String(data, 0, end, StandardCharsets.UTF_8));
        }
    }

    /** Accepts the complete records of {@code text}; a record still inside quotes at the end waits for more. */
    private long parse(String text) throws IOException {
        CsvRecordReader records = new CsvRecordReader(new StringReader(text));
        long added = 0;
        long done = 0;
        List<String> record;
        while ((record = records.next()) != null) {
            if (!records.lastEndedCleanly()) { // a quoted field still open: JMeter has not finished the row
                done = records.recordStart();
                break;
            }
            done = records.consumed();
            if (accept(record)) {
                added++;
            }
        }
        pendingText = text.substring((int) done);
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
