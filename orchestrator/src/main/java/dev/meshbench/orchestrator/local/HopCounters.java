package dev.meshbench.orchestrator.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.meshbench.results.WorkCounters;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * A mesh component's byte counters for {@code counters.csv}, from its per-listener stats
 * ({@link LocalDeployment#stats}: {@code listeners.<name>.bytesClientToUpstream} and {@code bytesUpstreamToClient},
 * the same shape for the Netty relays, Envoy and nginx): {@link WorkCounters#LISTENER_BYTES} over all its listeners,
 * and {@link WorkCounters#MONGO_PATH_BYTES} over those of its listeners that receive a service's MongoDB connection.
 * Both come from one reading, so a sidecar's MongoDB share of its bytes is never taken from two different moments.
 */
final class HopCounters {
    private HopCounters() {
    }

    /**
     * The counters of one component's stats.
     *
     * @param stats          the component's stats JSON, parsed
     * @param mongoListeners its listeners on a MongoDB path (none for a component off the path)
     * @return {@code listenerBytes}, and {@code mongoPathBytes} when one of {@code mongoListeners} is in the stats
     */
    static Map<String, Double> of(JsonNode stats, Collection<String> mongoListeners) {
        Map<String, Double> out = new TreeMap<>();
        JsonNode listeners = stats.path("listeners");
        double all = 0;
        for (var it = listeners.fields(); it.hasNext(); ) {
            all += bytes(it.next().getValue());
        }
        out.put(WorkCounters.LISTENER_BYTES, all);
        for (String name : mongoListeners) {
            JsonNode l = listeners.path(name);
            if (!l.isMissingNode()) {
                out.merge(WorkCounters.MONGO_PATH_BYTES, bytes(l), Double::sum);
            }
        }
        return out;
    }

    private static double bytes(JsonNode listener) {
        return listener.path("bytesClientToUpstream").asDouble() + listener.path("bytesUpstreamToClient").asDouble();
    }
}
