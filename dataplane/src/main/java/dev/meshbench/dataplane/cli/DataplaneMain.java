package dev.meshbench.dataplane.cli;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.cli.ComponentCommandLine;
import dev.meshbench.dataplane.DataplaneBootstrap;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of {@code dataplane.jar}: {@code sidecar}, {@code egress-gateway}, {@code sni-proxy} or
 * {@code ingress-gateway}. Bad input
 * prints one line naming the option and exits 2; a port in use exits 2 naming component, listener and port.
 * Once every port is bound it prints the ready line and serves until SIGINT/SIGTERM (or stdin EOF with
 * {@code --exit-on-stdin-eof}):
 * {@code MESHBENCH-READY component=NAME address=HOST:ADMINPORT listener.<name>=HOST:PORT ... tls-provider=boringssl|jdk}.
 */
public final class DataplaneMain {
    /** Ready-line key of the resolved TLS provider ({@code boringssl} or {@code jdk}). */
    public static final String READY_TLS_PROVIDER = "tls-provider";

    private DataplaneMain() {
    }

    /** Outcome of {@link #launch}: an exit code, or a running component. */
    public record Launch(int exitCode, DataplaneBootstrap running) {
        static Launch exit(int code) {
            return new Launch(code, null);
        }
    }

    public static void main(String[] args) {
        configureLogging();
        Launch launch = launch(args, System.out, System.err, true);
        if (launch.running() == null) {
            System.exit(launch.exitCode());
            return;
        }
        DataplaneBootstrap running = launch.running();
        ComponentMain.awaitShutdown(running.config().name(), running::close);
    }

    /**
     * Parses, starts and prints the ready line, without exiting the JVM (tests call this).
     *
     * @param watchStdin whether {@code --exit-on-stdin-eof} may install the stdin watcher
     */
    public static Launch launch(String[] args, PrintStream out, PrintStream err, boolean watchStdin) {
        DataplaneCommand command = new DataplaneCommand(watchStdin);
        CommandLine cli = commandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return command.running == null ? Launch.exit(code) : new Launch(0, command.running);
    }

    /** The command line: bad input is one line, {@code dataplane <command>: <what is wrong> (see --help)}, exit 2. */
    static CommandLine commandLine(DataplaneCommand command) {
        CommandLine cli = new CommandLine(command);
        cli.setUsageHelpWidth(120);
        return ComponentCommandLine.configure(cli, System.getenv(),
                (failed, message) -> failed.getCommandSpec().qualifiedName() + ": " + message + " (see --help)");
    }

    /** slf4j-simple defaults for a component process: stderr, timestamps, short logger names, Netty quiet. */
    private static void configureLogging() {
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        setDefault("org.slf4j.simpleLogger.showThreadName", "false");
        setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
        setDefault("org.slf4j.simpleLogger.log.io.netty", "warn");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
