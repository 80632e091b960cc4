package dev.meshbench.dataplane.cli;

import dev.meshbench.dataplane.config.ComponentConfig;
import dev.meshbench.dataplane.config.Ports;
import dev.meshbench.dataplane.config.TlsProvider;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The options every proxy command has (a picocli mixin). */
final class ProxyOptions {
    @Option(names = "--name", paramLabel = "NAME", description = "Component name, in logs, stats and the ready line (required).")
    String name;

    @Option(names = "--admin-port", paramLabel = "PORT", converter = PortConverter.class,
            description = "Admin HTTP endpoint (GET /stats, GET /ready); default 0 = any free port.")
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
