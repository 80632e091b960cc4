package dev.meshbench.acmeair.graph;

import dev.meshbench.graph.GraphService;
import dev.meshbench.graph.ServiceGraph;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one graph node needs to start: its service in the graph, where it listens, and where each of its callees
 * is.
 *
 * @param graph      the whole graph (callees' request sizes come from it)
 * @param service    the service this node serves
 * @param host       address to bind
 * @param port       port to bind, 0 for a free one
 * @param callees    every callee of {@code service} to its URLs (at least one; several are used round-robin)
 * @param pauseEvery every this many requests one waits {@code pauseMs} before it answers; 0 for never
 * @param pauseMs    that wait
 */
public record GraphNodeConfig(ServiceGraph graph, GraphService service, String host, int port, Map<String, List<URI>> callees,
        int pauseEvery, long pauseMs) {
    /** Where a callee without {@code --call} is: its Kubernetes Service, on port 8080. */
    public static final int DEFAULT_CALLEE_PORT = 8080;

    public GraphNodeConfig {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(host, "host");
        Map<String, List<URI>> copy = new LinkedHashMap<>();
        callees.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        callees = Collections.unmodifiableMap(copy);
        for (String callee : service.callees()) {
            if (callees.getOrDefault(callee, List.of()).isEmpty()) {
                throw new IllegalArgumentException(service.name() + " calls " + callee + " but has no URL for it");
            }
        }
    }

    /**
     * Checks the options against the graph: the service must be in it, and {@code --call} may name only the service's
     * callees; the others get {@code http://<callee>:8080/}.
     *
     * @throws IllegalArgumentException naming the option, the value and the graph
     */
    public static GraphNodeConfig of(GraphNodeOptions options, ServiceGraph graph) {
        GraphService service = graph.service(options.service()).orElseThrow(() -> new IllegalArgumentException("--service '"
                + options.service() + "' is not a service of " + graph.source() + " (services: " + String.join(", ", graph.names()) + ")"));
        List<String> callees = service.callees();
        Map<String, List<URI>> urls = new LinkedHashMap<>();
        for (Map.Entry<String, List<URI>> e : options.calls().entrySet()) {
            if (!callees.contains(e.getKey())) {
                throw new IllegalArgumentException("--call " + e.getKey() + ": " + service.name() + " does not call " + e.getKey()
                        + " in " + graph.source() + " (it calls: " + (callees.isEmpty() ? "nothing" : String.join(", ", callees)) + ")");
            }
        }
        for (String callee : callees) {
            urls.put(callee, options.calls().getOrDefault(callee, List.of(URI.create("http://" + callee + ":" + DEFAULT_CALLEE_PORT + "/"))));
        }
        return new GraphNodeConfig(graph, service, options.host(), options.port(), urls, options.pauseEvery(), options.pauseMs());
    }
}
