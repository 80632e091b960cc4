package dev.meshbench.mongo;

import dev.meshbench.component.MeshNames;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and as whom the embedded MongoDB serves.
 *
 * @param host       address to bind, for example {@code 127.0.0.1}
 * @param port       port to bind; {@code 0} picks a free one
 * @param dir        directory that receives {@code mongo-ca.pem} (created if missing)
 * @param serverName DNS name in the server certificate; clients connect by this name (SNI, host name check)
 */
public record EmbeddedMongoConfig(String host, int port, Path dir, String serverName) {
    /** The CA certificate's file name inside {@link #dir}. */
    public static final String CA_FILE_NAME = "mongo-ca.pem";
    /** The name the kit gives MongoDB unless told otherwise. */
    public static final String DEFAULT_SERVER_NAME = MeshNames.MONGO_HOST;

    private static final Pattern DNS_NAME = Pattern.compile(
            "(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*");

    public EmbeddedMongoConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(serverName, "serverName");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " must be between 0 and 65535");
        }
        if (!DNS_NAME.matcher(serverName).matches()) {
            throw new IllegalArgumentException("server name '" + serverName + "' must be a DNS host name (letters, digits, '-' and '.')");
        }
    }

    /** Loopback, a free port, the default server name. */
    public static EmbeddedMongoConfig loopback(Path dir) {
        return new EmbeddedMongoConfig("127.0.0.1", 0, dir, DEFAULT_SERVER_NAME);
    }

    public Path caFile() {
        return dir.resolve(CA_FILE_NAME).toAbsolutePath();
    }
}
