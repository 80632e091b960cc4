package dev.meshbench.orchestrator.deploy;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the load generator reaches the Acmeair services: through one entry that routes by path (the ingress gateway),
 * or each service's sidecar inbound listener (on a cluster: a port-forward to each service).
 *
 * @param services base URL per service name ({@code auth}, {@code customer}, {@code flight}, {@code booking})
 * @param entry    the one URL every service is reached at, when there is one: what the original Acmeair driver's
 *                 {@code HOST} and {@code PORT} point to
 */
public record Endpoints(Map<String, URI> services, Optional<URI> entry) {
    public Endpoints {
        services = java.util.Collections.unmodifiableMap(new TreeMap<>(services));
        Objects.requireNonNull(entry, "entry");
        if (entry.isPresent()) {
            for (Map.Entry<String, URI> e : services.entrySet()) {
                if (!e.getValue().equals(entry.get())) {
                    throw new IllegalArgumentException("service " + e.getKey() + " is reached at " + e.getValue()
                            + ", not through the entry " + entry.get());
                }
            }
        }
    }

    /** Each service at its own URL, no common entry. */
    public Endpoints(Map<String, URI> services) {
        this(services, Optional.empty());
    }

    /** Every service through {@code entry}. */
    public static Endpoints through(URI entry, Iterable<String> services) {
        Map<String, URI> m = new TreeMap<>();
        services.forEach(svc -> m.put(svc, entry));
        return new Endpoints(m, Optional.of(entry));
    }

    public URI service(String name) {
        return Objects.requireNonNull(services.get(name), () -> "no endpoint for service " + name + "; have " + services.keySet());
    }
}
