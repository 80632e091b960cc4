package dev.meshbench.component;

import dev.meshbench.model.Service;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Acmeair API a client uses: the one list of what the kit's entry serves (an allowlist). The orchestrator's plan
 * routes exactly these at the ingress gateway on both local data planes (the Netty entry's {@code --route}s, the
 * Envoy entry's routes), and {@code istio-config/base/ingress.yaml}'s VirtualService is checked against it. Anything
 * else (the services' {@code internal} calls between services, their {@code loader} and {@code config} paths,
 * {@code /flight/getrewardmiles}, {@code /metrics}) is not routed at the entry: it answers 404 there.
 *
 * <p>The list is what the kit's JMeter plan and the original Acmeair driver call, plus each service's readiness
 * check ({@link Service#readyPath()}, {@code GET /<svc>/ready}), kept public on purpose: it reads no user data and changes nothing, and the kit
 * checks each service's route through the entry with it before the load starts (on a cluster, the VirtualService
 * reaches Istio's gateway some time after it is applied).
 */
public final class AcmeairApi {
    /** The methods a route may name. */
    public static final Set<String> METHODS = Set.of("GET", "POST");
    /** What one {@code {name}} segment of a path template matches (RE2 and {@code java.util.regex} alike). */
    public static final String SEGMENT_REGEX = "[^/]+";
    private static final Pattern TEMPLATE = Pattern.compile("(/([A-Za-z0-9._~-]+|\\{[a-z]+\\}))+");

    /**
     * One operation.
     *
     * @param method {@code GET} or {@code POST}
     * @param path   a path template: literal segments, and {@code {name}} for any one non-empty segment
     *               ({@code /customer/byid/{custid}}); its first segment is the service
     */
    public record Operation(String method, String path) {
        public Operation {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
            if (!METHODS.contains(method)) {
                throw new IllegalArgumentException("API operation " + method + " " + path + ": method must be one of " + METHODS);
            }
            if (!TEMPLATE.matcher(path).matches() || path.startsWith("/{")) {
                throw new IllegalArgumentException("API operation " + method + " " + path + ": path must be /service followed by "
                        + "literal segments or {name} segments");
            }
        }

        /** The service the path belongs to: its first segment. */
        public String service() {
            int slash = path.indexOf('/', 1);
            return slash < 0 ? path.substring(1) : path.substring(1, slash);
        }

        /** Whether the path has a {@code {name}} segment (else it is matched exactly). */
        public boolean isTemplate() {
            return path.contains("{");
        }

        /** The path as a regular expression matching the whole path: each {@code {name}} becomes {@link #SEGMENT_REGEX}. */
        public String regex() {
            return path.replaceAll("\\{[a-z]+\\}", java.util.regex.Matcher.quoteReplacement(SEGMENT_REGEX)).replace(".", "\\.");
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** Every operation the entry serves, by service in the order of a client's session. */
    public static final List<Operation> PUBLIC = List.of(
            new Operation("POST", "/auth/login"),
            new Operation("GET", "/auth/logout"),
            new Operation("GET", Service.AUTH.readyPath()),
            new Operation("GET", "/customer/byid/{custid}"),
            new Operation("POST", "/customer/byid/{custid}"),
            new Operation("GET", "/customer/byid/{custid}/rewards"),
            new Operation("GET", Service.CUSTOMER.readyPath()),
            new Operation("POST", "/flight/queryflights"),
            new Operation("GET", Service.FLIGHT.readyPath()),
            new Operation("POST", "/booking/bookflights"),
            new Operation("GET", "/booking/byuser/{user}"),
            new Operation("GET", "/booking/byuser/{user}/count"),
            new Operation("POST", "/booking/cancelbooking"),
            new Operation("GET", Service.BOOKING.readyPath()));

    /**
     * The kit's own MongoDB switch on a service's port ({@code PUT} the new connection string, {@code GET} the current
     * one), served only with the service's {@code --allow-mongo-switch}: never part of {@link #PUBLIC}, so the entry
     * never routes it. The kit calls it on the service's own address to move a warm deployment between bypass and the
     * mesh cases.
     */
    public static final String MONGO_SWITCH_PATH = "/admin/mongo";

    private AcmeairApi() {
    }

    /** The public operations of one service, in {@link #PUBLIC}'s order. */
    public static List<Operation> of(String service) {
        return PUBLIC.stream().filter(o -> o.service().equals(service)).toList();
    }
}
