package dev.meshbench.orchestrator.deploy;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where the kit itself reaches each Acmeair service for what no client may do, such as loading the database
 * ({@code /customer/loader/load}, {@code /flight/loader/load}): each service's own port, never the entry, which serves
 * only the client API ({@code AcmeairApi.PUBLIC}). On the local target the service's port on 127.0.0.1; on a cluster a
 * port-forward to the service's Service.
 *
 * @param services base URL per service name ({@code auth}, {@code customer}, {@code flight}, {@code booking})
 */
public record AdminEndpoints(Map<String, URI> services) {
    public AdminEndpoints {
        services = java.util.Collections.unmodifiableMap(new TreeMap<>(services));
    }

    /** The base URL of {@code service}; names the service and what there is when it has none. */
    public URI service(String name) {
        URI u = services.get(name);
        if (u == null) {
            throw new TargetException("no admin endpoint for service " + name + "; have " + services.keySet());
        }
        return u;
    }

    /** Refuses an admin endpoint that is the load's entry: what a client can reach. */
    public AdminEndpoints checkedAgainst(Endpoints load) {
        Objects.requireNonNull(load, "load");
        load.entry().ifPresent(entry -> services.forEach((svc, u) -> {
            if (u.equals(entry)) {
                throw new IllegalArgumentException("the admin endpoint of " + svc + " is the entry " + entry + ", which clients reach");
            }
        }));
        return this;
    }
}
