package dev.meshbench.acmeair.mongo;

import com.mongodb.spi.dns.InetAddressResolver;
import dev.meshbench.acmeair.config.MongoConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

/**
 * Resolves configured host names to fixed IPs and everything else through the JVM. The driver keeps connecting by
 * the name, so TLS still sends the name as SNI and verifies the certificate against it: this is how a service
 * reaches {@code mongo.meshbench.test} (or a sidecar listening for it) on loopback.
 */
public final class HostAliasResolver implements InetAddressResolver {
    private final Map<String, InetAddress> aliases;

    public HostAliasResolver(Map<String, String> aliases) {
        this.aliases = Map.copyOf(aliases.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> MongoConfig.addressOf(e.getKey(), e.getValue()))));
    }

    @Override
    public List<InetAddress> lookupByName(String host) throws UnknownHostException {
        InetAddress fixed = aliases.get(host);
        return fixed != null ? List.of(fixed) : List.of(InetAddress.getAllByName(host));
    }
}
