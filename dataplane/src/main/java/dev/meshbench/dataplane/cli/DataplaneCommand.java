package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.DataplaneBootstrap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code java -jar dataplane.jar <command>}: the local data plane's proxies. Without a command: usage, exit 2. */
@Command(name = "dataplane", synopsisSubcommandLabel = "<command>",
        description = "The meshbench local data plane: Netty TCP relays and an HTTP ingress router, with per-hop counters.",
        subcommands = {SidecarCommand.class, EgressGatewayCommand.class, SniProxyCommand.class, IngressGatewayCommand.class,
            HelpCommand.class},
        footer = {"", "Run 'java -jar dataplane.jar <command> --help' for the options of a command."})
final class DataplaneCommand implements Callable<Integer> {
    static final String READY_LINE_HELP = "Ready line on stdout once serving (tls-provider is the resolved one, never auto):";
    static final String READY_LINE = "  MESHBENCH-READY component=NAME address=HOST:ADMINPORT listener.<name>=HOST:PORT ... tls-provider=boringssl|jdk";

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    /** Whether {@code --exit-on-stdin-eof} may install the stdin watcher (not in tests). */
    final boolean watchStdin;

    /** The proxy a command started. */
    DataplaneBootstrap running;

    DataplaneCommand(boolean watchStdin) {
        this.watchStdin = watchStdin;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return dev.meshbench.component.ComponentMain.EXIT_START_FAILED;
    }
}
