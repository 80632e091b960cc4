package dev.meshbench.orchestrator.deploy;

import dev.meshbench.model.EgressCase;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One switch of a running deployment from one case to the next ({@link Deployment#apply}), as it went.
 *
 * @param from what was applied before
 * @param to   what is applied now
 * @param took from the first change to the last confirmation
 * @param done what changed, in words, in the order it was done
 */
public record Switch(EgressCase from, EgressCase to, Duration took, List<String> done) {
    public Switch {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(took, "took");
        done = List.copyOf(done);
    }

    /** {@link #took} in seconds, to the millisecond. */
    public double seconds() {
        return took.toMillis() / 1000.0;
    }
}
