package dev.meshbench.acmeair.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a service's options from the command line, falling back to environment variables (for containers).
 * The command line wins. Every option takes {@code --name value} or {@code --name=value}.
 *
 * <pre>
 * option                 env var                          meaning
 * --host                 BIND_HOST                        address to bind (default 127.0.0.1)
 * --port                 PORT                             port (default 0: a free one)
 * --mongo-uri            MONGO_URI                        connection string
 * --mongo-ca-file        MONGO_CA_FILE                    PEM CA to trust (default: the JVM's CAs)
 * --mongo-client-cert    MONGO_CLIENT_CERT                PEM client certificate (optional)
 * --mongo-client-key     MONGO_CLIENT_KEY                 PEM client key (optional)
 * --mongo-host-alias     MONGO_HOST_ALIASES (a,b,...)     name=ip, repeatable
 * --mongo-timeout-ms     MONGO_SERVER_SELECTION_TIMEOUT_MS server selection timeout (default 5000)
 * --customer-url         CUSTOMER_URL                     customer service base URL
 * --flight-url           FLIGHT_URL                       flight service base URL
 * --jwt-private-key      JWT_PRIVATE_KEY                  PEM RSA key that signs tokens (auth)
 * --jwt-public-key       JWT_PUBLIC_KEY                   PEM RSA public key or certificate (customer, booking)
 * --flight-cache         FLIGHT_CACHE                     true|false: flight caches segments, flights, miles (true)
 * --rewards-async        REWARDS_ASYNC                    true|false: booking updates miles after answering (true)
 * --added-latency-ms     ADDED_LATENCY_MS                 wait before each API request, a deliberate slowdown (0)
 * --exit-on-stdin-eof                                     exit when the parent closes stdin
 * </pre>
 */
public final class ServiceOptionsReader {
    /** Option name to environment variable. */
    static final Map<String, String> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("--host", "BIND_HOST");
        OPTIONS.put("--port", "PORT");
        OPTIONS.put("--mongo-uri", "MONGO_URI");
        OPTIONS.put("--mongo-ca-file", "MONGO_CA_FILE");
        OPTIONS.put("--mongo-client-cert", "MONGO_CLIENT_CERT");
        OPTIONS.put("--mongo-client-key", "MONGO_CLIENT_KEY");
        OPTIONS.put("--mongo-host-alias", "MONGO_HOST_ALIASES");
        OPTIONS.put("--mongo-timeout-ms", "MONGO_SERVER_SELECTION_TIMEOUT_MS");
        OPTIONS.put("--customer-url", "CUSTOMER_URL");
        OPTIONS.put("--flight-url", "FLIGHT_URL");
        OPTIONS.put("--jwt-private-key", "JWT_PRIVATE_KEY");
        OPTIONS.put("--jwt-public-key", "JWT_PUBLIC_KEY");
        OPTIONS.put("--flight-cache", "FLIGHT_CACHE");
        OPTIONS.put("--rewards-async", "REWARDS_ASYNC");
        OPTIONS.put("--added-latency-ms", "ADDED_LATENCY_MS");
    }

    public static final String USAGE = "usage: java -jar acmeair-services.jar <auth|customer|flight|booking> [--host 127.0.0.1] [--port 0]"
            + " [--mongo-uri URI] [--mongo-ca-file PEM] [--mongo-client-cert PEM --mongo-client-key PEM]"
            + " [--mongo-host-alias name=ip ...] [--mongo-timeout-ms 5000] [--customer-url URL] [--flight-url URL]"
            + " [--jwt-private-key PEM] [--jwt-public-key PEM] [--flight-cache true|false] [--rewards-async true|false]"
            + " [--added-latency-ms 0] [--exit-on-stdin-eof]";

    private ServiceOptionsReader() {
    }

    /** The parsed options; {@code exitOnStdinEof} is separate because it is about the process, not the service. */
    public record Parsed(ServiceConfig config, boolean exitOnStdinEof) {
    }

    public static Parsed read(ServiceName service, List<String> args, Map<String, String> env) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        boolean exitOnEof = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ("--exit-on-stdin-eof".equals(a)) {
                exitOnEof = true;
                continue;
            }
            String name = a;
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            } else {
                if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                    if (OPTIONS.containsKey(a)) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    throw new IllegalArgumentException("unknown option '" + a + "'");
                }
                value = args.get(++i);
            }
            if (!OPTIONS.containsKey(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "'");
            }
            values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        OPTIONS.forEach((option, var) -> {
            String v = env.get(var);
            if (!values.containsKey(option) && v != null && !v.isBlank()) {
                values.put(option, "--mongo-host-alias".equals(option) ? List.of(v.split(",")) : List.of(v));
            }
        });

        String host = single(values, "--host", "127.0.0.1");
        int port = integer(values, "--port", 0);
        MongoConfig mongo = null;
        String uri = single(values, "--mongo-uri", null);
        if (uri != null) {
            Map<String, String> aliases = new LinkedHashMap<>();
            for (String spec : values.getOrDefault("--mongo-host-alias", List.of())) {
                Map.Entry<String, String> e = MongoConfig.parseAlias(spec.trim());
                aliases.put(e.getKey(), e.getValue());
            }
            int timeoutMs = integer(values, "--mongo-timeout-ms", (int) MongoConfig.DEFAULT_SERVER_SELECTION_TIMEOUT.toMillis());
            mongo = new MongoConfig(uri, path(values, "--mongo-ca-file"), path(values, "--mongo-client-cert"),
                    path(values, "--mongo-client-key"), aliases, Duration.ofMillis(timeoutMs));
        } else {
            for (String o : List.of("--mongo-ca-file", "--mongo-client-cert", "--mongo-client-key", "--mongo-host-alias")) {
                if (values.containsKey(o)) {
                    throw new IllegalArgumentException(o + " is given but --mongo-uri (MONGO_URI) is not");
                }
            }
        }
        ServiceConfig config = new ServiceConfig(service, host, port, mongo, url(values, "--customer-url"),
                url(values, "--flight-url"), path(values, "--jwt-private-key"), path(values, "--jwt-public-key"),
                new Behaviour(bool(values, "--flight-cache", Behaviour.ORIGINAL.flightCache()),
                        bool(values, "--rewards-async", Behaviour.ORIGINAL.rewardsAsync()),
                        integer(values, "--added-latency-ms", 0)));
        return new Parsed(config, exitOnEof);
    }

    private static String single(Map<String, List<String>> values, String option, String fallback) {
        List<String> v = values.get(option);
        if (v == null) {
            return fallback;
        }
        if (v.size() > 1) {
            throw new IllegalArgumentException(option + " is given " + v.size() + " times; it takes one value");
        }
        return v.get(0);
    }

    private static int integer(Map<String, List<String>> values, String option, int fallback) {
        String v = single(values, option, null);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new IllegalArgumentException(option + " " + v + " must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + v + "' is not a whole number");
        }
    }

    private static boolean bool(Map<String, List<String>> values, String option, boolean fallback) {
        String v = single(values, option, null);
        return v == null ? fallback : Behaviour.parseSwitch(option, v);
    }

    private static Path path(Map<String, List<String>> values, String option) {
        String v = single(values, option, null);
        return v == null ? null : Path.of(v);
    }

    private static URI url(Map<String, List<String>> values, String option) {
        String v = single(values, option, null);
        if (v == null) {
            return null;
        }
        try {
            return new URI(v.endsWith("/") ? v.substring(0, v.length() - 1) : v);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(option + " '" + v + "' must be an http(s) URL with a host, e.g. http://127.0.0.1:9082 ("
                    + e.getMessage() + ")");
        }
    }
}
