package dev.meshbench.acmeair.cli;

import dev.meshbench.component.cli.ComponentCommandLine;
import java.util.Map;
import picocli.CommandLine;

/** The one way {@code acmeair-services.jar}'s commands read options: picocli, environment fallbacks, one error line. */
public final class AcmeairCommandLine {
    private AcmeairCommandLine() {
    }

    /** Bad input: {@code <command>: reading options failed: <option> <what is wrong>} on stderr, exit 2. */
    public static CommandLine configure(CommandLine cli, Map<String, String> environment) {
        return ComponentCommandLine.configure(cli, environment,
                (failed, message) -> failed.getCommandName() + ": reading options failed: " + message);
    }
}
