package dev.meshbench.dataplane.config;

import java.util.Objects;

/**
 * Where a listener relays to, with the name people know it by (used in logs: {@code upstream 127.0.0.1:40123
 * (egress-gateway) connect failed}).
 *
 * @param address     where to connect
 * @param displayName role of the upstream; defaults to the address
 */
public record Upstream(HostAndPort address, String displayName) {
    public Upstream {
        Objects.requireNonNull(address, "address");
        if (displayName == null || displayName.isBlank()) {
            displayName = address.toString();
        }
        if (displayName.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("upstream name must not contain spaces (got '" + displayName + "')");
        }
    }

    public static Upstream of(HostAndPort address) {
        return new Upstream(address, null);
    }

    public static Upstream of(HostAndPort address, String displayName) {
        return new Upstream(address, displayName);
    }

    /** {@code 127.0.0.1:40123 (egress-gateway)}, or just the address when it has no other name. */
    public String describe() {
        String a = address.toString();
        return displayName.equals(a) ? a : a + " (" + displayName + ")";
    }
}
