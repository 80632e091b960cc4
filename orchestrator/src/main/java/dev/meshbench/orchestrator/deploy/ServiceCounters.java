package dev.meshbench.orchestrator.deploy;

import dev.meshbench.component.AcmeairApi;
import dev.meshbench.results.WorkCounters;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A service's work counters ({@link WorkCounters}) from its own {@code /metrics} (Micrometer's Prometheus text), read
 * the same way on every target: MongoDB commands its driver sent (health pings left out), calls to other services,
 * client API requests served and the time they took.
 */
public final class ServiceCounters {
    /**
     * A service's timer series that serve the client API ({@link AcmeairApi#PUBLIC}: what the entry routes), not the
     * calls between services, the loaders or {@code /metrics}: Micrometer's labels name the method and the route's
     * template ({@code uri="/customer/byid/{custid}"}).
     */
    public static final Predicate<String> CLIENT_API = labels -> AcmeairApi.PUBLIC.stream()
            .anyMatch(o -> labels.contains("method=\"" + o.method() + "\"") && labels.contains("uri=\"" + o.path() + "\""));

    private ServiceCounters() {
    }

    /** The counters in one reading of a service's {@code /metrics}, cumulative. */
    public static Map<String, Double> of(String metrics) {
        return Map.of(
                WorkCounters.MONGO_COMMANDS, PrometheusText.sum(metrics, "mongodb_driver_commands_seconds_count", "command", "ping"),
                WorkCounters.INTER_SERVICE_CALLS, PrometheusText.sum(metrics, "http_client_requests_seconds_count", null, null),
                WorkCounters.API_REQUESTS, PrometheusText.sum(metrics, "http_server_requests_seconds_count", CLIENT_API),
                // micro-seconds, so that counters.csv's whole numbers keep the timer's sub-millisecond resolution
                WorkCounters.API_MICROS, PrometheusText.sum(metrics, "http_server_requests_seconds_sum", CLIENT_API) * 1e6);
    }
}
