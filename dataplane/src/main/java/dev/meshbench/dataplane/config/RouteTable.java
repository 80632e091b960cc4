package dev.meshbench.dataplane.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Maps TLS server names to upstreams, as nginx's {@code ssl_preread} + {@code map} or an Istio {@code tls} route
 * with {@code sniHosts} would. Patterns:
 * <ul>
 *   <li>{@code mongo.meshbench.test}: that name only (case-insensitive, a trailing dot ignored);</li>
 *   <li>{@code *.meshbench.test}: any name ending in {@code .meshbench.test}, at any depth (not the bare suffix);</li>
 *   <li>{@code *}: any name (a catch-all).</li>
 * </ul>
 * An exact name wins over wildcards, a longer wildcard suffix over a shorter one, and {@code *} comes last.
 * Netty's {@code DomainWildcardMappingBuilder} is not used: its {@code *.} matches one label only and it has no
 * {@code *}, where these patterns match at any depth.
 */
public final class RouteTable {
    /** One pattern and its upstream. */
    public record Route(String pattern, Upstream upstream) {
        public Route {
            Objects.requireNonNull(upstream, "upstream");
            pattern = normalizePattern(pattern);
        }

        boolean isWildcard() {
            return pattern.startsWith("*");
        }

        /** The part a name must end with (including the leading dot), or "" for the catch-all. */
        String suffix() {
            return pattern.substring(1);
        }
    }

    private final Map<String, Route> exact = new LinkedHashMap<>();
    private final List<Route> wildcards;
    private final List<Route> routes;

    public RouteTable(List<Route> routes) {
        if (routes == null || routes.isEmpty()) {
            throw new IllegalArgumentException("a route table needs at least one route");
        }
        List<Route> wild = new ArrayList<>();
        Map<String, Route> seen = new LinkedHashMap<>();
        for (Route r : routes) {
            if (seen.putIfAbsent(r.pattern(), r) != null) {
                throw new IllegalArgumentException("route pattern " + r.pattern() + " is given twice");
            }
            if (r.isWildcard()) {
                wild.add(r);
            } else {
                exact.put(r.pattern(), r);
            }
        }
        wild.sort(Comparator.comparingInt((Route r) -> r.suffix().length()).reversed());
        this.wildcards = List.copyOf(wild);
        this.routes = List.copyOf(routes);
    }

    public static RouteTable of(String pattern, Upstream upstream) {
        return new RouteTable(List.of(new Route(pattern, upstream)));
    }

    /** The upstream for a server name, if a pattern matches. */
    public Optional<Route> match(String serverName) {
        if (serverName == null || serverName.isEmpty()) {
            return Optional.empty();
        }
        String name = DnsNames.normalize(serverName);
        Route r = exact.get(name);
        if (r != null) {
            return Optional.of(r);
        }
        for (Route w : wildcards) {
            String suffix = w.suffix();
            if (suffix.isEmpty() || (name.length() > suffix.length() && name.endsWith(suffix))) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }

    /** The routes in the order they were given. */
    public List<Route> routes() {
        return routes;
    }

    static String normalizePattern(String pattern) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("route pattern must not be empty");
        }
        String p = DnsNames.normalize(pattern.trim());
        if (p.equals("*")) {
            if (!pattern.trim().equals("*")) {
                throw new IllegalArgumentException("route pattern must be a host name, *.<domain> or * (got '" + pattern + "')");
            }
            return p;
        }
        String name = p.startsWith("*.") ? p.substring(2) : p;
        if (name.indexOf('*') >= 0 || !DnsNames.isHostName(name)) {
            throw new IllegalArgumentException("route pattern must be a host name, *.<domain> or * (got '" + pattern + "')");
        }
        return p;
    }

    /** Tables with the same routes in the same order are equal (a listener whose routes did not change is unchanged). */
    @Override
    public boolean equals(Object o) {
        return o instanceof RouteTable other && routes.equals(other.routes);
    }

    @Override
    public int hashCode() {
        return routes.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Route r : routes) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(r.pattern()).append(" -> ").append(r.upstream().describe());
        }
        return b.toString();
    }
}
