package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.target.Component;
import java.util.List;
import java.util.Objects;

/**
 * How to start one component process.
 *
 * @param component its name and role
 * @param command   the full command line (program first)
 */
public record ProcessSpec(Component component, List<String> command) {
    public ProcessSpec {
        Objects.requireNonNull(component, "component");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("component " + component.name() + " has an empty command");
        }
    }
}
