package dev.meshbench.dataplane;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where a started component really listens (port 0 resolved).
 *
 * @param admin     the admin HTTP endpoint
 * @param listeners listener name to bound address, in configuration order
 */
public record BoundAddresses(InetSocketAddress admin, Map<String, InetSocketAddress> listeners) {
    public BoundAddresses {
        Objects.requireNonNull(admin, "admin");
        listeners = Collections.unmodifiableMap(new LinkedHashMap<>(listeners));
    }

    /** The bound address of a listener; throws naming the listener when there is none. */
    public InetSocketAddress listener(String name) {
        InetSocketAddress a = listeners.get(name);
        if (a == null) {
            throw new IllegalArgumentException("no listener named " + name + " (have " + listeners.keySet() + ")");
        }
        return a;
    }

    /** {@code host:port} of an address, as the ready line prints it. */
    public static String text(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }
}
