package dev.meshbench.dataplane.cli;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.dataplane.BoundAddresses;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Entry point of {@code dataplane.jar}: {@code sidecar}, {@code egress-gateway} or {@code sni-proxy}. Bad input
 * prints one line naming the option and exits 2; a port in use exits 2 naming component, listener and port.
 */
public final class DataplaneMain {
    private DataplaneMain() {
    }

    public static void main(String[] args) {
        configureLogging();
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("help") || args[0].equals("-h")) {
            (args.length == 0 ? System.err : System.out).print(Usage.GENERAL);
            System.exit(args.length == 0 ? ComponentMain.EXIT_START_FAILED : 0);
            return;
        }
        Optional<Command> command = Command.byWord(args[0]);
        if (command.isEmpty()) {
            usageError("dataplane", "unknown command '" + args[0] + "' (use sidecar, egress-gateway or sni-proxy)");
            return;
        }
        Command c = command.get();
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        CommandLineReader.LaunchPlan plan;
        try {
            plan = CommandLineReader.read(c, rest);
        } catch (UsageException e) {
            usageError("dataplane " + c.word(), e.getMessage());
            return;
        }
        if (plan.help()) {
            System.out.print(Usage.of(c));
            return;
        }
        run(plan);
    }

    private static void run(CommandLineReader.LaunchPlan plan) {
        String name = plan.config().name();
        if (plan.exitOnStdinEof()) {
            ComponentMain.exitWhenStdinCloses(name);
        }
        DataplaneBootstrap bootstrap = new DataplaneBootstrap(plan.config());
        BoundAddresses bound;
        try {
            bound = bootstrap.start();
        } catch (ListenerBindException e) {
            ComponentMain.fail(name, e.operation(), e.getCause());
            return;
        } catch (RuntimeException e) {
            ComponentMain.fail(name, "starting", e);
            return;
        }
        List<String> fields = new ArrayList<>(List.of("address", BoundAddresses.text(bound.admin())));
        bound.listeners().forEach((listener, address) -> {
            fields.add("listener." + listener);
            fields.add(BoundAddresses.text(address));
        });
        ReadyLine.of(name, fields.toArray(String[]::new)).print();
        ComponentMain.awaitShutdown(name, bootstrap::close);
    }

    private static void usageError(String prefix, String message) {
        System.err.println(prefix + ": " + message + " (see --help)");
        System.err.flush();
        System.exit(ComponentMain.EXIT_START_FAILED);
    }

    /** slf4j-simple defaults for a component process: stderr, timestamps, thread names off, Netty quiet. */
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
