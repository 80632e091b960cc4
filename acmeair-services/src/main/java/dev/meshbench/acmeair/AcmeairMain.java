package dev.meshbench.acmeair;

import dev.meshbench.acmeair.cli.AcmeairCommandLine;
import dev.meshbench.acmeair.cli.AllCommand;
import dev.meshbench.acmeair.cli.GraphNodeCommand;
import dev.meshbench.acmeair.cli.JwtKeysCommand;
import dev.meshbench.acmeair.cli.ServerCommand;
import dev.meshbench.acmeair.cli.ServiceCommand;
import dev.meshbench.acmeair.config.ServiceName;
import dev.meshbench.component.ComponentMain;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * Entry point of {@code acmeair-services.jar}:
 *
 * <pre>
 * java -jar acmeair-services.jar auth|customer|flight|booking [options]   one service (see ServiceCommand)
 * java -jar acmeair-services.jar all [--base-port 9080] [--customers N] [--days N]   everything in one JVM, for people
 * java -jar acmeair-services.jar jwt-keys --dir DIR                        writes jwt-private.pem and jwt-public.pem
 * java -jar acmeair-services.jar graph-node --graph FILE --service NAME --port P [options]
 *                                                  one service of a mock service graph (see GraphNodeCommand)
 * </pre>
 *
 * A service prints {@code MESHBENCH-READY component=<service> address=127.0.0.1:<port> metrics=/metrics
 * ready=/<service>/ready} once it listens (a graph node: {@code ready=/health/ready}); bad options or a start failure
 * print one line on stderr and exit with 2.
 */
@Command(name = "acmeair-services", synopsisSubcommandLabel = "<command>",
        description = "Acmeair's four services, the all-in-one launcher, and the mock service graph's nodes.",
        footer = {"", "Run 'java -jar acmeair-services.jar <command> --help' for the options of a command."})
public final class AcmeairMain implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    private AcmeairMain() {
    }

    public static void main(String[] args) {
        quietLibraries();
        CommandLine cli = commandLine(System.getenv());
        int code = cli.execute(args);
        Optional<ServerCommand.Serving> serving = serving(cli.getParseResult());
        if (serving.isEmpty()) {
            System.exit(code);
            return;
        }
        AutoCloseable server = serving.get().server();
        ComponentMain.awaitShutdown(serving.get().name(), () -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println(serving.get().name() + ": closing failed: " + ComponentMain.describe(e));
            }
        });
    }

    /** Every command: the four services, {@code all}, {@code jwt-keys}, {@code graph-node}, {@code help}. */
    static CommandLine commandLine(Map<String, String> environment) {
        CommandLine cli = new CommandLine(new AcmeairMain());
        for (ServiceName name : ServiceName.values()) {
            cli.addSubcommand(name.id(), new ServiceCommand(name));
        }
        cli.addSubcommand(new AllCommand());
        cli.addSubcommand(new JwtKeysCommand());
        cli.addSubcommand(new GraphNodeCommand());
        cli.addSubcommand(new HelpCommand());
        return AcmeairCommandLine.configure(cli, environment);
    }

    private static Optional<ServerCommand.Serving> serving(ParseResult parsed) {
        if (parsed == null || !parsed.hasSubcommand()) {
            return Optional.empty();
        }
        return parsed.subcommand().commandSpec().userObject() instanceof ServerCommand s ? s.serving() : Optional.empty();
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ComponentMain.EXIT_START_FAILED;
    }

    /** Library chatter (per-connection and start-up INFO lines) stays off stderr unless asked for. */
    static void quietLibraries() {
        for (String logger : new String[] {"de.bwaldvogel.mongo", "org.eclipse.jetty", "io.javalin"}) {
            String key = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "warn");
            }
        }
    }
}
