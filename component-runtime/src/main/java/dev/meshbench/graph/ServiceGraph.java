package dev.meshbench.graph;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A mock service graph in the spirit of Istio's isotope {@code MockServiceGraph}: services, which of them clients call
 * ({@link #entrypoints()}), and what each does per request. Read one with {@link ServiceGraphReader}, which checks
 * what this record does not: calls name services of the graph, and calls form no cycle.
 *
 * @param source   where it was read from (a file name), for messages
 * @param services in file order; names are unique
 */
public record ServiceGraph(String source, List<GraphService> services) {

    public ServiceGraph {
        Objects.requireNonNull(source, "source");
        services = List.copyOf(services);
        Map<String, GraphService> seen = new LinkedHashMap<>();
        for (GraphService s : services) {
            if (seen.put(s.name(), s) != null) {
                throw new IllegalArgumentException(source + ": duplicate service name '" + s.name() + "'");
            }
        }
    }

    /** The services with {@code isEntrypoint: true}, in file order. */
    public List<GraphService> entrypoints() {
        return services.stream().filter(GraphService::entrypoint).toList();
    }

    /** The service with this name, or empty. */
    public Optional<GraphService> service(String name) {
        return services.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The services {@code name} calls, each once, in the order of their first call; empty for an unknown name. */
    public List<String> callees(String name) {
        return service(name).map(GraphService::callees).orElse(List.of());
    }

    /** The names of all services, in file order. */
    public List<String> names() {
        return services.stream().map(GraphService::name).toList();
    }

    /** Bytes of body {@code call} sends: its own size, or the callee's {@code requestSize}. */
    public long requestSize(Step.Call call) {
        if (call.size().isPresent()) {
            return call.size().getAsLong();
        }
        return service(call.service()).orElseThrow(() -> new IllegalArgumentException(
                source + ": call to '" + call.service() + "', which is not a service of this graph")).requestSize();
    }
}
