package dev.meshbench.orchestrator.run;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one JTL a sitting's JMeter writes, cut by phase while it grows: every sample record whose {@code phase} column
 * is a routed phase is copied, byte for byte as JMeter wrote it, into that phase's own JTL (a run folder's
 * {@code samples.jtl}, headed by the sitting JTL's own header), which the run then converts as any run's. Records are
 * taken whole, as {@link JtlTail} takes them (a half-written last record waits for the next poll). Per phase it
 * counts what it saw, so the sitting can tell when a phase's last answers are in.
 */
public final class SittingJtl {
    private final Path file;
    private long offset;
    private byte[] header;
    private int colPhase = -1;
    private int colTime = -1;
    private int colElapsed = -1;
    private int colSuccess = -1;
    private final Map<String, OutputStream> routes = new HashMap<>();
    private final Map<String, Seen> seen = new HashMap<>();

    /** What was seen of one phase. */
    public record Seen(long samples, long errors, long lastEndMs, long lastSeenNanos) {
    }

    private static final ObjectReader READER = new CsvMapper().readerForListOf(String.class)
            .with(CsvParser.Feature.WRAP_AS_ARRAY)
            .with(CsvParser.Feature.SKIP_EMPTY_LINES);

    public SittingJtl(Path file) {
        this.file = file;
    }

    /** From now on, records of {@code phase} are appended to {@code target} (created with the header). */
    public synchronized void route(String phase, Path target) throws IOException {
        if (routes.containsKey(phase)) {
            throw new IllegalStateException("phase " + phase + " is routed already");
        }
        routes.put(phase, Files.newOutputStream(target));
        if (header != null) {
            routes.get(phase).write(header);
        }
    }

    /** Reads what was appended, copies it where its phase is routed, then closes {@code phase}'s file. */
    public synchronized void unroute(String phase) throws IOException {
        poll();
        OutputStream out = routes.remove(phase);
        if (out != null) {
            out.close();
        }
    }

    /** What was seen of {@code phase} so far. */
    public synchronized Optional<Seen> seen(String phase) {
        return Optional.ofNullable(seen.get(phase));
    }

    /** Reads what JMeter appended since the last call and copies each record where its phase is routed. */
    public synchronized void poll() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long len = raf.length();
            if (len <= offset) {
                return;
            }
            raf.seek(offset);
            byte[] data = new byte[(int) Math.min(len - offset, 16 * 1024 * 1024)];
            raf.readFully(data);
            int complete = JtlTail.completeRecords(data);
            offset += complete;
            // The records' bytes, as JMeter wrote them (line breaks inside quotes belong to the record), and their fields
            // from one parse of the whole chunk: a parser per record would cost this JVM more CPU than JMeter's own
            // writing of them, on the machine being measured.
            List<int[]> spans = new java.util.ArrayList<>();
            int start = 0;
            boolean quoted = false;
            for (int i = 0; i < complete; i++) {
                if (data[i] == '"') {
                    quoted = !quoted;
                } else if (data[i] == '\n' && !quoted) {
                    if (i > start && !(i == start + 1 && data[start] == '\r')) {
                        spans.add(new int[] {start, i + 1 - start});
                    }
                    start = i + 1;
                }
            }
            int n = 0;
            try (MappingIterator<List<String>> it = READER.readValues(data, 0, complete)) {
                while (it.hasNextValue()) {
                    List<String> fields = it.nextValue();
                    if (n >= spans.size()) {
                        throw new IllegalStateException(file + ": more records parsed than found before byte " + offset);
                    }
                    int[] span = spans.get(n++);
                    record(fields, data, span[0], span[1]);
                }
            }
            if (n != spans.size()) {
                throw new IllegalStateException(file + ": " + spans.size() + " records found but " + n + " parsed before byte " + offset);
            }
        }
        for (OutputStream out : routes.values()) {
            out.flush();
        }
    }

    private void record(List<String> fields, byte[] data, int from, int length) throws IOException {
        if (header == null) {
            colPhase = fields.indexOf(dev.meshbench.model.SittingControl.PHASE_COLUMN);
            colTime = fields.indexOf("timeStamp");
            colElapsed = fields.indexOf("elapsed");
            colSuccess = fields.indexOf("success");
            if (colPhase < 0 || colTime < 0 || colElapsed < 0 || colSuccess < 0) {
                throw new IllegalStateException(file + ": the sitting's JTL header lacks one of phase, timeStamp, elapsed, success: "
                        + String.join(",", fields) + " (the plan's JTL format must list the phase sample variable)");
            }
            header = java.util.Arrays.copyOfRange(data, from, from + length);
            for (OutputStream out : routes.values()) {
                out.write(header);
            }
            return;
        }
        if (fields.size() <= Math.max(Math.max(colPhase, colSuccess), Math.max(colTime, colElapsed))) {
            return;
        }
        String phase = fields.get(colPhase).trim();
        long end;
        try {
            end = Long.parseLong(fields.get(colTime)) + Long.parseLong(fields.get(colElapsed));
        } catch (NumberFormatException e) {
            return;
        }
        boolean ok = "true".equals(fields.get(colSuccess));
        Seen before = seen.get(phase);
        seen.put(phase, new Seen((before == null ? 0 : before.samples()) + 1, (before == null ? 0 : before.errors()) + (ok ? 0 : 1),
                Math.max(before == null ? Long.MIN_VALUE : before.lastEndMs(), end), System.nanoTime()));
        OutputStream out = routes.get(phase);
        if (out != null) {
            out.write(data, from, length);
        }
    }
}
