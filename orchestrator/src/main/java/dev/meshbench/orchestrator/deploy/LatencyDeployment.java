package dev.meshbench.orchestrator.deploy;

import dev.meshbench.results.DataPlaneInfo;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/** A latency cell deployed and ready on some target; closing it tears it down, and closing twice is harmless. */
public interface LatencyDeployment extends AutoCloseable {
    /** Where the load generator sends, one URI per replica of the first hop; connections are spread over them. */
    List<URI> targets();

    /** Every component's cumulative CPU now. */
    List<ResourceSample> sampleResources();

    /**
     * The JIT's work so far, ms, of every component that is a HotSpot JVM, by name (as {@link Deployment#jitMillis});
     * empty where the target cannot say.
     */
    default java.util.Map<String, Double> jitMillis() {
        return java.util.Map.of();
    }

    /**
     * Every component's CPU so far, ms, when it is read fresh enough to judge a warm-up window of 10 s by; empty where
     * it is not.
     */
    default java.util.OptionalDouble warmupCpuMillis() {
        List<ResourceSample> s = sampleResources();
        return s.isEmpty() ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(s.stream().mapToDouble(ResourceSample::cpuMillis).sum());
    }

    /** Set once a component has died on its own. */
    Optional<String> failure();

    /** The data plane as deployed, {@code planned} completed with what the components reported. */
    DataPlaneInfo dataPlane(DataPlaneInfo planned);

    /**
     * How the cell applied last came onto a deployment that already ran the one before it, in words for the cell's
     * results (from which cell, what was started, restarted, reconfigured and stopped, and that the rest ran on warm);
     * empty when the deployment was started for this cell.
     */
    default Optional<String> appliedOver() {
        return Optional.empty();
    }

    @Override
    void close();
}
