package dev.meshbench.acmeair.config;

import com.mongodb.ConnectionString;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a service reaches MongoDB.
 *
 * @param uri                    connection string, for example {@code mongodb://mongo.meshbench.test:27017/?tls=true}
 * @param caFile                 PEM CA certificates to trust; null trusts the JVM's default CAs
 * @param clientCertificate      PEM client certificate chain, or null
 * @param clientKey              PEM (PKCS#8) key of the client certificate, or null
 * @param hostAliases            host name to IP literal; the driver connects to the IP but keeps the name for SNI and
 *                               host name verification
 * @param serverSelectionTimeout how long an operation waits for a usable server (unless the URI sets it)
 */
public record MongoConfig(String uri, Path caFile, Path clientCertificate, Path clientKey, Map<String, String> hostAliases,
        Duration serverSelectionTimeout) {

    public static final Duration DEFAULT_SERVER_SELECTION_TIMEOUT = Duration.ofSeconds(5);
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

    public MongoConfig {
        Objects.requireNonNull(uri, "uri");
        ConnectionString cs;
        try {
            cs = new ConnectionString(uri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("MongoDB connection string '" + uri + "' is invalid: " + e.getMessage(), e);
        }
        boolean tls = Boolean.TRUE.equals(cs.getSslEnabled());
        if (!tls && (caFile != null || clientCertificate != null)) {
            throw new IllegalArgumentException("a MongoDB CA file or client certificate is given but connection string '"
                    + uri + "' does not enable TLS (add tls=true)");
        }
        if ((clientCertificate == null) != (clientKey == null)) {
            throw new IllegalArgumentException("a MongoDB client certificate needs both --mongo-client-cert and "
                    + "--mongo-client-key (got cert=" + clientCertificate + ", key=" + clientKey + ")");
        }
        requireReadable(caFile, "MongoDB CA file");
        requireReadable(clientCertificate, "MongoDB client certificate");
        requireReadable(clientKey, "MongoDB client key");
        hostAliases = Map.copyOf(new LinkedHashMap<>(hostAliases));
        hostAliases.forEach(MongoConfig::requireIpLiteral);
        Objects.requireNonNull(serverSelectionTimeout, "serverSelectionTimeout");
        if (serverSelectionTimeout.isNegative() || serverSelectionTimeout.isZero()) {
            throw new IllegalArgumentException("MongoDB server selection timeout " + serverSelectionTimeout + " must be positive");
        }
    }

    public MongoConfig(String uri, Path caFile) {
        this(uri, caFile, null, null, Map.of(), DEFAULT_SERVER_SELECTION_TIMEOUT);
    }

    public MongoConfig withHostAlias(String host, String ip) {
        Map<String, String> m = new LinkedHashMap<>(hostAliases);
        m.put(host, ip);
        return new MongoConfig(uri, caFile, clientCertificate, clientKey, m, serverSelectionTimeout);
    }

    public MongoConfig withServerSelectionTimeout(Duration timeout) {
        return new MongoConfig(uri, caFile, clientCertificate, clientKey, hostAliases, timeout);
    }

    public ConnectionString connectionString() {
        return new ConnectionString(uri);
    }

    /** The URI's hosts, each followed by its alias if one applies: what error messages call "the Mongo address". */
    public String describeAddress() {
        StringBuilder b = new StringBuilder();
        for (String h : connectionString().getHosts()) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(h);
            String name = h.startsWith("[") ? h : h.replaceFirst(":\\d+$", "");
            String ip = hostAliases.get(name);
            if (ip != null) {
                b.append(" (alias of ").append(ip).append(')');
            }
        }
        return b.toString();
    }

    /** Parses {@code name=ip}. */
    public static Map.Entry<String, String> parseAlias(String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0 || eq == spec.length() - 1) {
            throw new IllegalArgumentException("host alias '" + spec + "' must look like name=ip, e.g. mongo.meshbench.test=127.0.0.1");
        }
        String name = spec.substring(0, eq).trim();
        String ip = spec.substring(eq + 1).trim();
        requireIpLiteral(name, ip);
        return Map.entry(name, ip);
    }

    /** Resolves an alias target; it is an IP literal, so no DNS lookup happens. */
    public static InetAddress addressOf(String name, String ip) {
        try {
            return InetAddress.getByAddress(name, InetAddress.getByName(ip).getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host alias " + name + "=" + ip + ": not an IP address", e);
        }
    }

    private static void requireIpLiteral(String name, String ip) {
        if (name.isEmpty() || !(IPV4.matcher(ip).matches() || (ip.contains(":") && ip.matches("[0-9a-fA-F:.]+")))) {
            throw new IllegalArgumentException("host alias " + name + "=" + ip + ": '" + ip + "' is not an IPv4 or IPv6 literal");
        }
    }

    private static void requireReadable(Path p, String what) {
        if (p != null && !Files.isReadable(p)) {
            throw new IllegalArgumentException(what + " " + p + " does not exist or is not readable");
        }
    }
}
