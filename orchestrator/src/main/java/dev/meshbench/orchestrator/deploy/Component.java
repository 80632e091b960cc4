package dev.meshbench.orchestrator.deploy;

import dev.meshbench.results.ComponentRole;
import java.util.Objects;

/**
 * A running part of a deployed case.
 *
 * @param name unique within the deployment: {@code mongo}, {@code booking}, {@code sidecar-booking},
 *             {@code egress-gateway}, {@code sni-proxy}
 * @param role what its CPU counts as
 */
public record Component(String name, ComponentRole role) {
    public Component {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
    }
}
