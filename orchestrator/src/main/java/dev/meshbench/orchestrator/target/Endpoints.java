package dev.meshbench.orchestrator.target;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where the load generator reaches the Acmeair services (on the local target: each service's sidecar inbound
 * listener; on a cluster: the ingress gateway).
 *
 * @param services base URL per service name ({@code auth}, {@code customer}, {@code flight}, {@code booking})
 */
public record Endpoints(Map<String, URI> services) {
    public Endpoints {
        services = java.util.Collections.unmodifiableMap(new TreeMap<>(services));
    }

    public URI service(String name) {
        return Objects.requireNonNull(services.get(name), () -> "no endpoint for service " + name + "; have " + services.keySet());
    }
}
