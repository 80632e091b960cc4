package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.PathRoutes;
import dev.meshbench.dataplane.config.Upstream;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code --route} value of the ingress gateway: {@code [METHOD ]PATH=HOST:PORT[,upstream-name=NAME]}, e.g.
 * {@code GET /customer/byid/{id}=127.0.0.1:41002,upstream-name=sidecar-customer} (that method and path only, a
 * {@code {name}} segment matching any one segment) or {@code /auth=127.0.0.1:41001} (a prefix: any method, anything
 * below it). An error quotes the spec and says what is wrong.
 */
public final class PathRouteSpecConverter implements ITypeConverter<PathRoutes.Route> {
    static final String SYNTAX = "[METHOD ]PATH=HOST:PORT[,upstream-name=NAME]";
    private static final Set<String> KEYS = Set.of("upstream-name");

    @Override
    public PathRoutes.Route convert(String spec) {
        try {
            return route(spec);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + spec + "': " + e.getMessage());
        }
    }

    static PathRoutes.Route route(String spec) {
        int comma = spec.indexOf(',');
        String head = comma < 0 ? spec : spec.substring(0, comma);
        int eq = head.indexOf('=');
        if (eq <= 0 || eq == head.length() - 1) {
            throw new IllegalArgumentException("a route is " + SYNTAX);
        }
        Map<String, String> kv = comma < 0 ? Map.of() : KeyValues.parse(spec.substring(comma + 1), KEYS);
        Upstream upstream = Upstream.of(HostAndPort.parse(head.substring(eq + 1).trim()), kv.get("upstream-name"));
        String target = head.substring(0, eq).trim();
        int space = target.indexOf(' ');
        return space < 0 ? new PathRoutes.Route(target, upstream)
                : new PathRoutes.Route(target.substring(0, space), target.substring(space + 1).trim(), upstream);
    }
}
