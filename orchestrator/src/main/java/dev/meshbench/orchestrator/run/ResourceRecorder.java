package dev.meshbench.orchestrator.run;

import dev.meshbench.orchestrator.deploy.Deployment;
import dev.meshbench.orchestrator.deploy.ResourceSample;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Samples CPU and memory of every component of a deployment at a fixed interval into {@code cpu-samples.csv}:
 * {@code epochMs,component,role,pid,cpuMillis,rssBytes}, where {@code cpuMillis} is cumulative per process, so
 * the CPU of any time window is a difference of two readings. Rows are flushed as they are written, so a run
 * that dies keeps what it sampled.
 */
public final class ResourceRecorder extends PeriodicCsvRecorder {
    public static final String FILE_NAME = "cpu-samples.csv";
    public static final String HEADER = "epochMs,component,role,pid,cpuMillis,rssBytes";

    private final Deployment deployment;
    private long rows;

    private ResourceRecorder(Deployment deployment, Path file) {
        super("resources", file, HEADER, "resource-recorder");
        this.deployment = deployment;
    }

    /** Starts sampling now and then every {@code interval}, appending to {@code <runDir>/cpu-samples.csv}. */
    public static ResourceRecorder start(Deployment deployment, Path runDir, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("sampling interval (" + interval + ") must be positive");
        }
        ResourceRecorder r = new ResourceRecorder(deployment, runDir.resolve(FILE_NAME));
        r.schedule(interval);
        return r;
    }

    /** Rows written so far. */
    public synchronized long rows() {
        return rows;
    }

    @Override
    void writeSample(Writer out) throws IOException {
        List<ResourceSample> samples = deployment.sampleResources();
        for (ResourceSample s : samples) {
            out.write(format(s));
            out.write('\n');
            rows++;
        }
    }

    /** One row of {@code cpu-samples.csv}, without the line end: {@code epochMs,component,role,pid,cpuMillis,rssBytes}. */
    public static String format(ResourceSample s) {
        return s.epochMs() + "," + s.component().name() + "," + s.component().role().id() + "," + s.pid() + ","
                + s.cpuMillis() + "," + s.rssBytes();
    }
}
