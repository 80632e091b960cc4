package dev.meshbench.acmeair.mongo;

import dev.meshbench.component.ComponentMain;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.connection.ServerDescription;
import dev.meshbench.acmeair.config.MongoConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/** Pings MongoDB with a short timeout and explains a failure with the address and the driver's last error. */
public final class MongoReadiness {
    private final MongoClient client;
    private final MongoConfig config;
    private final Duration timeout;

    public MongoReadiness(MongoClient client, MongoConfig config, Duration timeout) {
        this.client = client;
        this.config = config;
        this.timeout = timeout;
    }

    /**
     * The outcome of one check.
     *
     * @param up     MongoDB answered {@code ping}
     * @param mongo  the address as configured (with its alias)
     * @param detail what went wrong, or {@code ping ok}
     */
    public record Report(boolean up, String mongo, String detail) {
    }

    public Report check() {
        String address = config.describeAddress();
        try {
            client.getDatabase("admin").withTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).runCommand(new Document("ping", 1));
            return new Report(true, address, "ping ok");
        } catch (MongoException e) {
            return new Report(false, address, "MongoDB at " + address + " did not answer ping: " + lastServerError().orElse(firstLine(e)));
        }
    }

    private java.util.Optional<String> lastServerError() {
        for (ServerDescription d : client.getClusterDescription().getServerDescriptions()) {
            if (d.getException() != null) {
                return java.util.Optional.of(ComponentMain.describe(d.getException()));
            }
        }
        return java.util.Optional.empty();
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
