package dev.meshbench.orchestrator.run;

import dev.meshbench.orchestrator.target.Deployment;
import dev.meshbench.orchestrator.target.ResourceSample;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples CPU and memory of every component of a deployment at a fixed interval into {@code cpu-samples.csv}:
 * {@code epochMs,component,role,pid,cpuMillis,rssBytes}, where {@code cpuMillis} is cumulative per process, so
 * the CPU of any time window is a difference of two readings. Rows are flushed as they are written, so a run
 * that dies keeps what it sampled.
 */
public final class ResourceRecorder implements AutoCloseable {
    public static final String FILE_NAME = "cpu-samples.csv";
    public static final String HEADER = "epochMs,component,role,pid,cpuMillis,rssBytes";
    private static final Logger LOG = LoggerFactory.getLogger(ResourceRecorder.class);

    private final Deployment deployment;
    private final BufferedWriter out;
    private final ScheduledExecutorService timer;
    private long rows;

    private ResourceRecorder(Deployment deployment, BufferedWriter out) {
        this.deployment = deployment;
        this.out = out;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "resource-recorder");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts sampling now and then every {@code interval}, appending to {@code <runDir>/cpu-samples.csv}. */
    public static ResourceRecorder start(Deployment deployment, Path runDir, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("sampling interval (" + interval + ") must be positive");
        }
        Path file = runDir.resolve(FILE_NAME);
        try {
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            if (fresh) {
                w.write(HEADER);
                w.write('\n');
                w.flush();
            }
            ResourceRecorder r = new ResourceRecorder(deployment, w);
            r.timer.scheduleAtFixedRate(r::sampleSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("opening " + file + " for CPU samples failed", e);
        }
    }

    /** Rows written so far. */
    public synchronized long rows() {
        return rows;
    }

    /** Takes one sample right now (also done on close, so the last window has an end point). */
    public synchronized void sampleNow() throws IOException {
        List<ResourceSample> samples = deployment.sampleResources();
        for (ResourceSample s : samples) {
            out.write(format(s));
            out.write('\n');
            rows++;
        }
        out.flush();
    }

    static String format(ResourceSample s) {
        return s.epochMs() + "," + s.component().name() + "," + s.component().role().id() + "," + s.pid() + ","
                + s.cpuMillis() + "," + s.rssBytes();
    }

    private void sampleSafely() {
        try {
            sampleNow();
        } catch (IOException | RuntimeException e) {
            LOG.warn("sampling resources failed: {}", e.toString());
        }
    }

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
                LOG.warn("final resource sample failed: {}", e.toString());
            }
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("closing the CPU samples file failed: {}", e.toString());
            }
        }
    }
}
