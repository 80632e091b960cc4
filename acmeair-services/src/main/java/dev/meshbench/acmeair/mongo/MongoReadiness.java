package dev.meshbench.acmeair.mongo;

import dev.meshbench.component.ComponentMain;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.connection.ServerDescription;
import dev.meshbench.acmeair.config.MongoConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/**
 * Pings MongoDB with a short timeout and explains a failure with the address and the driver's last error. The
 * readiness check pings the client in use ({@link SwitchableMongo#active()}), so after a MongoDB switch it reports
 * the new address.
 */
public final class MongoReadiness {
    private final SwitchableMongo mongo;
    private final Duration timeout;

    public MongoReadiness(SwitchableMongo mongo, Duration timeout) {
        this.mongo = mongo;
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

    /** Pings the client in use. */
    public Report check() {
        SwitchableMongo.Active active = mongo.active();
        return ping(active.client(), active.config(), timeout);
    }

    /** Pings {@code client}, which {@code config} describes, waiting at most {@code timeout}. */
    public static Report ping(MongoClient client, MongoConfig config, Duration timeout) {
        String address = config.describeAddress();
        try {
            client.getDatabase("admin").withTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).runCommand(new Document("ping", 1));
            return new Report(true, address, "ping ok");
        } catch (MongoException e) {
            return new Report(false, address, "MongoDB at " + address + " did not answer ping: " + lastServerError(client).orElse(firstLine(e)));
        }
    }

    private static java.util.Optional<String> lastServerError(MongoClient client) {
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
