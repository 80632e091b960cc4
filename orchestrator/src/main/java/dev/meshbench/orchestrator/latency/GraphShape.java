package dev.meshbench.orchestrator.latency;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the planner needs of a service graph: its name, its services callees first, who calls whom, and the
 * entrypoint clients call.
 *
 * @param name         the graph's name (the file's base name)
 * @param calleesFirst every service, each after the services it calls
 * @param calls        callees by caller (services that call nothing may be absent)
 * @param entrypoint   the service clients call
 */
public record GraphShape(String name, List<String> calleesFirst, Map<String, List<String>> calls, String entrypoint) {
    public GraphShape {
        Objects.requireNonNull(name, "name");
        calleesFirst = List.copyOf(calleesFirst);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        calls.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        calls = java.util.Collections.unmodifiableMap(copy);
        if (!calleesFirst.contains(entrypoint)) {
            throw new IllegalArgumentException("graph " + name + ": entrypoint " + entrypoint + " is not one of its services " + calleesFirst);
        }
        for (int i = 0; i < calleesFirst.size(); i++) {
            for (String callee : calls.getOrDefault(calleesFirst.get(i), List.of())) {
                int at = calleesFirst.indexOf(callee);
                if (at < 0 || at >= i) {
                    throw new IllegalArgumentException("graph " + name + ": " + calleesFirst.get(i) + " calls " + callee
                            + ", which is not a service listed before it");
                }
            }
        }
    }

    public List<String> callees(String service) {
        return calls.getOrDefault(service, List.of());
    }
}
