package dev.meshbench.dataplane.cli;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.dataplane.BoundAddresses;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Entry point of {@code dataplane.jar}: {@code sidecar}, {@code egress-gateway} or {@code sni-proxy}. Bad input
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
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("help") || args[0].equals("-h")) {
            (args.length == 0 ? err : out).print(Usage.GENERAL);
            return Launch.exit(args.length == 0 ? ComponentMain.EXIT_START_FAILED : 0);
        }
        Optional<Command> command = Command.byWord(args[0]);
        if (command.isEmpty()) {
            return usageError(err, "dataplane", "unknown command '" + args[0] + "' (use sidecar, egress-gateway or sni-proxy)");
        }
        Command c = command.get();
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        CommandLineReader.LaunchPlan plan;
        try {
            plan = CommandLineReader.read(c, rest);
        } catch (UsageException e) {
            return usageError(err, "dataplane " + c.word(), e.getMessage());
        }
        if (plan.help()) {
            out.print(Usage.of(c));
            return Launch.exit(0);
        }
        String name = plan.config().name();
        if (plan.exitOnStdinEof() && watchStdin) {
            ComponentMain.exitWhenStdinCloses(name);
        }
        DataplaneBootstrap bootstrap = new DataplaneBootstrap(plan.config());
        BoundAddresses bound;
        try {
            bound = bootstrap.start();
        } catch (ListenerBindException e) {
            return startFailure(err, name, e.operation(), e.getCause());
        } catch (RuntimeException e) {
            return startFailure(err, name, "starting", e);
        }
        List<String> fields = new ArrayList<>(List.of("address", BoundAddresses.text(bound.admin())));
        bound.listeners().forEach((listener, address) -> {
            fields.add("listener." + listener);
            fields.add(BoundAddresses.text(address));
        });
        // Last, so the fields before it stay where they were.
        fields.add(READY_TLS_PROVIDER);
        fields.add(bootstrap.tlsProvider().word());
        out.println(ReadyLine.of(name, fields.toArray(String[]::new)));
        out.flush();
        return new Launch(0, bootstrap);
    }

    private static Launch usageError(PrintStream err, String prefix, String message) {
        err.println(prefix + ": " + message + " (see --help)");
        err.flush();
        return Launch.exit(ComponentMain.EXIT_START_FAILED);
    }

    /** Same one-line shape as {@link ComponentMain#fail}: {@code <component>: <what> failed: <cause>}. */
    private static Launch startFailure(PrintStream err, String component, String what, Throwable cause) {
        err.println(component + ": " + what + " failed: " + ComponentMain.describe(cause));
        err.flush();
        return Launch.exit(ComponentMain.EXIT_START_FAILED);
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
