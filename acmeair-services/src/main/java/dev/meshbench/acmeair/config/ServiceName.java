package dev.meshbench.acmeair.config;

import dev.meshbench.component.AcmeairApi;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The four Acmeair services. Each owns the URL prefix {@code /<name>} and, when it keeps data, one database. */
public enum ServiceName {
    AUTH(null),
    CUSTOMER("acmeair_customer"),
    FLIGHT("acmeair_flight"),
    BOOKING("acmeair_booking");

    private final String database;

    ServiceName(String database) {
        this.database = database;
    }

    /** Lower-case name, as on the command line and in the ready line. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code /auth}, {@code /customer}, ... */
    public String prefix() {
        return "/" + id();
    }

    /** Path of the readiness endpoint (public at the entry on purpose, see {@link AcmeairApi}). */
    public String readyPath() {
        return AcmeairApi.readyPath(id());
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
