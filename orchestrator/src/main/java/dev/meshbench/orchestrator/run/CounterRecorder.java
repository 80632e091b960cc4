package dev.meshbench.orchestrator.run;

import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.results.ResultsSchema;
import dev.meshbench.results.WorkCounters;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Samples the deployment's work counters ({@link Deployment#workCounters()}: MongoDB commands and inter-service calls
 * per service, bytes per mesh component and through the first mesh hop on the MongoDB path) and its JVMs' JIT work
 * ({@link Deployment#jitMillis()}, as {@link WorkCounters#JIT_MS}) at a fixed interval into {@code counters.csv}
 * ({@code epochMs,component,counter,value}, cumulative values), so the converter can take each step's difference at
 * its window edges. Every tick scrapes each service's {@code /metrics} and each mesh component's stats once (at the
 * default 2 s, {@link Deployment#workCounterInterval()}, well under a millisecond of service CPU per second) and reads
 * each JVM's compiler threads' counters from {@code /proc} (the kit's own work, no component's).
 */
public final class CounterRecorder extends PeriodicCsvRecorder {
    public static final String HEADER = "epochMs,component,counter,value";

    private final Deployment deployment;

    private CounterRecorder(Deployment deployment, Path file) {
        super("work counters", file, HEADER, "counter-recorder");
        this.deployment = deployment;
    }

    /** Starts sampling {@code deployment}'s counters every {@link Deployment#workCounterInterval()} into the run folder. */
    public static CounterRecorder start(Deployment deployment, Path runDir) {
        CounterRecorder r = new CounterRecorder(deployment, runDir.resolve(ResultsSchema.COUNTERS_FILE));
        r.schedule(deployment.workCounterInterval());
        return r;
    }

    @Override
    void writeSample(Writer out) throws IOException {
        long now = System.currentTimeMillis();
        for (Map.Entry<String, Map<String, Double>> c : deployment.workCounters().entrySet()) {
            for (Map.Entry<String, Double> v : c.getValue().entrySet()) {
                out.write(now + "," + c.getKey() + "," + v.getKey() + "," + String.format(Locale.ROOT, "%.0f", v.getValue()));
                out.write('\n');
            }
        }
        // each JVM's JIT so far, so that a window can say which one was still compiling while it measured
        for (Map.Entry<String, Double> j : deployment.jitMillis().entrySet()) {
            out.write(now + "," + j.getKey() + "," + WorkCounters.JIT_MS + "," + String.format(Locale.ROOT, "%.1f", j.getValue()));
            out.write('\n');
        }
    }
}
