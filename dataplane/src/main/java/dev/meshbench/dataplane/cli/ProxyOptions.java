package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.ConfigVersion;
import dev.meshbench.dataplane.config.Ports;
import dev.meshbench.dataplane.config.TlsProvider;
import java.math.BigDecimal;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options every proxy command has (a picocli mixin). */
final class ProxyOptions {
    @Option(names = "--name", paramLabel = "NAME", description = "Component name, in logs, stats and the ready line (required).")
    String name;

    @Option(names = "--admin-port", paramLabel = "PORT", converter = PortConverter.class,
            description = "Admin HTTP endpoint (GET /stats, GET /ready, GET /config, PUT /config?version=V with the arguments "
                    + "one per line to switch the listeners while running); default 0 = any free port.")
    int adminPort;

    @Option(names = "--bind-host", paramLabel = "HOST", description = "Address every port binds; default ${DEFAULT-VALUE}.")
    String bindHost = ComponentConfig.DEFAULT_BIND_HOST;

    @Option(names = "--io-threads", paramLabel = "N", converter = IoThreadsConverter.class,
            description = "Event-loop threads; default 0 = Netty's default (2 x cores).")
    int ioThreads;

    @Option(names = TlsProvider.OPTION, paramLabel = "P",
            description = "TLS of mesh mTLS: boringssl (BoringSSL via netty-tcnative, linux x86_64), jdk, or auto (default): "
                    + "boringssl where a test handshake with it passes, else jdk.")
    String tlsProvider = TlsProvider.DEFAULT.word();

    static final String DRAIN_SECONDS = "--drain-seconds";

    @Option(names = DRAIN_SECONDS, paramLabel = "S", converter = DrainSecondsConverter.class,
            defaultValue = "" + ComponentConfig.DEFAULT_DRAIN_SECONDS,
            description = "After PUT /config changes or removes a listener, close the connections it accepted before after S seconds "
                    + "(0-3600, decimals allowed; Envoy's --drain-time-s); default ${DEFAULT-VALUE}.")
    Duration drainTime;

    static final String CONFIG_VERSION = "--config-version";

    @Option(names = CONFIG_VERSION, paramLabel = "V", converter = ConfigVersionConverter.class,
            description = "Version of the listener configuration the process starts with, reported by GET /config and /stats until "
                    + "PUT /config?version= replaces it (1-64 letters, digits, '.', '_', ':', '-'); default ${DEFAULT-VALUE}.")
    ConfigVersion configVersion = ConfigVersion.INITIAL;

    /** A port, 0 for any free one: {@code --admin-port must be 0-65535 (got 70000)}. */
    static final class PortConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return Ports.parse(value, 0);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Seconds, decimals allowed: {@code 1}, {@code 0.25}, {@code 0}. */
    static final class DrainSecondsConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                BigDecimal seconds = new BigDecimal(value.trim());
                if (seconds.signum() >= 0 && seconds.compareTo(BigDecimal.valueOf(ComponentConfig.MAX_DRAIN_TIME.toSeconds())) <= 0) {
                    return Duration.ofNanos(seconds.movePointRight(9).longValue());
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw new TypeConversionException("must be a number of seconds 0-" + ComponentConfig.MAX_DRAIN_TIME.toSeconds()
                    + ", e.g. 1 or 0.5 (got '" + value + "')");
        }
    }

    static final class ConfigVersionConverter implements ITypeConverter<ConfigVersion> {
        @Override
        public ConfigVersion convert(String value) {
            try {
                return new ConfigVersion(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage().replace("a config version is ", "must be "));
            }
        }
    }

    static final class IoThreadsConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= 0 && n <= 256) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw new TypeConversionException("must be a number 0-256, 0 meaning Netty's default (got '" + value + "')");
        }
    }
}
