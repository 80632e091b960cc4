package dev.meshbench.orchestrator.local;

import dev.meshbench.component.LoopbackPorts;
import dev.meshbench.orchestrator.deploy.TargetException;
import dev.meshbench.orchestrator.plan.ComponentPlan;
import dev.meshbench.orchestrator.plan.Endpoint;
import dev.meshbench.orchestrator.plan.ListenerPlan;
import dev.meshbench.orchestrator.plan.TopologyPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The loopback port of every listener of a plan, and of every proxy's admin endpoint, fixed before anything
 * starts so each component's configuration can name its upstreams.
 *
 * @param listeners port per listener
 * @param admin     admin port per proxy component
 */
public record LocalAddresses(Map<Endpoint, Integer> listeners, Map<String, Integer> admin) {
    public static final String HOST = "127.0.0.1";

    public LocalAddresses {
        listeners = Collections.unmodifiableMap(new LinkedHashMap<>(listeners));
        admin = Collections.unmodifiableMap(new LinkedHashMap<>(admin));
    }

    /** Reserves free ports below the kernel's ephemeral range for every listener and admin endpoint of the plan. */
    public static LocalAddresses reserve(TopologyPlan plan) {
        return reserve(List.of(plan));
    }

    /**
     * Reserves free ports below the kernel's ephemeral range for every listener and admin endpoint of any of the plans:
     * a listener of the same component and name gets one port, whichever plans have it, so a deployment switched between
     * them keeps its ports.
     */
    public static LocalAddresses reserve(List<TopologyPlan> plans) {
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        for (TopologyPlan plan : plans) {
            for (ComponentPlan c : plan.components()) {
                for (ListenerPlan l : c.listeners()) {
                    keys.add(new Endpoint(c.name(), l.name()).toString());
                }
                if (c.kind().isProxy()) {
                    keys.add(c.name() + "#admin");
                }
            }
        }
        Map<String, Integer> ports;
        try {
            ports = LoopbackPorts.reserve(new ArrayList<>(keys));
        } catch (IllegalStateException e) {
            throw new TargetException(e.getMessage(), e);
        }
        Map<Endpoint, Integer> listeners = new LinkedHashMap<>();
        Map<String, Integer> admin = new LinkedHashMap<>();
        for (TopologyPlan plan : plans) {
            for (ComponentPlan c : plan.components()) {
                for (ListenerPlan l : c.listeners()) {
                    Endpoint e = new Endpoint(c.name(), l.name());
                    listeners.put(e, ports.get(e.toString()));
                }
                if (c.kind().isProxy()) {
                    admin.put(c.name(), ports.get(c.name() + "#admin"));
                }
            }
        }
        return new LocalAddresses(listeners, admin);
    }

    public int port(Endpoint e) {
        return Objects.requireNonNull(listeners.get(e), () -> "no port assigned to " + e);
    }

    public int port(String component, String listener) {
        return port(new Endpoint(component, listener));
    }

    /** {@code 127.0.0.1:<port>} of a listener. */
    public String address(Endpoint e) {
        return HOST + ":" + port(e);
    }

    public int adminPort(String component) {
        return Objects.requireNonNull(admin.get(component), () -> "no admin port assigned to " + component);
    }
}
