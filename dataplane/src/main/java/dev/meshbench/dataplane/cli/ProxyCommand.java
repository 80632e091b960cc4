package dev.meshbench.dataplane.cli;

import dev.meshbench.component.ComponentMain;
import dev.meshbench.component.ReadyLine;
import dev.meshbench.component.cli.ComponentOptions;
import dev.meshbench.dataplane.BoundAddresses;
import dev.meshbench.dataplane.ConfigRevision;
import dev.meshbench.dataplane.DataplaneBootstrap;
import dev.meshbench.dataplane.ListenerBindException;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ListenerConfig;
import dev.meshbench.dataplane.config.TlsMaterial;
import dev.meshbench.dataplane.config.TlsProvider;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * One proxy command ({@code sidecar}, {@code egress-gateway}, {@code sni-proxy}, {@code ingress-gateway}): checks its options into a
 * {@link ComponentConfig}, starts it, and prints the ready line once every port is bound. The running component then takes
 * new listener configurations on {@code PUT /config}, its body read by {@link ConfigBodyParser} with this same class.
 */
abstract class ProxyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    DataplaneCommand parent;

    @Mixin
    ProxyOptions common;

    @Mixin
    ComponentOptions component;

    /** The command's listeners; @throws IllegalArgumentException naming the option */
    abstract List<ListenerConfig> listeners();

    /** The TLS material the listeners need, or {@code null}; @throws IllegalArgumentException naming the option */
    abstract TlsMaterial tls(boolean needed);

    /**
     * The options that shape the listeners, the only ones {@code PUT /config} may change (in the order a listener's
     * spec lists them); every other option is fixed while the process runs.
     */
    abstract List<String> listenerOptions();

    /**
     * What defined each listener, as given, for {@code GET /config}: here, for a command with one listener, its listener
     * options in the order of {@link #listenerOptions()} ({@code --listen-port 0 --route *.meshbench.test=127.0.0.1:27017});
     * a value with a space is quoted.
     */
    Map<String, String> listenerSpecs(List<ListenerConfig> listeners, ParseResult parsed) {
        StringBuilder b = new StringBuilder();
        for (String option : listenerOptions()) {
            if (parsed == null || !parsed.hasMatchedOption(option)) {
                continue;
            }
            for (String value : parsed.matchedOption(option).originalStringValues()) {
                if (b.length() > 0) {
                    b.append(' ');
                }
                b.append(option).append(' ').append(value.contains(" ") ? "'" + value + "'" : value);
            }
        }
        Map<String, String> specs = new LinkedHashMap<>();
        listeners.forEach(l -> specs.put(l.name(), b.toString()));
        return specs;
    }

    /** What the options describe; bad input is a {@link ParameterException} naming the option. */
    final ComponentConfig config() {
        try {
            if (common.name == null || common.name.isBlank()) {
                throw new IllegalArgumentException("--name is required");
            }
            List<ListenerConfig> listeners = listeners();
            TlsMaterial tls = tls(listeners.stream().anyMatch(ListenerConfig::usesMtls));
            return new ComponentConfig(common.name, common.bindHost, common.adminPort, common.ioThreads, listeners, tls, tlsProvider(),
                    common.drainTime);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * Checked here, so that {@code boringssl} where BoringSSL is not usable is bad input, not a start failure; kept
     * as given ({@code auto} stays {@code auto}), so that the component logs what auto chose when it starts.
     */
    private TlsProvider tlsProvider() {
        try {
            TlsProvider requested = TlsProvider.parse(common.tlsProvider);
            requested.resolve();
            return requested;
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public Integer call() {
        ComponentConfig config = config();
        String name = config.name();
        if (component.exitOnStdinEof() && parent.watchStdin) {
            ComponentMain.exitWhenStdinCloses(name);
        }
        DataplaneBootstrap bootstrap = new DataplaneBootstrap(new ConfigRevision(common.configVersion, config,
                listenerSpecs(config.listeners(), spec.commandLine().getParseResult())));
        bootstrap.acceptConfigBodies(new ConfigBodyParser(this));
        BoundAddresses bound;
        try {
            bound = bootstrap.start();
        } catch (ListenerBindException e) {
            return startFailure(name, e.operation(), e.getCause());
        } catch (RuntimeException e) {
            return startFailure(name, "starting", e);
        }
        List<String> fields = new ArrayList<>(List.of("address", BoundAddresses.text(bound.admin())));
        bound.listeners().forEach((listener, address) -> {
            fields.add("listener." + listener);
            fields.add(BoundAddresses.text(address));
        });
        // Last, so the fields before it stay where they were.
        fields.add(DataplaneMain.READY_TLS_PROVIDER);
        fields.add(bootstrap.tlsProvider().word());
        PrintWriter out = spec.commandLine().getOut();
        out.println(ReadyLine.of(name, fields.toArray(String[]::new)));
        out.flush();
        parent.running = bootstrap;
        return 0;
    }

    /** Same one-line shape as {@link ComponentMain#fail}: {@code <component>: <what> failed: <cause>}. */
    private int startFailure(String component, String what, Throwable cause) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(ComponentMain.failureLine(component, what, cause));
        err.flush();
        return ComponentMain.EXIT_START_FAILED;
    }
}
