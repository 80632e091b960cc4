package dev.meshbench.orchestrator.deploy;

import dev.meshbench.model.EgressCase;
import dev.meshbench.results.DataPlaneInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The application deployed on one target with one case applied; a deployment prepared for several cases switches
 * between them while it runs ({@link #apply}). Closing it tears everything down; closing twice is harmless.
 */
public interface Deployment extends AutoCloseable {
    /** The case applied now. */
    EgressCase egressCase();

    /**
     * Switches to case {@code next} while everything runs, as the mesh's control plane would, and returns once every
     * proxy and service it touched confirmed its part (read from the component itself); the deployment must have been
     * prepared for {@code next} ({@link Target#deploy(EgressCase, java.util.List, java.nio.file.Path)}).
     *
     * @throws TargetException naming the component that did not take its part: the case must not be measured
     */
    default Switch apply(EgressCase next) {
        throw new UnsupportedOperationException("this deployment cannot switch cases while it runs");
    }


    /** Blocks until every component serves and the database is loaded, or throws naming what is not ready. */
    void awaitReady(Duration timeout);

    /** Where the load generator sends requests. Valid after {@link #awaitReady}. */
    Endpoints endpoints();

    /** Where the kit reaches each service's own port (its loaders), never the entry. Valid after {@link #awaitReady}. */
    AdminEndpoints serviceAdmin();

    /** The components of this deployment, in start order. */
    List<Component> components();

    /** Reads CPU and memory of every running component now. */
    List<ResourceSample> sampleResources();

    /**
     * Per-hop counters of each mesh component as JSON (connections and bytes per listener), by component name;
     * empty where the target cannot say.
     */
    default java.util.Map<String, String> hopStats() {
        return java.util.Map.of();
    }

    /**
     * Cumulative counters of the application's work now, as {@code component -> counter -> value}
     * ({@link dev.meshbench.results.WorkCounters}): per service {@code mongoCommands} and {@code interServiceCalls}
     * (from its Micrometer metrics), per mesh component {@code listenerBytes} (all its listeners, both directions)
     * and, for the first mesh hop on a service's MongoDB path, {@code mongoPathBytes} (that listener, both
     * directions), so the converter can apportion a sidecar's CPU. Empty where the target cannot say; a component
     * that does not answer is left out.
     */
    default java.util.Map<String, java.util.Map<String, Double>> workCounters() {
        return java.util.Map.of();
    }

    /** How often {@link #workCounters()} is read while a run measures: often enough that a window's edges are bracketed closely. */
    default java.time.Duration workCounterInterval() {
        return java.time.Duration.ofSeconds(2);
    }

    /**
     * The JIT's work so far, milliseconds, of every component that is a HotSpot JVM, by component name: its compiler
     * threads' CPU time where the platform shows it, else its total compilation time. The warm-up watches it go quiet. Empty where the target cannot say (then the warm-up judges by throughput and CPU
     * alone, and says so).
     */
    default java.util.Map<String, Double> jitMillis() {
        return java.util.Map.of();
    }

    /**
     * The data plane as deployed: {@code planned} (what the target knew before anything started) completed with what
     * the components reported when they started, such as the TLS provider the Netty relays chose.
     */
    default DataPlaneInfo dataPlane(DataPlaneInfo planned) {
        return planned;
    }

    /** The cluster the case runs on, for the run's inputs; empty on the local target. */
    default Optional<dev.meshbench.results.ClusterInfo> cluster() {
        return Optional.empty();
    }

    /** Set once a component has died on its own: which one, and how. */
    Optional<String> failure();

    @Override
    void close();
}
