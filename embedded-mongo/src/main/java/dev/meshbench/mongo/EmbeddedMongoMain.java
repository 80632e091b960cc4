package dev.meshbench.mongo;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.component.cli.ComponentCommandLine;
import dev.meshbench.component.cli.ComponentOptions;
import dev.meshbench.component.cli.Converters;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The embedded TLS MongoDB as its own process:
 *
 * <pre>
 * java -jar embedded-mongo.jar --host 127.0.0.1 --port 0 --dir DIR --server-name mongo.meshbench.test [--exit-on-stdin-eof]
 * </pre>
 *
 * Prints {@code MESHBENCH-READY component=mongo address=127.0.0.1:<port> ca=<abs path> server-name=<name>} once it
 * serves, then runs until SIGINT/SIGTERM (or stdin EOF with {@code --exit-on-stdin-eof}). Bad arguments or a
 * failed bind: one line on stderr, exit code 2.
 */
@Command(name = "embedded-mongo", sortOptions = false,
        description = "An in-memory MongoDB (wire protocol) behind TLS with a per-run CA, written to --dir.",
        footer = {"", "Ready line on stdout once serving:",
            "  MESHBENCH-READY component=mongo address=HOST:PORT ca=<DIR>/mongo-ca.pem server-name=NAME"})
public final class EmbeddedMongoMain implements Callable<Integer> {
    static final String COMPONENT = "mongo";

    @Option(names = "--host", paramLabel = "HOST", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", converter = Converters.Port.class,
            description = "Port to bind; 0 (default) for a free one.")
    int port;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where mongo-ca.pem is written (required).")
    Path dir;

    @Option(names = "--server-name", paramLabel = "NAME",
            description = "Host name in the server certificate, the name clients use for SNI (default: ${DEFAULT-VALUE}).")
    String serverName = EmbeddedMongoConfig.DEFAULT_SERVER_NAME;

    @Mixin
    ComponentOptions component;

    @Spec
    CommandSpec spec;

    /** The server once {@link #call} started it. */
    EmbeddedTlsMongo running;

    public static void main(String[] args) {
        // one INFO line per client connection is noise for a load test; warnings stay
        if (System.getProperty("org.slf4j.simpleLogger.log.de.bwaldvogel.mongo") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.de.bwaldvogel.mongo", "warn");
        }
        EmbeddedMongoMain command = new EmbeddedMongoMain();
        int code = commandLine(command, System.getenv()).execute(args);
        if (command.running == null) {
            System.exit(code);
            return;
        }
        ComponentMain.awaitShutdown(COMPONENT, command.running::close);
    }

    static CommandLine commandLine(EmbeddedMongoMain command, Map<String, String> environment) {
        return ComponentCommandLine.configure(new CommandLine(command), environment,
                (failed, message) -> COMPONENT + ": reading arguments failed: " + message + " (see --help)");
    }

    /** The server's settings; bad ones are a {@link ParameterException} naming the option. */
    EmbeddedMongoConfig config() {
        if (dir == null) {
            throw new ParameterException(spec.commandLine(), "--dir is required (where mongo-ca.pem is written)");
        }
        try {
            return new EmbeddedMongoConfig(host, port, dir, serverName);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    @Override
    public Integer call() {
        EmbeddedMongoConfig config = config();
        if (component.exitOnStdinEof()) {
            ComponentMain.exitWhenStdinCloses(COMPONENT);
        }
        try {
            running = EmbeddedTlsMongo.start(config);
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println(ComponentMain.failureLine(COMPONENT, "starting on " + config.host() + ":" + config.port(), e));
            spec.commandLine().getErr().flush();
            return ComponentMain.EXIT_START_FAILED;
        }
        ReadyLine.of(COMPONENT, "address", running.hostAndPort(), "ca", running.caFile().toString(),
                "server-name", running.serverName()).print();
        return 0;
    }
}
