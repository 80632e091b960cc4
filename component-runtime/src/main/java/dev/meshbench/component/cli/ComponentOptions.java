package dev.meshbench.component.cli;

import picocli.CommandLine.Option;

/** The options every component command has (a picocli mixin): {@code --exit-on-stdin-eof} and {@code --help}. */
public final class ComponentOptions {
    @Option(names = "--exit-on-stdin-eof", description = "Exit when stdin closes (the orchestrator keeps a pipe open).")
    boolean exitOnStdinEof;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    public boolean exitOnStdinEof() {
        return exitOnStdinEof;
    }
}
