package dev.meshbench.results.convert;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads comma-separated records as JMeter writes them: fields containing a comma, quote or line break are quoted
 * with {@code "} and inner quotes doubled; records end with {@code \n} or {@code \r\n}. Tracks the line where
 * each record starts, for error messages, and the character offset, for readers that follow a growing file. The
 * kit's one CSV reader: the results conversion reads finished JTL and CPU-sample files with it, and the
 * orchestrator's live progress ({@code JtlTail}) reads what JMeter has appended so far.
 */
public final class CsvRecordReader {
    private final Reader in;
    private int line = 1;
    private int recordLine;
    private long consumed;
    private long recordStart;
    private int pushedBack = -2;
    private boolean lastEndedCleanly = true;

    public CsvRecordReader(Reader in) {
        this.in = in;
    }

    /** Line (1-based) where the record last returned by {@link #next()} started. */
    public int recordLine() {
        return recordLine;
    }

    /** Characters read before the record last returned by {@link #next()} started. */
    public long recordStart() {
        return recordStart;
    }

    /** Characters read so far: after a record that ended cleanly, where the next one starts. */
    public long consumed() {
        return consumed;
    }

    /**
     * False when the last record returned ended at end of input without a line break, inside or outside quotes (a
     * cut row, or one still being written).
     */
    public boolean lastEndedCleanly() {
        return lastEndedCleanly;
    }

    /** The next record, or {@code null} at end of input. Blank lines are skipped. */
    public List<String> next() throws IOException {
        while (true) {
            recordLine = line;
            recordStart = consumed;
            int c = read();
            if (c < 0) {
                return null;
            }
            if (c == '\n') {
                continue;
            }
            if (c == '\r') {
                int d = read();
                if (d != '\n') {
                    unread(d);
                }
                continue;
            }
            unread(c);
            return readRecord();
        }
    }

    private List<String> readRecord() throws IOException {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean fieldStart = true;
        while (true) {
            int c = read();
            if (quoted) {
                if (c < 0) {
                    fields.add(field.toString());
                    lastEndedCleanly = false;
                    return fields;
                }
                if (c == '"') {
                    int d = read();
                    if (d == '"') {
                        field.append('"');
                    } else {
                        quoted = false;
                        unread(d);
                    }
                } else {
                    field.append((char) c);
                }
                continue;
            }
            if (c < 0 || c == '\n' || c == '\r') {
                if (c == '\r') {
                    int d = read();
                    if (d != '\n') {
                        unread(d);
                    }
                }
                fields.add(field.toString());
                lastEndedCleanly = c >= 0;
                return fields;
            }
            if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
                fieldStart = true;
                continue;
            }
            if (c == '"' && fieldStart && field.length() == 0) {
                quoted = true;
                fieldStart = false;
                continue;
            }
            fieldStart = false;
            field.append((char) c);
        }
    }

    private int read() throws IOException {
        int c;
        if (pushedBack != -2) {
            c = pushedBack;
            pushedBack = -2;
        } else {
            c = in.read();
            if (c == '\n') {
                line++;
            }
        }
        if (c >= 0) {
            consumed++;
        }
        return c;
    }

    private void unread(int c) {
        pushedBack = c;
        if (c >= 0) {
            consumed--;
        }
    }
}
