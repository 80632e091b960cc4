package dev.meshbench.orchestrator.plan;

import java.util.Objects;

/**
 * A listener of a component in the same plan, by name: plans refer to each other's listeners this way and get
 * real addresses only when a target assigns ports.
 *
 * @param component component name ({@code mongo}, {@code sidecar-booking})
 * @param listener  listener name within it ({@code mongo}, {@code inbound})
 */
public record Endpoint(String component, String listener) {
    public Endpoint {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(listener, "listener");
    }

    @Override
    public String toString() {
        return component + "/" + listener;
    }
}
