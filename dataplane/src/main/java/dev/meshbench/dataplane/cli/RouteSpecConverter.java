package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.HostAndPort;
import dev.meshbench.dataplane.config.RouteTable;
import dev.meshbench.dataplane.config.Upstream;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code --route} value of the egress gateway and the SNI proxy: {@code PATTERN=HOST:PORT[,upstream-name=NAME]},
 * PATTERN a host name, {@code *.domain} or {@code *}. An error quotes the spec and says what is wrong.
 */
public final class RouteSpecConverter implements ITypeConverter<RouteTable.Route> {
    private static final Set<String> KEYS = Set.of("upstream-name");

    @Override
    public RouteTable.Route convert(String spec) {
        try {
            return route(spec);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + spec + "': " + e.getMessage());
        }
    }

    static RouteTable.Route route(String spec) {
        int comma = spec.indexOf(',');
        String head = comma < 0 ? spec : spec.substring(0, comma);
        int eq = head.indexOf('=');
        if (eq <= 0 || eq == head.length() - 1) {
            throw new IllegalArgumentException("a route is PATTERN=HOST:PORT[,upstream-name=NAME]");
        }
        Map<String, String> kv = comma < 0 ? Map.of() : KeyValues.parse(spec.substring(comma + 1), KEYS);
        return new RouteTable.Route(head.substring(0, eq), Upstream.of(HostAndPort.parse(head.substring(eq + 1)), kv.get("upstream-name")));
    }
}
