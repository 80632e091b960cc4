package dev.meshbench.dataplane.config;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A host (name or IP literal) and a TCP port, as an upstream is written on the command line:
 * {@code 127.0.0.1:27017}, {@code mongo.local:27017} or {@code [::1]:27017}.
 *
 * @param host host name or IP literal, without brackets
 * @param port 1-65535
 */
public record HostAndPort(String host, int port) {
    public HostAndPort {
        Objects.requireNonNull(host, "host");
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("host must be non-empty without spaces (got '" + host + "')");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port of " + host + " must be 1-65535 (got " + port + ")");
        }
    }

    /** Parses {@code host:port} or {@code [v6]:port}. */
    public static HostAndPort parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("address must be host:port (got an empty value)");
        }
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new IllegalArgumentException("address must be host:port (got '" + text + "')");
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("IPv6 address must be bracketed as [addr]:port (got '" + text + "')");
        }
        return new HostAndPort(host, Ports.parse(t.substring(colon + 1), "port of " + text, 1));
    }

    public static HostAndPort of(InetSocketAddress address) {
        return new HostAndPort(address.getHostString(), address.getPort());
    }

    /** An unresolved socket address; Netty resolves it when connecting. */
    public InetSocketAddress toSocketAddress() {
        return InetSocketAddress.createUnresolved(host, port);
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
