package dev.meshbench.acmeair.config;

import dev.meshbench.model.Service;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The four Acmeair services as this module implements them: the kit's {@link Service} (name, call graph, readiness
 * path) and, when it keeps data, its database. Each owns the URL prefix {@code /<name>}.
 */
public enum ServiceName {
    AUTH(Service.AUTH, null),
    CUSTOMER(Service.CUSTOMER, "acmeair_customer"),
    FLIGHT(Service.FLIGHT, "acmeair_flight"),
    BOOKING(Service.BOOKING, "acmeair_booking");

    private final Service service;
    private final String database;

    ServiceName(Service service, String database) {
        this.service = service;
        this.database = database;
    }

    /** Lower-case name, as on the command line and in the ready line. */
    public String id() {
        return service.id();
    }

    /** {@code /auth}, {@code /customer}, ... */
    public String prefix() {
        return "/" + id();
    }

    /** Path of the readiness endpoint: the model's {@link Service#readyPath()}. */
    public String readyPath() {
        return service.readyPath();
    }

    /** The service's database, or null for auth, which keeps no data (as in Acmeair's JWT version). */
    public String database() {
        return database;
    }

    public boolean keepsData() {
        return database != null;
    }

    public static ServiceName parse(String s) {
        for (ServiceName n : values()) {
            if (n.id().equals(s)) {
                return n;
            }
        }
        throw new IllegalArgumentException("unknown service '" + s + "' (expected one of "
                + Arrays.stream(values()).map(ServiceName::id).collect(Collectors.joining(", ")) + ")");
    }
}
