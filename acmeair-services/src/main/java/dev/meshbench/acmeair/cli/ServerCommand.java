package dev.meshbench.acmeair.cli;

import dev.meshbench.acmeair.ServiceStartException;
import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.component.cli.ComponentOptions;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The start-up every serving command of {@code acmeair-services.jar} shares (a service, a graph node, {@code all}):
 * options checked by picocli (bad input: {@code <component>: reading options failed: <option> ...}, exit 2), the
 * stdin watch, one line and exit 2 when the server does not start, the ready line once it listens, and the server
 * kept for {@code main} to close at shutdown.
 */
public abstract class ServerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ComponentOptions component;

    private String name;
    private AutoCloseable server;

    /** The component's name and the server {@link #call} started, for {@code main} to wait on and close. */
    public record Serving(String name, AutoCloseable server) {
    }

    public final Optional<Serving> serving() {
        return server == null ? Optional.empty() : Optional.of(new Serving(name, server));
    }

    public final boolean exitOnStdinEof() {
        return component.exitOnStdinEof();
    }

    /** Exits the process when stdin closes, if {@code --exit-on-stdin-eof} asks for it. */
    final void watchStdin(String component) {
        if (exitOnStdinEof()) {
            ComponentMain.exitWhenStdinCloses(component);
        }
    }

    /** Keeps {@code server} for {@code main} and prints the ready line, when there is one. */
    final int serving(String component, AutoCloseable started, ReadyLine ready) {
        this.name = component;
        this.server = started;
        if (ready != null) {
            PrintWriter out = spec.commandLine().getOut();
            out.println(ready);
            out.flush();
        }
        return 0;
    }

    /** {@code <component>: <what> failed: <cause>} on stderr; exit code 2. */
    final int failed(String component, String what, Throwable cause) {
        Throwable root = cause instanceof ServiceStartException && cause.getCause() != null ? cause.getCause() : cause;
        PrintWriter err = spec.commandLine().getErr();
        err.println(ComponentMain.failureLine(component, what, root));
        err.flush();
        return ComponentMain.EXIT_START_FAILED;
    }
}
