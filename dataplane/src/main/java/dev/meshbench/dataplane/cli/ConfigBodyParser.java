package dev.meshbench.dataplane.cli;

import dev.meshbench.component.cli.ComponentCommandLine;
import dev.meshbench.dataplane.ConfigParser;
import dev.meshbench.dataplane.ConfigRevision;
import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ConfigRefusedException;
import dev.meshbench.dataplane.config.ConfigVersion;
import dev.meshbench.dataplane.config.ListenerConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Reads the body of {@code PUT /config}: the running command's own arguments, one per line, exactly as its command line
 * takes them after the command name (which may lead the body if it is the running command's). They are parsed by the same
 * picocli command class into the same validated {@link ComponentConfig}; then:
 * <ul>
 *   <li>the command's listener options ({@link ProxyCommand#listenerOptions()}) are the new configuration: absent means
 *       their default, as on a command line;</li>
 *   <li>every other option is fixed while the process runs: given, it must equal what the process was started with
 *       (a path compared as an absolute, normalized path), else the configuration is refused (409) naming it; absent,
 *       it keeps the running value (so the body may carry the full command line, or just the listener options);</li>
 *   <li>{@code --config-version}, if given, must equal the request's {@code ?version=}.</li>
 * </ul>
 * Unparsable or invalid input is refused (400) with the command line's own one-line message naming the option.
 * {@code @file} arguments are not expanded: the body is the whole configuration.
 */
final class ConfigBodyParser implements ConfigParser {
    private final ProxyCommand running;
    private final String command;

    ConfigBodyParser(ProxyCommand running) {
        this.running = Objects.requireNonNull(running, "running");
        this.command = running.spec.name();
    }

    @Override
    public ConfigRevision parse(ConfigVersion version, String body) throws ConfigRefusedException {
        List<String> args = arguments(body);
        ParseResult parsed;
        try {
            CommandLine cli = DataplaneMain.commandLine(new DataplaneCommand(false));
            cli.setExpandAtFiles(false);
            parsed = cli.parseArgs(args.toArray(String[]::new)).subcommand();
        } catch (ParameterException e) {
            throw ConfigRefusedException.badInput(command + ": " + ComponentCommandLine.describe(e));
        }
        if (parsed.isUsageHelpRequested()) {
            throw ConfigRefusedException.badInput(command + ": --help is not a configuration");
        }
        CommandSpec next = parsed.commandSpec();
        for (OptionSpec option : next.options()) {
            String name = option.longestName();
            if (option.usageHelp() || option.versionHelp() || running.listenerOptions().contains(name)) {
                continue;
            }
            if (name.equals(ProxyOptions.CONFIG_VERSION)) {
                if (parsed.hasMatchedOption(option) && !version.equals(option.getValue())) {
                    throw ConfigRefusedException.badInput(command + ": " + name + " " + option.getValue()
                            + " disagrees with ?version=" + version + " (the version of a new configuration is its ?version=)");
                }
                continue;
            }
            Object was = running.spec.findOption(name).getValue();
            if (!parsed.hasMatchedOption(option)) {
                option.setValue(was);
            } else if (!same(was, option.getValue())) {
                throw ConfigRefusedException.conflict(command + ": " + name + " cannot change while the process runs (started "
                        + (was == null || Boolean.FALSE.equals(was) ? "without it" : "with " + shown(was)) + ", the body gives "
                        + (Boolean.TRUE.equals(option.getValue()) ? "it" : shown(option.getValue())) + "); only "
                        + String.join(", ", running.listenerOptions()) + " can; restart the process to change it");
            }
        }
        ProxyCommand proxy = (ProxyCommand) next.userObject();
        ComponentConfig config;
        try {
            refuseMtlsWithoutMaterial(next, proxy.listeners());
            config = proxy.config();
        } catch (ParameterException e) {
            throw ConfigRefusedException.badInput(command + ": " + ComponentCommandLine.describe(e));
        } catch (IllegalArgumentException e) {
            throw ConfigRefusedException.badInput(command + ": " + e.getMessage());
        }
        return new ConfigRevision(version, config, proxy.listenerSpecs(config.listeners(), parsed));
    }

    /** The body's lines (CR LF or LF; empty lines skipped), with this command's name in front. */
    private List<String> arguments(String body) throws ConfigRefusedException {
        List<String> lines = new ArrayList<>(Arrays.stream(body.split("\r?\n", -1)).filter(l -> !l.isEmpty()).toList());
        if (lines.isEmpty()) {
            throw ConfigRefusedException.badInput(command + ": the body is empty; it is the command's arguments, one per line");
        }
        String first = lines.get(0);
        if (first.equals(command)) {
            lines.remove(0);
        } else if (!first.startsWith("-") && running.parent.spec.subcommands().containsKey(first)) {
            throw ConfigRefusedException.conflict("the body is for " + first + ", this process runs " + command);
        }
        lines.add(0, command);
        return lines;
    }

    /**
     * A listener with mutual TLS in a process started without the TLS files cannot be applied (its TLS contexts are built
     * at start): a conflict, not the command line's "--ca-file is required".
     */
    private void refuseMtlsWithoutMaterial(CommandSpec next, List<ListenerConfig> listeners) throws ConfigRefusedException {
        OptionSpec caFile = next.findOption(TlsFileOptions.CA_FILE);
        if (caFile == null || caFile.getValue() != null) {
            return;
        }
        for (ListenerConfig l : listeners) {
            if (l.usesMtls()) {
                throw ConfigRefusedException.conflict(command + ": listener " + l.name() + " uses mutual TLS (" + l.tlsMode()
                        + "), but the process was started without " + TlsFileOptions.CA_FILE + ", " + TlsFileOptions.CERT_FILE + " and "
                        + TlsFileOptions.KEY_FILE + "; restart it with them");
            }
        }
    }

    private static boolean same(Object was, Object given) {
        if (was instanceof Path a && given instanceof Path b) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
        return Objects.equals(was, given);
    }

    /** {@code 'value'} as it would be written: a drain time in seconds. */
    private static String shown(Object value) {
        if (Boolean.TRUE.equals(value)) {
            return "it";
        }
        if (value instanceof Duration d) {
            return "'" + BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString() + "'";
        }
        return "'" + value + "'";
    }
}
