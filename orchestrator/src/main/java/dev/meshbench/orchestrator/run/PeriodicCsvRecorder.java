package dev.meshbench.orchestrator.run;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one sample of rows to a CSV file at a fixed interval on a daemon thread, flushing after each sample, so a
 * run that dies keeps what it sampled; {@link #close()} takes a last sample (the last window's end point). The
 * header is written when the file is new or empty. Subclasses say what a sample is.
 */
abstract class PeriodicCsvRecorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicCsvRecorder.class);

    private final String what;
    private final BufferedWriter out;
    private final ScheduledExecutorService timer;

    /** Opens {@code file} for appending (writing {@code header} when it is new); call {@link #schedule} next. */
    PeriodicCsvRecorder(String what, Path file, String header, String threadName) {
        this.what = what;
        try {
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            if (fresh) {
                out.write(header);
                out.write('\n');
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("opening " + file + " for " + what + " failed", e);
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Samples now and then every {@code interval}. */
    final void schedule(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("sampling interval (" + interval + ") must be positive");
        }
        timer.scheduleAtFixedRate(this::sampleSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Writes one sample's rows, each ending with a newline. */
    abstract void writeSample(Writer out) throws IOException;

    /** Takes one sample right now. */
    public final synchronized void sampleNow() throws IOException {
        writeSample(out);
        out.flush();
    }

    private void sampleSafely() {
        try {
            sampleNow();
        } catch (IOException | RuntimeException e) {
            LOG.warn("sampling {} failed: {}", what, e.toString());
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
                LOG.warn("final sample of {} failed: {}", what, e.toString());
            }
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("closing the {} file failed: {}", what, e.toString());
            }
        }
    }
}
