package dev.meshbench.orchestrator.run;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Follows a JTL (CSV with header) while JMeter writes it, keeping per-step counts for live progress and the
 * wall-clock window of each step. Reads only what was appended since the last call; a half-written last line
 * waits for the next call. Not the results conversion: that reads the finished file once, in results-schema.
 */
public final class JtlTail {
    private final Path file;
    private long offset;
    private String pending = "";
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
        long added = 0;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long len = raf.length();
            if (len < offset) { // truncated or replaced: start over
                offset = 0;
                pending = "";
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
            String text = pending + new String(buf, StandardCharsets.UTF_8);
            int start = 0;
            int nl;
            while ((nl = text.indexOf('\n', start)) >= 0) {
                String line = text.substring(start, nl).replace("\r", "");
                start = nl + 1;
                if (accept(line)) {
                    added++;
                }
            }
            pending = text.substring(start);
        }
        return added;
    }

    private boolean accept(String line) {
        if (line.isEmpty()) {
            return false;
        }
        if (colTime < 0) {
            List<String> header = splitCsv(line); // JMeter 5.6 quotes sample-variable names: "step"
            colTime = header.indexOf("timeStamp");
            colElapsed = header.indexOf("elapsed");
            colSuccess = header.indexOf("success");
            colStep = header.indexOf("step");
            if (colTime < 0 || colElapsed < 0 || colSuccess < 0 || colStep < 0) {
                throw new IllegalStateException(file + ": the JTL header lacks one of timeStamp, elapsed, success, step: " + line);
            }
            return false;
        }
        List<String> f = splitCsv(line);
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

    /** Splits one CSV line as JMeter writes it: fields holding a comma or quote are quoted, quotes doubled. */
    static List<String> splitCsv(String line) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cur.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        out.add(cur.toString());
        return out;
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
