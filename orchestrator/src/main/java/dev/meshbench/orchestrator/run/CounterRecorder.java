package dev.meshbench.orchestrator.run;

import dev.meshbench.orchestrator.target.Deployment;
import dev.meshbench.results.ResultsSchema;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the deployment's work counters ({@link Deployment#workCounters()}: MongoDB commands and inter-service calls
 * per service, bytes per mesh hop on the MongoDB path) at a fixed interval into {@code counters.csv}
 * ({@code epochMs,component,counter,value}, cumulative values), so the converter can take each step's difference at
 * its window edges. Every tick scrapes each service's {@code /metrics} once: at the default 2 s that is well under
 * a millisecond of service CPU per second. Rows are flushed as written.
 */
public final class CounterRecorder implements AutoCloseable {
    public static final String HEADER = "epochMs,component,counter,value";
    public static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final Logger LOG = LoggerFactory.getLogger(CounterRecorder.class);

    private final Deployment deployment;
    private final BufferedWriter out;
    private final ScheduledExecutorService timer;

    private CounterRecorder(Deployment deployment, BufferedWriter out) {
        this.deployment = deployment;
        this.out = out;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "counter-recorder");
            t.setDaemon(true);
            return t;
        });
    }

    public static CounterRecorder start(Deployment deployment, Path runDir, Duration interval) {
        Path file = runDir.resolve(ResultsSchema.COUNTERS_FILE);
        try {
            BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            w.write(HEADER);
            w.write('\n');
            w.flush();
            CounterRecorder r = new CounterRecorder(deployment, w);
            r.timer.scheduleAtFixedRate(r::sampleSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("opening " + file + " for work counters failed", e);
        }
    }

    synchronized void sampleNow() throws IOException {
        long now = System.currentTimeMillis();
        for (Map.Entry<String, Map<String, Double>> c : deployment.workCounters().entrySet()) {
            for (Map.Entry<String, Double> v : c.getValue().entrySet()) {
                out.write(now + "," + c.getKey() + "," + v.getKey() + "," + String.format(Locale.ROOT, "%.0f", v.getValue()));
                out.write('\n');
            }
        }
        out.flush();
    }

    private void sampleSafely() {
        try {
            sampleNow();
        } catch (IOException | RuntimeException e) {
            LOG.warn("sampling work counters failed: {}", e.toString());
        }
    }

    /** Takes a last sample (so the last window has an end point) and closes the file. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            try {
                sampleNow();
            } catch (IOException | RuntimeException e) {
                LOG.warn("final work-counter sample failed: {}", e.toString());
            }
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("closing the work counters file failed: {}", e.toString());
            }
        }
    }
}
