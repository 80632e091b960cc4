package dev.meshbench.orchestrator.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the local target runs a case.
 *
 * @param jars          the component jars
 * @param logDir        where each component's log goes ({@code <name>.log}); per-run keys and certificates go
 *                      to a private temporary folder instead, deleted at teardown, so archived results hold no key
 * @param readyTimeout  how long one component may take to print its ready line
 * @param customers     customers to load
 * @param flightDays    days of flights to load
 */
public record LocalTargetConfig(ComponentJars jars, Path logDir, Duration readyTimeout, int customers, int flightDays) {
    public LocalTargetConfig {
        Objects.requireNonNull(jars, "jars");
        Objects.requireNonNull(logDir, "logDir");
        Objects.requireNonNull(readyTimeout, "readyTimeout");
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("ready timeout (" + readyTimeout + ") must be positive");
        }
        if (customers < 1) {
            throw new IllegalArgumentException("customers (" + customers + ") must be positive");
        }
        if (flightDays < 1) {
            throw new IllegalArgumentException("flight days (" + flightDays + ") must be positive");
        }
    }
}
