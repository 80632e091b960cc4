package dev.meshbench.orchestrator.cli;

import dev.meshbench.orchestrator.deploy.TargetException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar meshbench.jar <command>}: the kit's command line. */
@Command(name = "meshbench", mixinStandardHelpOptions = true, version = "meshbench 0.1.0",
        description = "Measure what a service mesh data plane costs the Acmeair app on a TLS MongoDB.",
        subcommands = {RunCommand.class, UpCommand.class, RenderCommand.class, LoadCommand.class})
public final class MeshbenchMain {
    private MeshbenchMain() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line: bad input (a bad setting, a missing binary) is one line naming it, and exit status 2. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new MeshbenchMain());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof TargetException || e instanceof IllegalArgumentException || e instanceof java.io.UncheckedIOException) {
                cmd.getErr().println("meshbench: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        return cli;
    }
}
