package dev.meshbench.dataplane.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A data-plane process: a named set of listeners plus an admin HTTP endpoint.
 *
 * @param name      component name (for example {@code sidecar-booking}, {@code egress-gateway}); used in logs,
 *                  stats and the ready line
 * @param bindHost  address the listeners and the admin endpoint bind (loopback by default)
 * @param adminPort admin HTTP port, 0 for an ephemeral one
 * @param ioThreads event-loop threads for connections; 0 lets Netty choose (twice the cores)
 * @param listeners at least one, distinct names and distinct non-zero ports
 * @param tls       workload identity; required when any listener uses mutual TLS, else may be null
 * @param tlsProvider the TLS implementation for mutual TLS; null means {@link TlsProvider#DEFAULT} ({@code auto}),
 *                  resolved when the component starts
 * @param drainTime how long connections accepted under a listener's previous configuration live on after a new one
 *                  replaced or removed it (Envoy's {@code --drain-time-s}); null means {@link #DEFAULT_DRAIN_TIME},
 *                  0 closes them at once, at most {@link #MAX_DRAIN_TIME}
 */
public record ComponentConfig(String name, String bindHost, int adminPort, int ioThreads, List<ListenerConfig> listeners,
        TlsMaterial tls, TlsProvider tlsProvider, Duration drainTime) {
    public static final String DEFAULT_BIND_HOST = "127.0.0.1";
    public static final int DEFAULT_DRAIN_SECONDS = 1;
    public static final Duration DEFAULT_DRAIN_TIME = Duration.ofSeconds(DEFAULT_DRAIN_SECONDS);
    public static final Duration MAX_DRAIN_TIME = Duration.ofHours(1);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

    public ComponentConfig {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("component name must be 1-63 letters, digits, '.', '_' or '-' (got '" + name + "')");
        }
        bindHost = bindHost == null || bindHost.isBlank() ? DEFAULT_BIND_HOST : bindHost.trim();
        Ports.check(adminPort, "admin port of " + name, 0);
        tlsProvider = tlsProvider == null ? TlsProvider.DEFAULT : tlsProvider;
        drainTime = drainTime == null ? DEFAULT_DRAIN_TIME : drainTime;
        if (drainTime.isNegative() || drainTime.compareTo(MAX_DRAIN_TIME) > 0) {
            throw new IllegalArgumentException("drain time of " + name + " must be 0 to " + MAX_DRAIN_TIME.toSeconds() + " s (got " + drainTime + ")");
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("io threads of " + name + " must be >= 0 (got " + ioThreads + ")");
        }
        Objects.requireNonNull(listeners, "listeners");
        listeners = List.copyOf(listeners);
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("component " + name + " needs at least one listener");
        }
        Set<String> names = new HashSet<>();
        Set<Integer> ports = new HashSet<>();
        for (ListenerConfig l : listeners) {
            if (!names.add(l.name())) {
                throw new IllegalArgumentException("component " + name + " has two listeners named " + l.name());
            }
            if (l.port() != 0 && (!ports.add(l.port()) || l.port() == adminPort)) {
                throw new IllegalArgumentException("component " + name + ": port " + l.port() + " of listener " + l.name() + " is used twice");
            }
            if (l.usesMtls() && tls == null) {
                throw new IllegalArgumentException("component " + name + ": listener " + l.name() + " uses mutual TLS ("
                        + l.tlsMode() + ") but no CA, certificate and key were given");
            }
        }
    }

    /** With the default drain time ({@link #DEFAULT_DRAIN_TIME}). */
    public ComponentConfig(String name, String bindHost, int adminPort, int ioThreads, List<ListenerConfig> listeners, TlsMaterial tls,
            TlsProvider tlsProvider) {
        this(name, bindHost, adminPort, ioThreads, listeners, tls, tlsProvider, DEFAULT_DRAIN_TIME);
    }

    /** With the default TLS provider ({@code auto}) and drain time. */
    public ComponentConfig(String name, String bindHost, int adminPort, int ioThreads, List<ListenerConfig> listeners, TlsMaterial tls) {
        this(name, bindHost, adminPort, ioThreads, listeners, tls, TlsProvider.DEFAULT);
    }

    public static ComponentConfig of(String name, List<ListenerConfig> listeners, TlsMaterial tls) {
        return new ComponentConfig(name, DEFAULT_BIND_HOST, 0, 0, listeners, tls);
    }

    public ComponentConfig withIoThreads(int threads) {
        return new ComponentConfig(name, bindHost, adminPort, threads, listeners, tls, tlsProvider, drainTime);
    }

    public ComponentConfig withTlsProvider(TlsProvider provider) {
        return new ComponentConfig(name, bindHost, adminPort, ioThreads, listeners, tls, provider, drainTime);
    }

    public ComponentConfig withDrainTime(Duration drain) {
        return new ComponentConfig(name, bindHost, adminPort, ioThreads, listeners, tls, tlsProvider, drain);
    }

    /** The same component with other listeners (what {@code PUT /config} may change). */
    public ComponentConfig withListeners(List<ListenerConfig> others) {
        return new ComponentConfig(name, bindHost, adminPort, ioThreads, others, tls, tlsProvider, drainTime);
    }
}
