package dev.meshbench.orchestrator.local;

import dev.meshbench.orchestrator.deploy.Component;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How to start one component process and tell when it serves.
 *
 * @param component its name and role
 * @param command   the full command line (program first)
 * @param readiness how the supervisor knows it serves
 */
public record ProcessSpec(Component component, List<String> command, Readiness readiness) {
    public ProcessSpec {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(readiness, "readiness");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("component " + component.name() + " has an empty command");
        }
    }

    /** A kit component: it prints its own {@code MESHBENCH-READY} line. */
    public ProcessSpec(Component component, List<String> command) {
        this(component, command, new Readiness.ReadyLinePrinted());
    }

    /** How a component shows it serves. */
    public sealed interface Readiness {
        /** The component prints {@code MESHBENCH-READY ...} on stdout (every kit component). */
        record ReadyLinePrinted() implements Readiness {
        }

        /** An HTTP GET answers 200 (Envoy's admin {@code /ready}). */
        record HttpOk(URI uri) implements Readiness {
            public HttpOk {
                Objects.requireNonNull(uri, "uri");
            }
        }

        /**
         * A check of the kit's own, polled until it passes (Envoy: its admin {@code /ready} answers and it has applied
         * the configuration pushed to it).
         *
         * @param address where the component serves, {@code host:port} (its ready line's {@code address})
         * @param what    what passing means, without spaces (its ready line's {@code ready})
         * @param unmet   one look: empty when the check passes, else what is missing, said when it never passes
         */
        record Polled(String address, String what, Supplier<Optional<String>> unmet) implements Readiness {
            public Polled {
                Objects.requireNonNull(address, "address");
                Objects.requireNonNull(what, "what");
                Objects.requireNonNull(unmet, "unmet");
            }
        }

        /** A TCP port accepts connections (nginx). */
        record PortOpen(String host, int port) implements Readiness {
            public PortOpen {
                Objects.requireNonNull(host, "host");
            }
        }
    }
}
