package dev.meshbench.model;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The four Acmeair services, callees before callers (the order they start in), with the Acmeair call graph
 * (auth -> customer; booking -> flight, customer) and the readiness check each one serves.
 */
public enum Service {
    CUSTOMER,
    FLIGHT,
    AUTH(CUSTOMER),
    BOOKING(FLIGHT, CUSTOMER);

    private final List<Service> calls;

    Service(Service... calls) {
        this.calls = List.of(calls);
    }

    /** The lower-case name: the service's component name, its URL prefix {@code /<id>} and its ready line's name. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The services this one calls, in the order it calls them. */
    public List<Service> calls() {
        return calls;
    }

    /**
     * The readiness check the service serves, {@code GET /<id>/ready}: 200 once it serves (and, for a service that
     * keeps data, reached MongoDB), 503 before. Public at the entry on purpose (it reads no user data).
     */
    public String readyPath() {
        return "/" + id() + "/ready";
    }

    /** Every service id, callees before callers. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(Service::id).toList();
    }

    /** Looks a service up by its id, with an error that lists the known ones. */
    public static Service byId(String id) {
        return Arrays.stream(values()).filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown service '" + id + "' (expected one of " + Arrays.stream(values()).map(Service::id).collect(Collectors.joining(", ")) + ")"));
    }
}
