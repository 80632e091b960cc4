package dev.meshbench.orchestrator.run;

import dev.meshbench.model.SittingControl;
import dev.meshbench.orchestrator.deploy.TargetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The control file of a sitting's one JMeter ({@link SittingControl}: which phase the samples started from now on
 * belong to, the arrival rate, and when to stop). Each change is a whole new file moved over the old one, so the plan
 * never reads half of one; the plan reads it again when it changes.
 */
public final class LoadControl {
    private final Path file;
    private volatile String phase;
    private volatile double rate;

    private LoadControl(Path file) {
        this.file = file;
    }

    /** A control file at {@code file} saying {@code phase} at {@code rate} requests per second (0: a closed loop). */
    public static LoadControl create(Path file, String phase, double rate) {
        LoadControl c = new LoadControl(file);
        c.set(phase, rate);
        return c;
    }

    public Path file() {
        return file;
    }

    /** The phase samples started now are labelled with. */
    public String phase() {
        return phase;
    }

    /** Samples started from now on belong to {@code phase}, sent at {@code rate} requests per second (0: a closed loop). */
    public synchronized void set(String phase, double rate) {
        write(new SittingControl(phase, rate, false));
        this.phase = phase;
        this.rate = rate;
    }

    /** Every client stops after its current sample, and JMeter ends by itself. */
    public synchronized void stop() {
        write(new SittingControl(phase, rate, true));
    }

    private void write(SittingControl control) {
        String text = control.text();
        Path tmp = file.resolveSibling(file.getFileName() + ".next");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new TargetException("writing the load's control file " + file + " failed: " + e.getMessage(), e);
        }
    }
}
