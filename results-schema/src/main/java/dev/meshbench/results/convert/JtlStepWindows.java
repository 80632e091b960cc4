package dev.meshbench.results.convert;

import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.StepWindow;
import dev.meshbench.results.io.ResultsFormatException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;

/**
 * The wall-clock window each step really ran, as the JTL shows it: from the start of its first sample to the
 * end of its last. Read with the converter's own reader, so quoted multi-line failure messages and a cut last
 * row are handled as in {@code results.json}.
 */
public final class JtlStepWindows {
    private JtlStepWindows() {
    }

    /** Windows by client count, in client order; steps without samples are absent. */
    public static Map<Integer, StepWindow> read(Path jtl) throws ResultsFormatException {
        Map<Integer, long[]> spans = new TreeMap<>();
        new JtlReader(jtl).read(s -> {
            if (s.step() != null && s.step() != ResultsSchema.WARMUP_STEP) {
                long[] span = spans.computeIfAbsent(s.step(), k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
                span[0] = Math.min(span[0], s.timeStamp());
                span[1] = Math.max(span[1], s.timeStamp() + s.elapsed());
            }
        }, new ArrayList<>());
        Map<Integer, StepWindow> out = new TreeMap<>();
        spans.forEach((clients, span) -> {
            if (span[1] > span[0]) {
                out.put(clients, StepWindow.planned(clients).started(span[0]).ended(span[1]));
            }
        });
        return out;
    }
}
