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
 * @param cold the components the switch (re)started as new JVMs, whose JIT starts over (on a cluster the services'
 *             pods a changed pod template restarted; locally a Netty relay started or restarted): the sitting warms
 *             them up again before it measures
 */
public record Switch(EgressCase from, EgressCase to, Duration took, List<String> done, List<String> cold) {
    public Switch {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(took, "took");
        done = List.copyOf(done);
        cold = List.copyOf(cold);
    }

    /** A switch that started no JVM anew. */
    public Switch(EgressCase from, EgressCase to, Duration took, List<String> done) {
        this(from, to, took, done, List.of());
    }

    /** {@link #took} in seconds, to the millisecond. */
    public double seconds() {
        return took.toMillis() / 1000.0;
    }
}
